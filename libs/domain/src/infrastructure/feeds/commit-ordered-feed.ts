/**
 * Feeds a reader follows with a cursor, where an event that commits late must never be skipped (the UAE
 * feeds of seed 001, the account's events of #48 and the webhook dispatcher reading them). A feed row takes
 * the writing transaction's id (`xid xid8 DEFAULT pg_current_xact_id()`) and a sequence number (`seq
 * bigserial`); a page lists rows in (xid, seq) order, only those written by transactions older than every
 * transaction still running (`pg_snapshot_xmin`). A transaction that took its numbers early but commits late
 * is still below that horizon while it runs, so its rows can never appear behind a cursor handed out
 * already. The price: a row shows once every older transaction has ended (milliseconds, unless something
 * holds a transaction open). Cursors are stored values, so they stay valid across restarts.
 */
import { AppError, issue } from '../../errors';

/** A position in a feed: the writing transaction's id and the row's sequence number, as text (both exceed 2^53). */
export interface FeedPosition {
  readonly xid: string;
  readonly seq: string;
}

/** Event ids and cursors are one opaque string: base64url of `<xid>.<seq>`. */
export const encodeFeedCursor = (p: FeedPosition): string => Buffer.from(`${p.xid}.${p.seq}`).toString('base64url');

/** The position a cursor stands for, or a 400 naming `path` (the query parameter or body field that held it). */
export function decodeFeedCursor(value: string, path: string): FeedPosition {
  const match = value.length <= 64 ? /^(\d{1,20})\.(\d{1,19})$/.exec(Buffer.from(value, 'base64url').toString('utf8')) : null;
  if (!match) {
    throw new AppError('validation', 'FEED.INVALID_CURSOR', `${path} is not a cursor of this feed.`, {
      issues: [issue(path, 'FIELD.INVALID_VALUE', `${path} must be an event id or cursor returned by this feed.`)],
    });
  }
  return { xid: match[1], seq: match[2] };
}

/**
 * The WHERE clause of a page after a position, for a table aliased `alias` with `xid` and `seq` columns:
 * `$<n>` is the position's xid (NULL: from the start), `$<n+1>` its seq. Select `xid::text, seq::text` and
 * ORDER BY `<alias>.xid, <alias>.seq` (the columns: text aliases would order 1000 before 999).
 */
export function afterPositionSql(alias: string, n: number): string {
  return `($${n}::xid8 IS NULL OR (${alias}.xid, ${alias}.seq) > ($${n}::xid8, $${n + 1}::bigint))
    AND ${alias}.xid < pg_snapshot_xmin(pg_current_snapshot())`;
}

/** The parameters `afterPositionSql` names, for a position or none. */
export const positionParams = (after: FeedPosition | undefined): [string | null, string | null] => [after?.xid ?? null, after?.seq ?? null];
