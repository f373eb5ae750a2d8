/**
 * What every JSON body must be before any code looks at it (#9), checked once at parse time so
 * that no area, DTO or store meets it: nested at most MAX_JSON_DEPTH levels (checked on the text,
 * before the recursive parse, so a 10,000-level body costs one linear scan), no key that reaches an
 * object's prototype machinery (`__proto__`, `constructor`, `prototype`), and no text PostgreSQL
 * cannot store or that is not Unicode: NUL (U+0000) and lone UTF-16 surrogates.
 */
import { AppError, type FieldIssue, issue, validationError } from '@einvoice/domain';

/** Deepest nesting of arrays and objects a body may have; the deepest API body (a MyInvois bulk line tax) is 7. */
export const MAX_JSON_DEPTH = 32;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const COLON = 0x3a;
const MINUS = 0x2d;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;

/** A digit, `.`, `e`, `E`, `+` or `-`: what a JSON number is made of. */
const isNumberPart = (c: number) => (c >= DIGIT_0 && c <= DIGIT_9) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === MINUS;

/** What one pass over a body's text tells (checkJsonDepth's pass): enough to parse it with JSON.parse when it is valid. */
export interface JsonTextFacts {
  /** Members of all its objects (`"key":`), duplicates included: more than the parsed value has means a key came twice. */
  readonly members: number;
  /**
   * Whether every number is one a double holds as written: at most 15 characters without an exponent
   * (15 significant digits always round-trip); anything longer or with an exponent is left to the caller.
   */
  readonly plainNumbers: boolean;
}

/** Refuses a body nested deeper than MAX_JSON_DEPTH, from its text (strings skipped); returns what the pass counted. */
export function checkJsonDepth(text: string, maxDepth = MAX_JSON_DEPTH): JsonTextFacts {
  let depth = 0;
  let inString = false;
  let members = 0;
  let plainNumbers = true;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) {
        inString = false;
        let next = i + 1;
        while (next < text.length && text.charCodeAt(next) <= 0x20) next += 1;
        if (text.charCodeAt(next) === COLON) members += 1;
      }
    } else if (c === QUOTE) inString = true;
    else if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      // The number's characters (a malformed one is JSON.parse's to refuse).
      const start = i;
      let exponent = false;
      for (let d = text.charCodeAt(i + 1); isNumberPart(d); d = text.charCodeAt(i + 1)) {
        exponent ||= d === 0x65 || d === 0x45;
        i += 1;
      }
      if (exponent || i + 1 - start > 15) plainNumbers = false;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) {
        throw new AppError('validation', 'REQUEST.TOO_DEEP', `The body nests arrays and objects deeper than ${maxDepth} levels.`, {
          issues: [issue('', 'REQUEST.TOO_DEEP', `Arrays and objects may nest at most ${maxDepth} levels.`)],
        });
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth -= 1;
  }
  return { members, plainNumbers };
}

const childPath = (parent: string, key: string | number) => (typeof key === 'number' ? `${parent}[${key}]` : parent ? `${parent}.${key}` : key);

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be taken, if it cannot. */
function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (a lone UTF-16 surrogate was sent)';
  return undefined;
}

/**
 * Every forbidden key and bad string of a parsed body, with its path (iterative: the depth is
 * already bounded, but no recursion is needed either). Empty when the body is fine.
 */
export function jsonValueIssues(value: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: '' }];
  while (stack.length > 0 && issues.length < 50) {
    const { value: current, path } = stack.pop() as { value: unknown; path: string };
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) issues.push(issue(path, 'FIELD.INVALID_CHARACTER', `${path || 'The body'} ${problem}`));
    } else if (Array.isArray(current)) {
      current.forEach((item, i) => stack.push({ value: item, path: childPath(path, i) }));
    } else if (current !== null && typeof current === 'object') {
      for (const [key, item] of Object.entries(current)) {
        const at = childPath(path, key);
        if (FORBIDDEN_KEYS.has(key)) issues.push(issue(at, 'REQUEST.FORBIDDEN_KEY', `${key} is not a field of any request.`));
        else if (textProblem(key)) issues.push(issue(at, 'FIELD.INVALID_CHARACTER', `A field name ${textProblem(key)}`));
        else stack.push({ value: item, path: at });
      }
    }
  }
  return issues.sort((a, b) => a.path.localeCompare(b.path));
}

/** Throws the issues of `jsonValueIssues` as one 400. */
export function checkJsonValue(value: unknown): void {
  const issues = jsonValueIssues(value);
  if (issues.length > 0) throw validationError(issues);
}
