import { AppError } from '@einvoice/domain';
import { IsBoolean, IsString, maxLength } from 'class-validator';
import { Nested, NestedList, Num, Text, compose, presence } from './fields';
import { ImpreciseNumber, parseBody, validateBody, withoutNulls } from './validate';
import { formatAmount, mulRound2, round2, sum } from './money';

class Inner { @Text(5) Name: string; @Num() Rate: number; }
class Outer {
  @Text(10) Title: string;
  @Num({ optional: true }) Qty?: number;
  @Nested(() => Inner) Inner: Inner;
  @NestedList(() => Inner, { min: 1 }) Items: Inner[];
}

const good = () => ({ Title: 'ok', Inner: { Name: 'a', Rate: 1 }, Items: [{ Name: 'b', Rate: 2 }] });

function issuesOf(body: unknown) {
  try { validateBody(Outer, body); } catch (e) { expect(e).toBeInstanceOf(AppError); return (e as AppError).issues.map((i) => [i.path, i.code, i.message]); }
  throw new Error('expected a validation error');
}

describe('validateBody', () => {
  it('given a valid body with unknown keys, when validated, then the DTO is returned without them', () => {
    const dto = validateBody(Outer, { ...good(), Extra: 1, Inner: { Name: 'a', Rate: 1, Secret: 'x' } });
    expect(dto).toBeInstanceOf(Outer);
    expect(dto).not.toHaveProperty('Extra');
    expect(dto.Inner).not.toHaveProperty('Secret');
  });
  it.each([null, [], 'text', 12])('given the body %p, when validated, then one INVALID_TYPE issue at the root', (body) => {
    expect(issuesOf(body)).toEqual([['', 'FIELD.INVALID_TYPE', 'The request body must be a JSON object.']]);
  });
  it('given a missing field, when validated, then exactly one REQUIRED issue', () => {
    const { Title: _t, ...rest } = good();
    expect(issuesOf(rest)).toEqual([['Title', 'FIELD.REQUIRED', 'Title is required']]);
  });
  it('given a number where a string is expected, when validated, then one INVALID_TYPE issue', () => {
    expect(issuesOf({ ...good(), Title: 12 })).toEqual([['Title', 'FIELD.INVALID_TYPE', 'Title must be a string']]);
  });
  it('given the string "12" for a number, when validated, then it is not coerced', () => {
    expect(issuesOf({ ...good(), Qty: '12' })).toEqual([['Qty', 'FIELD.INVALID_TYPE', 'Qty must be a number']]);
  });
  it('given a too long string, when validated, then TOO_LONG names the limit', () => {
    expect(issuesOf({ ...good(), Title: 'x'.repeat(11) })).toEqual([['Title', 'FIELD.TOO_LONG', 'Title must be at most 10 characters']]);
  });
  it('given a string where an object is expected, when validated, then one INVALID_TYPE issue and no cascade', () => {
    expect(issuesOf({ ...good(), Inner: 'x' })).toEqual([['Inner', 'FIELD.INVALID_TYPE', 'Inner must be an object']]);
  });
  it('given an object where an array is expected, when validated, then one INVALID_TYPE issue', () => {
    expect(issuesOf({ ...good(), Items: { Name: 'b', Rate: 2 } })).toEqual([['Items', 'FIELD.INVALID_TYPE', 'Items must be an array']]);
  });
  it('#9 given an array where an element object is expected, when validated, then INVALID_TYPE at the list', () => {
    expect(issuesOf({ ...good(), Items: [[]] })).toEqual([['Items', 'FIELD.INVALID_TYPE', 'Items must contain objects, not arrays (element 0 is an array)']]);
    expect(issuesOf({ ...good(), Inner: [] })).toEqual([['Inner', 'FIELD.INVALID_TYPE', 'Inner must be an object']]);
  });
  it('#9 given null, when validated, then an optional field is absent and a mandatory one is required', () => {
    expect(validateBody(Outer, { ...good(), Qty: null }).Qty).toBeUndefined();
    expect(issuesOf({ ...good(), Title: null, Inner: { Name: null, Rate: 1 } })).toEqual([
      ['Title', 'FIELD.REQUIRED', 'Title is required'],
      ['Inner.Name', 'FIELD.REQUIRED', 'Inner.Name is required'],
    ]);
    expect(issuesOf({ ...good(), Items: [null] })).toEqual([['Items[0]', 'FIELD.REQUIRED', 'Items[0] is required']]);
  });
  it('#11 given a body with no null member, when nulls are left out, then the body itself is taken, not a copy', () => {
    const body = good();
    expect(withoutNulls(body)).toBe(body);
    expect(withoutNulls({ ...body, Items: [null, { Name: 'b', Rate: 2 }] })).toEqual({ ...body, Items: [null, { Name: 'b', Rate: 2 }] });
  });
  it('#11 given a null member at any depth, when nulls are left out, then a copy without it, the body unchanged', () => {
    const body = { ...good(), Qty: 1, Items: [{ Name: 'b', Rate: 2 }, { Name: null, Rate: 3 }] };
    const copy = withoutNulls(body);
    expect(copy).toEqual({ ...good(), Qty: 1, Items: [{ Name: 'b', Rate: 2 }, { Rate: 3 }] });
    expect(body.Items[1]).toEqual({ Name: null, Rate: 3 });
  });
  it('#9 given a number no double holds exactly, when validated, then the message says so, not "must be a number"', () => {
    expect(issuesOf({ ...good(), Qty: new ImpreciseNumber('1e308') })).toEqual([
      ['Qty', 'FIELD.IMPRECISE_NUMBER', 'Qty is a number, but 1e308 cannot be taken exactly (more than 15 significant digits, or out of range); send it with fewer digits'],
    ]);
  });
  it('given an empty array, when validated, then TOO_FEW', () => {
    expect(issuesOf({ ...good(), Items: [] })).toEqual([['Items', 'FIELD.TOO_FEW', 'Items must contain at least 1 element']]);
  });
  it('given bad nested elements, when validated, then paths are indexed', () => {
    expect(issuesOf({ ...good(), Items: [{ Name: 'b', Rate: 2 }, 'x', { Name: 'toolong', Rate: NaN }] })).toEqual([
      ['Items[1]', 'FIELD.INVALID_TYPE', 'Items[1] must be an object'],
      ['Items[2].Name', 'FIELD.TOO_LONG', 'Items[2].Name must be at most 5 characters'],
      ['Items[2].Rate', 'FIELD.INVALID_TYPE', 'Items[2].Rate must be a number'],
    ]);
  });
});

describe('parseBody', () => {
  class Card {
    @compose(presence(false, 'is required once a card is sent: the card network, e.g. VISA'), IsString({ message: 'must be a string' })) Network: string;
    @compose(presence(true), IsBoolean({ message: 'must be true or false' })) Virtual?: boolean;
  }
  it('#45 given a bad body, when parsed, then the issues validateBody would throw, without throwing', () => {
    expect(parseBody(Outer, { ...good(), Title: 12 })).toEqual({ issues: [expect.objectContaining({ path: 'Title', code: 'FIELD.INVALID_TYPE', message: 'Title must be a string' })] });
    expect(parseBody(Outer, 'text')).toEqual({ issues: [expect.objectContaining({ path: '', code: 'FIELD.INVALID_TYPE' })] });
    expect(parseBody(Outer, good())).toEqual({ value: expect.any(Outer) });
  });
  it('#45 given a required field with its own wording, when missing, then FIELD.REQUIRED says it after the path; a boolean of another type is FIELD.INVALID_TYPE', () => {
    expect(parseBody(Card, { Virtual: 'yes' })).toEqual({ issues: [
      expect.objectContaining({ path: 'Network', code: 'FIELD.REQUIRED', message: 'Network is required once a card is sent: the card network, e.g. VISA' }),
      expect.objectContaining({ path: 'Virtual', code: 'FIELD.INVALID_TYPE', message: 'Virtual must be true or false' }),
    ] });
  });
});

describe('Text(max)', () => {
  class Short { @Text(3) Name: string; }
  const passes = (name: string) => {
    try {
      validateBody(Short, { Name: name });
      return true;
    } catch {
      return false;
    }
  };
  it('#11 counts characters as class-validator\'s MaxLength does (surrogate pairs and variation selectors count once)', () => {
    // Longer than 3 UTF-16 units, yet 3 characters for validator.js: the shortcut must not refuse them.
    expect(['abc', '😀😀😀', 'a\uFE0Fbc', '€😀x'].map(passes)).toEqual([true, true, true, true]);
    expect(['abcd', '😀😀😀😀', 'ab\uFE0Fcd'].map(passes)).toEqual([false, false, false]);
  });
  it('#11 agrees with class-validator\'s maxLength on generated strings', () => {
    const pieces = ['a', 'é', '😀', '\uFE0F', '\uFE0E', '\uD800', '\uDC00', ' '];
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 2_000; n += 1) {
      const name = Array.from({ length: next() % 9 }, () => pieces[next() % pieces.length]).join('');
      expect([name, passes(name)]).toEqual([name, maxLength(name, 3)]);
    }
  });
});

describe('money', () => {
  it('given 0.1 + 0.2, when summed, then the result is exactly 0.3', () => {
    expect(sum([0.1, 0.2]).toString()).toBe('0.3');
  });
  it('given half-cent values, when rounded, then half-up to 2 decimals', () => {
    expect(round2(1.005).toFixed(2)).toBe('1.01');
    expect(round2(2.675).toFixed(2)).toBe('2.68');
    expect(round2(-1.005).toFixed(2)).toBe('-1.01');
  });
  it('given price × quantity, when multiplied, then exact before rounding', () => {
    expect(mulRound2(19.99, 3).toFixed(2)).toBe('59.97');
    expect(mulRound2(0.015, 3).toFixed(2)).toBe('0.05');
    expect(formatAmount(121)).toBe('121.00');
  });
});
