/**
 * Request-body validation shared by every area: class-transformer builds the DTO (plainToInstance,
 * without any type coercion), class-validator checks it (validateSync), both through their public API
 * only (#45), and the ValidationError tree becomes one flat list of FieldIssue with stable codes
 * (DESIGN.md "The API's manners": one error shape everywhere).
 *
 * Cost (#45, validateBody of the bench's one-line BE invoice in a loop): ~70 µs, four fifths of it in
 * class-validator's executor (its rule lookup scans every decorated class of the process for each object:
 * typestack/class-validator#2686), the rest in plainToInstance. Issue 11 had brought it to ~8 µs with
 * mirrors of both executors over their private metadata, removed by #45: a patch release of either
 * library could have broken them unseen. What that costs the stack (`npm run bench`, #45's note, this
 * 2-core machine): the two libraries are 13% of the gateway's main-thread samples in the end-to-end
 * phase (none with the mirrors); end to end 1,034 -> 736 documents/s, CPU 1.58 -> 2.20 ms per document;
 * the accept phase, bounded by PostgreSQL, is unchanged (1,194 -> 1,191/s). The fix belongs upstream
 * (#2686: resolve a class's inherited rules by its prototype chain, or cache them per class).
 */
import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { FieldIssue, issue, validationError } from '@einvoice/domain';

/**
 * A JSON number a binary double cannot hold exactly (the gateway's parser keeps its text): it
 * fails validation with FIELD.IMPRECISE_NUMBER instead of being silently rounded.
 */
export class ImpreciseNumber {
  constructor(readonly text: string) {}
}

/** Issue codes produced by schema validation. */
export const FieldCode = {
  REQUIRED: 'FIELD.REQUIRED',
  INVALID_TYPE: 'FIELD.INVALID_TYPE',
  TOO_LONG: 'FIELD.TOO_LONG',
  INVALID_VALUE: 'FIELD.INVALID_VALUE',
  INVALID_FORMAT: 'FIELD.INVALID_FORMAT',
  TOO_FEW: 'FIELD.TOO_FEW',
  IMPRECISE_NUMBER: 'FIELD.IMPRECISE_NUMBER',
} as const;

// Constraint name → code, in the order that wins when one field breaks several constraints:
// a wrong type hides length or format complaints about the same value.
const constraintCodes: readonly [string, string][] = [
  ['isString', FieldCode.INVALID_TYPE],
  ['isNumber', FieldCode.INVALID_TYPE],
  ['isBoolean', FieldCode.INVALID_TYPE],
  // A decimal an area takes as a string or a bare JSON number.
  ['isStringOrNumber', FieldCode.INVALID_TYPE],
  ['isObject', FieldCode.INVALID_TYPE],
  ['isArray', FieldCode.INVALID_TYPE],
  ['nestedValidation', FieldCode.INVALID_TYPE],
  ['noArrayElements', FieldCode.INVALID_TYPE],
  ['arrayMinSize', FieldCode.TOO_FEW],
  ['maxLength', FieldCode.TOO_LONG],
  ['isIn', FieldCode.INVALID_VALUE],
  // An empty text where the element it renders is mandatory: as missing as an absent one.
  ['isNotBlank', FieldCode.REQUIRED],
  ['matches', FieldCode.INVALID_FORMAT],
  ['isISO31661Alpha2', FieldCode.INVALID_FORMAT],
  ['isCalendarDate', FieldCode.INVALID_FORMAT],
  ['isDecimal', FieldCode.INVALID_FORMAT],
  ['isBase64Binary', FieldCode.INVALID_FORMAT],
];

const typeCodes = new Set<string>([FieldCode.INVALID_TYPE]);

function isJsonObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

function childPath(parent: string, property: string): string {
  if (/^\d+$/.test(property)) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/** The one issue a failed field yields, or none when only its children failed. */
function issueFor(error: ValidationError, path: string): FieldIssue | undefined {
  const constraints = error.constraints ?? {};
  const names = Object.keys(constraints);
  if (names.length === 0) return undefined;
  if (error.value === undefined || error.value === null) {
    // The field's own wording when it says what to send (`presence` in fields.ts).
    return issue(path, FieldCode.REQUIRED, `${path} ${constraints.isDefined ?? 'is required'}`);
  }
  if (error.value instanceof ImpreciseNumber) {
    return issue(path, FieldCode.IMPRECISE_NUMBER,
      `${path} is a number, but ${error.value.text} cannot be taken exactly (more than 15 significant digits, or out of range); send it with fewer digits`);
  }
  for (const [name, code] of constraintCodes) {
    if (constraints[name]) return issue(path, code, `${path} ${constraints[name]}`);
  }
  // A constraint without a bundle message: keep class-validator's sentence.
  return issue(path, FieldCode.INVALID_VALUE, constraints[names[0]]);
}

/** Flattens class-validator's error tree into path-addressed issues, one per failed field. */
export function toFieldIssues(errors: readonly ValidationError[], parent = ''): FieldIssue[] {
  const issues: FieldIssue[] = [];
  for (const error of errors) {
    const path = childPath(parent, error.property);
    const own = issueFor(error, path);
    if (own) issues.push(own);
    // Descending below a wrongly typed or missing value would only repeat the same problem.
    if (own && (typeCodes.has(own.code) || own.code === FieldCode.REQUIRED)) continue;
    if (error.children?.length) issues.push(...toFieldIssues(error.children, path));
  }
  return issues;
}

/**
 * The body with every `null` member of every object left out: for every area, `null` means
 * absent (README "Requests"), so an optional field sent as null is not sent, and a mandatory one
 * is missing (FIELD.REQUIRED). Array elements are kept as sent (`[null]` is refused by its type).
 * Depth is bounded by the JSON parser (MAX_JSON_DEPTH).
 */
export function withoutNulls(value: unknown): unknown {
  // Most bodies have no null member: they are taken as they are. Copying every object of every body
  // was ~8% of validating an invoice (issue 11); both callers build their own objects from it.
  return hasNullMember(value) ? copiedWithoutNulls(value) : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && Object.getPrototypeOf(value) === Object.prototype;
}

/** Whether an object at any depth has a `null` member (a `null` array element is kept, so it does not count). */
function hasNullMember(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNullMember);
  if (!isPlainObject(value)) return false;
  for (const key in value) {
    const member = value[key];
    if (member === null || (typeof member === 'object' && hasNullMember(member))) return true;
  }
  return false;
}

function copiedWithoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copiedWithoutNulls);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== null) out[key] = copiedWithoutNulls(member);
  return out;
}

/** class-transformer builds the DTO's classes and nothing else: no value is converted, no default added. */
const PLAIN_TO_INSTANCE = { enableImplicitConversion: false, exposeDefaultValues: false } as const;

/** Unknown keys are stripped, not refused; a nested value that is no object is the rules' to refuse. */
export const VALIDATOR_OPTIONS = { whitelist: true, forbidNonWhitelisted: false, forbidUnknownValues: false } as const;

/**
 * Builds and validates a DTO of class `cls` from a parsed JSON body.
 * Unknown keys are dropped silently (whitelist), values are never coerced (`"12"` is not 12),
 * `null` members mean absent (`withoutNulls`).
 * @throws AppError of kind `validation` listing every issue.
 */
export function validateBody<T extends object>(cls: new () => T, body: unknown): T {
  const parsed = parseBody(cls, body);
  if ('issues' in parsed) throw validationError(parsed.issues);
  return parsed.value;
}

/**
 * `validateBody` for a caller that answers the issues in its own error (an area's message for a refused
 * document) or adds its own to them: the DTO, or every issue.
 */
export function parseBody<T extends object>(cls: new () => T, body: unknown): { readonly value: T } | { readonly issues: FieldIssue[] } {
  if (!isJsonObject(body)) return { issues: [issue('', FieldCode.INVALID_TYPE, 'The request body must be a JSON object.')] };
  const instance = plainToInstance(cls, withoutNulls(body), PLAIN_TO_INSTANCE);
  const errors = validateSync(instance, VALIDATOR_OPTIONS);
  return errors.length > 0 ? { issues: toFieldIssues(errors) } : { value: instance };
}
