/**
 * Hostile variants of a valid request body (issue #9): each family puts one kind of bad value at
 * one place of the body, as raw JSON text (some cannot be built as JS objects: `__proto__` keys,
 * lone surrogates, nesting deeper than JSON.stringify's stack).
 */

/** A place in a body: property names and array indexes from the root. */
export type JsonPath = readonly (string | number)[];

export interface BodyVariant {
  readonly family: string;
  /** Where the bad value is, as the error should name it (`InvoiceLines[0].Description`). */
  readonly at: string;
  readonly raw: string;
}

const MARK = '\u0001@@fuzz@@\u0001';

export function pathText(path: JsonPath): string {
  return path.reduce<string>((text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part), '');
}

/** Every place of a value, parents before children (the root, `[]`, included). */
export function placesOf(value: unknown, path: JsonPath = []): Array<{ path: JsonPath; value: unknown }> {
  const here = [{ path, value }];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, i) => placesOf(item, [...path, i]))];
  if (value !== null && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([k, v]) => placesOf(v, [...path, k]))];
  return here;
}

function replaced(body: unknown, path: JsonPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (Array.isArray(body)) return body.map((item, i) => (i === head ? replaced(item, rest, value) : item));
  return { ...(body as Record<string, unknown>), [head]: replaced((body as Record<string, unknown>)[head as string], rest, value) };
}

/** The body as JSON text with the value at `path` replaced by the raw JSON `fragment`. */
export function withRaw(body: unknown, path: JsonPath, fragment: string): string {
  return JSON.stringify(replaced(body, path, MARK)).replace(JSON.stringify(MARK), fragment);
}

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/**
 * The families of the issue, each at every place it applies to (fields only: the root is the
 * caller's own variants): prototype keys, NUL, lone surrogates, null, arrays for objects, deep
 * nesting, numbers no double holds.
 */
export function hostileVariants(body: Record<string, unknown>): BodyVariant[] {
  const variants: BodyVariant[] = [];
  const add = (family: string, path: JsonPath, fragment: string) => variants.push({ family, at: pathText(path), raw: withRaw(body, path, fragment) });
  for (const { path, value } of placesOf(body)) {
    if (path.length === 0) continue;
    add('constructor key', path, '{"constructor":{"prototype":{}}}');
    add('__proto__ key', path, '{"__proto__":{"polluted":true}}');
    add('null', path, 'null');
    if (typeof value === 'string') {
      add('NUL character', path, JSON.stringify(`${value}\u0000x`));
      add('lone surrogate', path, JSON.stringify(`${value}\ud800`));
    }
    if (typeof value === 'number') {
      add('huge number', path, '1e308');
      add('imprecise number', path, '100000000000000000000');
    }
    if (value !== null && typeof value === 'object') add('array for object', path, Array.isArray(value) ? '[[]]' : '[[]]');
  }
  const first = Object.keys(body)[0];
  if (first !== undefined) {
    for (const depth of [100, 2_000, 6_000, 10_000]) add(`nesting ${depth}`, [first], nested(depth));
  }
  return variants;
}

/** Variants of the whole body: prototype keys at the root, nesting at the root, not an object. */
export function rootVariants(body: Record<string, unknown>): BodyVariant[] {
  const json = JSON.stringify(body);
  return [
    { family: '__proto__ at the root', at: '', raw: `{"__proto__":{"polluted":true},${json.slice(1)}` },
    { family: 'constructor at the root', at: '', raw: `{"constructor":{"prototype":{"polluted":true}},${json.slice(1)}` },
    { family: 'root nesting 5000', at: '', raw: nested(5_000) },
    { family: 'root nesting 10000', at: '', raw: nested(10_000) },
    { family: 'array of arrays', at: '', raw: '[[]]' },
  ];
}
