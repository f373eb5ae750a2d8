import 'reflect-metadata';
import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage, validateSync } from 'class-validator';
// Every area's DTO classes, registered: the comparison runs over all of them (a whole-library test).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import '../index';
import { beInvoice } from '../peppol-ubl/fixtures/bodies';
import { InvoiceBody } from '../peppol-ubl/schema';
import { VALIDATOR_OPTIONS, withoutNulls } from './validate';
import { passesValidation } from './validation-verdict';
import { dtoInstance } from './dto-instance';

/**
 * passesValidation must answer as validateSync does (validateBody trusts its yes), and leave the
 * instance as validateSync does (whitelist). Bodies: generated from each DTO class's own rules
 * (every class with class-validator metadata, every area's), and a valid BE invoice changed at one
 * place; both verdicts are asked of two instances built from the same body.
 */
type Cls = new () => object;
type Rule = { type: string; constraintCls: unknown; constraints: unknown[] };

const storage = getMetadataStorage() as unknown as {
  validationMetadatas: Map<unknown, unknown>;
  getTargetValidationMetadatas(target: unknown, schema: string | undefined, always: boolean, strict: boolean): Rule[];
  groupByPropertyName(rules: Rule[]): Record<string, Rule[]>;
  getTargetValidatorConstraints(cls: unknown): Array<{ name: string }>;
};
// class-transformer keeps `@Type` in a storage it does not export from its index: where a nested class is.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage };
const classes = [...storage.validationMetadatas.keys()].filter((t): t is Cls => typeof t === 'function');

function verdicts(cls: Cls, body: unknown): { fast: boolean; slow: boolean; fastShape: string; slowShape: string } {
  // The instance validateBody builds (dto-instance.ts) is class-transformer's, class by class, key by key.
  const fastInstance = dtoInstance(cls, withoutNulls(structuredClone(body)) as Record<string, unknown>);
  const slowInstance = plainToInstance(cls, withoutNulls(structuredClone(body)), { enableImplicitConversion: false, exposeDefaultValues: false });
  expect(fastInstance).toStrictEqual(slowInstance);
  const fast = passesValidation(fastInstance as object);
  const slow = validateSync(slowInstance as object, VALIDATOR_OPTIONS).length === 0;
  return { fast, slow, fastShape: JSON.stringify(fastInstance), slowShape: JSON.stringify(slowInstance) };
}

/** Both verdicts agree, and so do the instances when they pass; counts which way the body went. */
function expectSameVerdict(cls: Cls, body: unknown, seen: { valid: number; invalid: number }): void {
  const { fast, slow, fastShape, slowShape } = verdicts(cls, body);
  seen[slow ? 'valid' : 'invalid'] += 1;
  expect(fast).toBe(slow);
  if (fast) expect(fastShape).toBe(slowShape);
}

const junk = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.constant([[]]),
  fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.constant(null)), { maxLength: 3 }),
);

/** A value for one property, guided by its rules (often valid), or junk. */
function propertyValue(cls: Cls, name: string, rules: Rule[], depth: number): fc.Arbitrary<unknown> {
  const names = rules.flatMap((r) => storage.getTargetValidatorConstraints(r.constraintCls).map((c) => ({ name: c.name, rule: r })));
  const has = (n: string) => names.find((x) => x.name === n);
  const nestedCls = defaultMetadataStorage.findTypeMetadata(cls, name)?.typeFunction() as Cls | undefined;
  const guided: Array<fc.Arbitrary<unknown>> = [];
  if (nestedCls && depth < 4) {
    const one = bodyOf(nestedCls, depth + 1);
    guided.push(has('isArray') || rules.some((r) => (r as { each?: boolean }).each) ? fc.array(one, { minLength: 0, maxLength: 3 }) : one);
  }
  const isIn = has('isIn');
  if (isIn) guided.push(fc.constantFrom(...(isIn.rule.constraints[0] as unknown[])));
  const matches = has('matches');
  if (matches && matches.rule.constraints[0] instanceof RegExp) {
    // fast-check cannot generate from every pattern (back-references): those get strings only.
    try {
      guided.push(fc.stringMatching(matches.rule.constraints[0]));
    } catch {
      guided.push(fc.string({ maxLength: 12 }));
    }
  }
  const maxLength = has('maxLength');
  if (maxLength) guided.push(fc.string({ maxLength: Number(maxLength.rule.constraints[0]) + 2 }));
  if (has('isCalendarDate')) guided.push(fc.constantFrom('2026-01-31', '2024-02-29', '2023-02-29', '2026-13-01', '26-01-01'));
  if (has('isNumber') || has('isInt')) guided.push(fc.oneof(fc.integer({ min: -5, max: 1000 }), fc.double({ min: -5, max: 1000, noNaN: true })));
  if (has('isString')) guided.push(fc.string({ maxLength: 12 }));
  return guided.length ? fc.oneof({ arbitrary: fc.oneof(...guided), weight: 6 }, { arbitrary: junk, weight: 1 }) : junk;
}

const bodies = new Map<Cls, fc.Arbitrary<Record<string, unknown>>>();

function bodyOf(cls: Cls, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const known = depth === 0 ? bodies.get(cls) : undefined;
  if (known) return known;
  const grouped = storage.groupByPropertyName(storage.getTargetValidationMetadatas(cls, undefined, false, false));
  const properties: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, rules] of Object.entries(grouped)) properties[name] = propertyValue(cls, name, rules, depth);
  // Mostly every property present (rules mostly hold), sometimes some left out; an unknown key now and then.
  const body = fc
    .tuple(fc.record(properties, { requiredKeys: [] }), fc.record(properties), fc.dictionary(fc.constantFrom('extra', 'Unknown', '__x'), junk, { maxKeys: 1 }))
    .chain(([some, all, extra]) => fc.constantFrom({ ...all, ...extra }, { ...some, ...extra }, all));
  if (depth === 0) bodies.set(cls, body);
  return body;
}

describe('passesValidation answers as class-validator does, on the instance dtoInstance builds as class-transformer does', () => {
  it('knows every DTO class of every area', () => {
    expect(classes.length).toBeGreaterThan(40);
  });

  it.each(classes.map((cls) => [cls.name, cls] as const))('%s: the same verdict and the same stripped instance for generated bodies', (_name, cls) => {
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(bodyOf(cls), (body) => {
        expectSameVerdict(cls, body, seen);
      }),
      { numRuns: 150 },
    );
    // Not only one side of the question was asked.
    expect(seen.invalid).toBeGreaterThan(0);
  });

  it('a valid BE invoice changed at one place: the same verdict, the same stripped instance', () => {
    const valid = beInvoice();
    expect(verdicts(InvoiceBody, valid)).toMatchObject({ fast: true, slow: true });
    const places: Array<Array<string | number>> = [];
    const walk = (value: unknown, path: Array<string | number>) => {
      places.push(path);
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
    };
    walk(valid, []);
    const seen = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(fc.constantFrom(...places.filter((p) => p.length > 0)), fc.oneof(junk, fc.constant(undefined), fc.constant('x'.repeat(400))), (path, replacement) => {
        const body = structuredClone(valid) as Record<string | number, unknown>;
        let parent = body;
        for (const part of path.slice(0, -1)) parent = parent[part] as Record<string | number, unknown>;
        if (replacement === undefined) delete parent[path[path.length - 1]];
        else parent[path[path.length - 1]] = replacement;
        expectSameVerdict(InvoiceBody, body, seen);
      }),
      { numRuns: 1000 },
    );
    expect(seen.valid).toBeGreaterThan(0);
    expect(seen.invalid).toBeGreaterThan(0);
  });
});
