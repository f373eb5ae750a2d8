import fc from 'fast-check';
import { isSafeNumber, parse } from 'lossless-json';
import { ImpreciseNumber, parseExactJson } from './json-body';

describe('exact JSON bodies', () => {
  it('keeps amounts whose digits a double holds as numbers that print back the same digits', () => {
    const body = parseExactJson('{"a": 0.1, "b": 121.32, "c": 1e2}') as Record<string, number>;
    expect(body).toEqual({ a: 0.1, b: 121.32, c: 100 });
    expect(String(body.b)).toBe('121.32');
  });

  it('marks a number a double cannot hold exactly instead of rounding it', () => {
    const body = parseExactJson('{"total": 121.000000000000000000001}') as Record<string, unknown>;
    expect(body.total).toBeInstanceOf(ImpreciseNumber);
    expect((body.total as ImpreciseNumber).text).toBe('121.000000000000000000001');
  });

  it('rejects malformed JSON and duplicate keys with REQUEST.MALFORMED_JSON', () => {
    expect(() => parseExactJson('{"a": 1,')).toThrow(expect.objectContaining({ code: 'REQUEST.MALFORMED_JSON', kind: 'validation' }));
    expect(() => parseExactJson('{"a": 1, "a": 2}')).toThrow(expect.objectContaining({ code: 'REQUEST.MALFORMED_JSON' }));
    expect(() => parseExactJson('{"x": [{"a": "b:", "c" : {"a": 1, "a" : 2}}]}')).toThrow(expect.objectContaining({ code: 'REQUEST.MALFORMED_JSON' }));
    expect(() => parseExactJson('{"a": 01}')).toThrow(expect.objectContaining({ code: 'REQUEST.MALFORMED_JSON' }));
  });

  // JSON.parse takes a body whose numbers are short and plain and whose keys come once each (issue 11): the
  // value must be the one lossless-json gives, and every other body must still go to lossless-json.
  it('gives what lossless-json gives, for any body', () => {
    const lossless = (text: string) => parse(text, undefined, (value: string) => (isSafeNumber(value) ? Number(value) : new ImpreciseNumber(value)));
    const outcome = (f: () => unknown) => {
      try {
        return { value: f() };
      } catch (error) {
        return { error: (error as { code?: string }).code ?? 'REQUEST.MALFORMED_JSON' };
      }
    };
    const key = fc.constantFrom('a', 'b', 'c:', 'd\\"', ' e ');
    const number = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }).map(String), fc.constantFrom('1e400', '-0', '12345678901234567', '0.1000000000000000055511151231257827', '1E2', '-1.5e-7'));
    const leaf = fc.oneof(number.map((n) => n.replace('Infinity', '1e999')), fc.string().map((s) => JSON.stringify(s)), fc.constantFrom('true', 'false', 'null'));
    const { json } = fc.letrec<{ json: string; array: string; object: string }>((tie) => ({
      json: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
      array: fc.array(tie('json'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
      object: fc.array(fc.tuple(key, tie('json')), { maxLength: 4 }).map((members) => `{${members.map(([k, v]) => `${JSON.stringify(k)} : ${v}`).join(',')}}`),
    }));
    fc.assert(
      fc.property(json, (text) => {
        const ours = outcome(() => parseExactJson(text));
        const theirs = outcome(() => lossless(text));
        if ('error' in theirs) expect(ours).toMatchObject({ error: expect.any(String) });
        else if ('error' in ours) expect(ours.error).not.toBe('REQUEST.MALFORMED_JSON');
        else expect(ours.value).toEqual(theirs.value);
      }),
      { numRuns: 1000 },
    );
  });
});
