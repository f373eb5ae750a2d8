import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
// Every area's DTO classes, registered: the comparison runs over all of them (a whole-library test).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import '../index';
import { beInvoice } from '../peppol-ubl/fixtures/bodies';
import { InvoiceBody } from '../peppol-ubl/schema';
import { dtoInstance } from './dto-instance';
import { ImpreciseNumber } from './validate';

/**
 * dtoInstance builds what plainToInstance builds (validation-verdict.unit.spec.ts compares them on
 * generated bodies of every DTO class); here, the corners a generator seldom reaches.
 */
const transformer = (body: Record<string, unknown>) => plainToInstance(InvoiceBody, structuredCloneKeepingClasses(body), { enableImplicitConversion: false, exposeDefaultValues: false });
const ours = (body: Record<string, unknown>) => dtoInstance(InvoiceBody, structuredCloneKeepingClasses(body));

/** A deep copy that keeps an ImpreciseNumber an ImpreciseNumber, and own `__proto__` keys own keys. */
function structuredCloneKeepingClasses<T>(value: T): T {
  if (Array.isArray(value)) return value.map(structuredCloneKeepingClasses) as T;
  if (value instanceof ImpreciseNumber) return new ImpreciseNumber(value.text) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: structuredCloneKeepingClasses((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  return out as T;
}

describe('dtoInstance: plainToInstance without its executor (#11)', () => {
  it('a BE invoice: the same classes at every level, the same keys in the same order', () => {
    const body = beInvoice() as Record<string, unknown>;
    const built = ours(body);
    expect(built).toStrictEqual(transformer(body));
    expect(built).toBeInstanceOf(InvoiceBody);
    expect(JSON.stringify(built)).toBe(JSON.stringify(transformer(body)));
  });

  it.each([
    ['an own __proto__ key and a constructor key (skipped)', { __proto__x: 1, ...JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"a": 1}}') }],
    ["Object.prototype's names (methods: skipped)", { toString: 'x', hasOwnProperty: 1, valueOf: [] }],
    ['an ImpreciseNumber at the top, in a nested object, in a list', { x: new ImpreciseNumber('1.00000000000000000001'), seller: { name: new ImpreciseNumber('2') }, lines: [new ImpreciseNumber('3'), { quantity: new ImpreciseNumber('4') }] }],
    ['a nested class given a string, a list, a list of lists, a number', { seller: 'x', buyer: [{ name: 'b' }], lines: [[{ quantity: 1 }], 'y', 5], payment: 7 }],
    ['unknown keys with objects inside (plain objects, no class)', { extra: { deeper: { deepest: [1, { a: 'b' }] } } }],
  ])('%s', (_what, changes) => {
    const body = { ...(beInvoice() as Record<string, unknown>), ...changes };
    expect(ours(body)).toStrictEqual(transformer(body));
    expect(Object.getPrototypeOf(ours(body))).toBe(InvoiceBody.prototype);
  });

  it('a body holding what JSON never makes (a Date) goes to plainToInstance itself', () => {
    const body = { ...(beInvoice() as Record<string, unknown>), issueDate: new Date('2026-01-01') };
    const built = dtoInstance(InvoiceBody, body);
    expect(built).toStrictEqual(plainToInstance(InvoiceBody, body, { enableImplicitConversion: false, exposeDefaultValues: false }));
  });
});
