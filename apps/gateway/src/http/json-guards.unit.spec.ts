import { parseExactJson } from './json-body';
import { MAX_JSON_DEPTH, checkJsonDepth, jsonValueIssues } from './json-guards';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const refusal = (text: string) => {
  try {
    parseExactJson(text);
  } catch (error) {
    return error as { code: string; kind: string; issues: Array<{ path: string; code: string }> };
  }
  throw new Error('accepted');
};

describe('#9 what no JSON body may carry', () => {
  it('refuses nesting past the limit from the text, before parsing (10,000 levels: no stack overflow, no "not valid JSON")', () => {
    expect(() => checkJsonDepth(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(refusal(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ kind: 'validation', code: 'REQUEST.TOO_DEEP' });
    expect(refusal(`{"Note":${nested(10_000)}}`)).toMatchObject({ code: 'REQUEST.TOO_DEEP', issues: [{ path: '', code: 'REQUEST.TOO_DEEP' }] });
    // Brackets inside strings (escaped quotes included) are text, not nesting.
    expect(() => checkJsonDepth(`{"a":"${'['.repeat(100)}\\"${'{'.repeat(100)}"}`)).not.toThrow();
  });

  it('refuses prototype keys anywhere, naming where', () => {
    expect(refusal('{"url":{"constructor":{"prototype":{}}},"events":[]}').issues).toEqual([expect.objectContaining({ path: 'url.constructor', code: 'REQUEST.FORBIDDEN_KEY' })]);
    expect(refusal('{"a":[{"__proto__":{"x":1}}]}').issues).toEqual([expect.objectContaining({ path: 'a[0].__proto__', code: 'REQUEST.FORBIDDEN_KEY' })]);
    expect(refusal('{"prototype":1}').issues[0].path).toBe('prototype');
  });

  it('refuses NUL and lone surrogates in values and keys; a well-formed pair (an emoji) passes', () => {
    expect(jsonValueIssues({ registered_name: 'a\u0000b' })).toEqual([expect.objectContaining({ path: 'registered_name', code: 'FIELD.INVALID_CHARACTER' })]);
    expect(jsonValueIssues({ InvoiceLines: [{ Description: '\ud800' }] })).toEqual([expect.objectContaining({ path: 'InvoiceLines[0].Description' })]);
    expect(jsonValueIssues({ x: 'end\udc00' })).toHaveLength(1);
    expect(jsonValueIssues({ 'a\u0000': 1 })).toEqual([expect.objectContaining({ path: 'a\u0000', code: 'FIELD.INVALID_CHARACTER' })]);
    expect(jsonValueIssues({ x: 'ok 😀 ✓', n: 1, b: null })).toEqual([]);
  });
});
