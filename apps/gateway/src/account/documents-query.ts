import { type FieldIssue, issue, validationError } from '@einvoice/domain';
import { areas } from '@einvoice/areas';
import { type PageRequest, pageRequestIssues, queryReader } from './page';
import { DOCUMENT_STATUSES, type DocumentStatus } from '@einvoice/domain';

/** The filters of `GET /v1/documents` (docs/account-api.md), validated. Dates are YYYY-MM-DD, both ends included. */
export interface DocumentFilter {
  readonly areas?: readonly string[];
  readonly direction?: 'outgoing' | 'incoming';
  readonly status?: DocumentStatus;
  readonly supplierId?: string;
  readonly number?: string;
  readonly issuedFrom?: string;
  readonly issuedTo?: string;
  readonly createdFrom?: string;
  readonly createdTo?: string;
}

const PARAMETERS = ['area', 'direction', 'status', 'supplier_id', 'number', 'issued_from', 'issued_to', 'created_from', 'created_to', 'limit', 'starting_after'];
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The list's query, or the one 400 listing every bad parameter (an unknown one too: a misspelt filter would silently widen the list). */
export function documentListQuery(query: Readonly<Record<string, unknown>>): { filter: DocumentFilter; page: PageRequest } {
  const { page, issues } = pageRequestIssues(query);
  const { text, supplierId: readSupplierId } = queryReader(query, issues);
  const oneOf = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const value = text(name);
    if (value === undefined || (allowed as readonly string[]).includes(value)) return value as T | undefined;
    issues.push(issue(name, 'FIELD.INVALID_VALUE', `${name} is one of ${allowed.join(', ')}; it is ${JSON.stringify(value)}.`));
    return undefined;
  };
  const date = (name: string): string | undefined => {
    const value = text(name);
    if (value === undefined) return undefined;
    const match = DATE.exec(value);
    const parsed = match && new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    if (parsed && parsed.toISOString().startsWith(value)) return value;
    issues.push(issue(name, 'FIELD.INVALID_FORMAT', `${name} is a date YYYY-MM-DD; it is ${JSON.stringify(value)}.`));
    return undefined;
  };

  for (const name of Object.keys(query)) {
    if (!PARAMETERS.includes(name)) issues.push(issue(name, 'FIELD.INVALID_VALUE', `${name} is not a parameter of this list; it takes ${PARAMETERS.join(', ')}.`));
  }
  const codes = areas.map((area) => area.code);
  const areaList = text('area')?.split(',').map((code) => code.trim().toLowerCase());
  const unknown = areaList?.filter((code) => !codes.includes(code)) ?? [];
  if (unknown.length) issues.push(issue('area', 'FIELD.INVALID_VALUE', `area is a comma-separated list of ${codes.join(', ')}; ${unknown.map((c) => JSON.stringify(c)).join(', ')} is not one.`));
  const supplierId = readSupplierId();
  const number = text('number');
  if (number !== undefined && number.length > 200) issues.push(issue('number', 'FIELD.TOO_LONG', 'number is at most 200 characters.'));
  const filter: DocumentFilter = {
    areas: areaList && [...new Set(areaList)],
    direction: oneOf('direction', ['outgoing', 'incoming'] as const),
    status: oneOf('status', DOCUMENT_STATUSES),
    supplierId: supplierId?.toLowerCase(),
    number,
    issuedFrom: date('issued_from'),
    issuedTo: date('issued_to'),
    createdFrom: date('created_from'),
    createdTo: date('created_to'),
  };
  for (const [from, to] of [['issued_from', 'issued_to'], ['created_from', 'created_to']] as const) {
    const [a, b] = [query[from], query[to]];
    if (typeof a === 'string' && typeof b === 'string' && DATE.test(a) && DATE.test(b) && a > b) issues.push(issue(to, 'FIELD.INVALID_VALUE', `${to} is on or after ${from}.`));
  }
  if (issues.length) throw validationError(issues as FieldIssue[], 'The list query is invalid.');
  return { filter, page };
}
