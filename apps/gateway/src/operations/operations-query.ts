/**
 * The query parameters of `/v1/operations/*` (#50, operations.controller.ts), validated the way the account's
 * lists are (page.ts, documents-query.ts): one 400 naming every bad parameter, an unknown one too.
 */
import { type FieldIssue, issue, validationError } from '@einvoice/domain';
import { areas } from '@einvoice/areas';
import { type PageCursor, type PageRequest, pageRequestIssues, queryReader } from '../account/page';
import { durationMs } from './stuck-documents';

/** A dead letter's id: `partition:offset` in the dead-letter topic. */
export const DEAD_LETTER_ID = /^\d{1,9}:\d{1,19}$/;
export const DEAD_LETTER_CURSOR: PageCursor = { pattern: DEAD_LETTER_ID, description: 'the id of the last dead letter of the page before (`partition:offset`)' };
/** An outbox row's id: a bigint. */
export const OUTBOX_ROW_ID = /^\d{1,19}$/;
export const OUTBOX_CURSOR: PageCursor = { pattern: OUTBOX_ROW_ID, description: 'the id of the last parked row of the page before (digits)' };

/** Documents not final for longer than this are stuck, when `older_than` is absent: the CLI's default too. */
export const DEFAULT_STUCK_AGE = '10m';
/** The authority error rates' window when `window` is absent. */
export const DEFAULT_ERROR_WINDOW = '1h';
/** The longest window: the account events it counts are kept 30 days (retention job). */
export const MAX_ERROR_WINDOW_MS = 30 * 86_400_000;
const MAX_STUCK_AGE_MS = 365 * 86_400_000;

type Query = Readonly<Record<string, unknown>>;

/** The collected issues of one query, an unknown parameter named too; `cursor` null for a route that is no list (no paging). */
function reading(query: Query, parameters: readonly string[], cursor?: PageCursor | null) {
  const { page, issues } = cursor === null ? { page: { limit: 0 }, issues: [] as FieldIssue[] } : pageRequestIssues(query, cursor);
  for (const name of Object.keys(query)) {
    if (!parameters.includes(name)) issues.push(issue(name, 'FIELD.INVALID_VALUE', `${name} is not a parameter of this route; it takes ${parameters.join(', ') || 'none'}.`));
  }
  const { text } = queryReader(query, issues);
  /** A duration (`90s`, `10m`, `2h`, `1d`) from `minMs` to `maxMs`. */
  const duration = (name: string, fallback: string, minMs: number, maxMs: number): { text: string; ms: number } => {
    const value = text(name) ?? fallback;
    let ms: number | undefined;
    try {
      ms = durationMs(value);
    } catch {
      ms = undefined;
    }
    if (ms === undefined || ms < minMs || ms > maxMs) {
      issues.push(issue(name, 'FIELD.INVALID_VALUE', `${name} is a duration such as 90s, 10m, 2h or 1d, from ${describeMs(minMs)} to ${describeMs(maxMs)}; it is ${JSON.stringify(value)}.`));
      return { text: fallback, ms: durationMs(fallback) };
    }
    return { text: value, ms };
  };
  const done = <T>(value: T): T => {
    if (issues.length) throw validationError(issues, 'The query is invalid.');
    return value;
  };
  return { page, issues, text, duration, done };
}

const describeMs = (ms: number) => (ms === 0 ? '0s' : ms % 86_400_000 === 0 ? `${ms / 86_400_000}d` : ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

export interface StuckDocumentsQuery {
  readonly page: PageRequest;
  readonly area?: string;
  readonly olderThanMs: number;
  readonly olderThan: string;
}

/** `GET /v1/operations/stuck-documents`: `older_than` (default 10m), `area`, `limit`, `starting_after` (a document id). */
export function stuckDocumentsQuery(query: Query): StuckDocumentsQuery {
  const read = reading(query, ['older_than', 'area', 'limit', 'starting_after']);
  const olderThan = read.duration('older_than', DEFAULT_STUCK_AGE, 0, MAX_STUCK_AGE_MS);
  const area = read.text('area')?.toLowerCase();
  const codes = areas.map((a) => a.code);
  if (area !== undefined && !codes.includes(area)) read.issues.push(issue('area', 'FIELD.INVALID_VALUE', `area is one of ${codes.join(', ')}; it is ${JSON.stringify(area)}.`));
  return read.done({ page: read.page, area, olderThanMs: olderThan.ms, olderThan: olderThan.text });
}

/** `GET /v1/operations/dead-letters`: `replayed` (true | false: only those replayed, or not yet), `limit`, `starting_after` (a dead letter's id). */
export function deadLettersQuery(query: Query): { page: PageRequest; replayed?: boolean } {
  const read = reading(query, ['replayed', 'limit', 'starting_after'], DEAD_LETTER_CURSOR);
  const replayed = read.text('replayed');
  if (replayed !== undefined && replayed !== 'true' && replayed !== 'false') read.issues.push(issue('replayed', 'FIELD.INVALID_VALUE', `replayed is true or false; it is ${JSON.stringify(replayed)}.`));
  return read.done({ page: read.page, replayed: replayed === undefined ? undefined : replayed === 'true' });
}

/** `GET /v1/operations/outbox/parked`: `limit`, `starting_after` (an outbox row id). */
export function parkedRowsQuery(query: Query): { page: PageRequest } {
  const read = reading(query, ['limit', 'starting_after'], OUTBOX_CURSOR);
  return read.done({ page: read.page });
}

/** `GET /v1/operations/authority-errors`: `window` (default 1h, at most 30d). */
export function authorityErrorsQuery(query: Query): { windowMs: number; window: string } {
  const read = reading(query, ['window'], null);
  const window = read.duration('window', DEFAULT_ERROR_WINDOW, 60_000, MAX_ERROR_WINDOW_MS);
  return read.done({ windowMs: window.ms, window: window.text });
}

/** `GET /v1/operations/consumer-lag` takes no parameter; one sent is a 400 (a misspelt one would be silently ignored). */
export function noQuery(query: Query): void {
  reading(query, [], null).done(undefined);
}

/** `a:b` ids in the dead-letter topic's order: by partition, then offset. */
export function compareDeadLetterIds(a: string, b: string): number {
  const [pa, oa] = a.split(':').map(BigInt);
  const [pb, ob] = b.split(':').map(BigInt);
  return pa === pb ? (oa === ob ? 0 : oa < ob ? -1 : 1) : pa < pb ? -1 : 1;
}

/**
 * One page of the dead letters (read whole from the topic, which has no index to seek by): those after
 * `startingAfter` in the topic's order, the `replayed` filter applied; `limit + 1` to tell `has_more`.
 */
export function deadLetterPageRows<T extends { readonly id: string; readonly replayedAt: string | null }>(
  letters: readonly T[],
  { page, replayed }: { page: PageRequest; replayed?: boolean },
): T[] {
  return [...letters]
    .sort((a, b) => compareDeadLetterIds(a.id, b.id))
    .filter((letter) => page.startingAfter === undefined || compareDeadLetterIds(letter.id, page.startingAfter) > 0)
    .filter((letter) => replayed === undefined || (letter.replayedAt !== null) === replayed)
    .slice(0, page.limit + 1);
}
