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
  });
});
