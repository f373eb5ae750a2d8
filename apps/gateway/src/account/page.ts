/**
 * The account-wide lists' paging (#47, docs/account-api.md "Lists"): `limit` (1–100, default 20) and
 * `starting_after` (the id of the last item of the page before), answered as `{status, data, has_more}`.
 * Cursor paging by id rather than offsets, as Stripe's lists: a page is the same whatever was added
 * since, so a client walking the pages while documents arrive neither skips nor repeats one.
 */
import { type FieldIssue, issue, validationError } from '@einvoice/domain';

export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PageRequest {
  readonly limit: number;
  /** The id the page starts after; undefined for the first page. */
  readonly startingAfter?: string;
}

export interface Page<T> {
  readonly status: 'success';
  readonly data: readonly T[];
  readonly has_more: boolean;
}

/** What a list's `starting_after` holds: its items' ids (UUIDs unless the list says otherwise). */
export interface PageCursor {
  readonly pattern: RegExp;
  /** Said in the 400: `the id of the last item of the page before (a UUID)`. */
  readonly description: string;
}

const UUID_CURSOR: PageCursor = { pattern: UUID, description: 'the id of the last item of the page before (a UUID)' };

/** The paging part of a list's query; bad values are FIELD.* issues at `limit` / `starting_after`, to be thrown with the rest. */
export function pageRequestIssues(query: Readonly<Record<string, unknown>>, cursor: PageCursor = UUID_CURSOR): { page: PageRequest; issues: FieldIssue[] } {
  const issues: FieldIssue[] = [];
  let limit = DEFAULT_PAGE_LIMIT;
  if (query.limit !== undefined) {
    const raw = String(query.limit);
    if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_LIMIT) {
      issues.push(issue('limit', 'FIELD.INVALID_VALUE', `limit is a whole number from 1 to ${MAX_PAGE_LIMIT}; it is ${JSON.stringify(query.limit)}.`));
    } else {
      limit = Number(raw);
    }
  }
  let startingAfter: string | undefined;
  if (query.starting_after !== undefined) {
    if (typeof query.starting_after !== 'string' || !cursor.pattern.test(query.starting_after)) {
      issues.push(issue('starting_after', 'FIELD.INVALID_FORMAT', `starting_after is ${cursor.description}.`));
    } else {
      startingAfter = query.starting_after.toLowerCase();
    }
  }
  return { page: { limit, startingAfter }, issues };
}

/** The paging part alone, for a list with no other filter: throws the one 400 on a bad value. */
export function pageRequest(query: Readonly<Record<string, unknown>>, cursor?: PageCursor): PageRequest {
  const { page, issues } = pageRequestIssues(query, cursor);
  if (issues.length) throw validationError(issues, 'The list query is invalid.');
  return page;
}

/**
 * One page from the rows of a query that read `limit + 1` rows: the extra row, when there, only says
 * that there is more (has_more) and is not answered.
 */
export function toPage<T>(rows: readonly T[], limit: number): Page<T> {
  return { status: 'success', data: rows.slice(0, limit), has_more: rows.length > limit };
}

/**
 * A reader of a list's query parameters that collects what is wrong instead of throwing, so one 400 lists every bad
 * parameter: `text` (given once, not empty) and `supplierId` (a UUID).
 */
export function queryReader(query: Readonly<Record<string, unknown>>, issues: FieldIssue[]) {
  const text = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '') {
      issues.push(issue(name, 'FIELD.INVALID_TYPE', `${name} is given once, not empty.`));
      return undefined;
    }
    return value;
  };
  const supplierId = (): string | undefined => {
    const value = text('supplier_id');
    if (value !== undefined && !UUID.test(value)) issues.push(issue('supplier_id', 'FIELD.INVALID_FORMAT', 'supplier_id is a supplier id (a UUID).'));
    return value;
  };
  return { text, supplierId };
}
