import { Injectable } from '@nestjs/common';
import { type AccountEvent, type AccountEventRow, accountEventOf } from '@einvoice/domain';
import { afterPositionSql, encodeFeedCursor, positionParams } from '@einvoice/domain/infrastructure';
import { Connections } from '../infrastructure/infrastructure.module';
import type { EventsQuery } from './events-query';

/**
 * How many of the tenant's events a filtered page looks at, at most: a filter that matches rarely (one
 * supplier of thousands, a type seen once a day) would otherwise read every event of the account after
 * the cursor to fill a page. A page that looked at this many without filling up answers fewer events
 * (none, even) and a `next_cursor` past all it looked at: the caller keeps reading until a page is empty
 * and has `next_cursor` unchanged (docs/account-api.md "Events"). 5,000 entries of the tenant's index, read
 * index-only: about 110 index pages, 10–13 ms at 1M events (EXPLAIN: docs/account-api.md "Events").
 */
export const EVENTS_SCAN_LIMIT = 5_000;

export interface EventsPage {
  readonly status: 'success';
  readonly data: readonly AccountEvent[];
  readonly next_cursor: string | null;
}

interface EventPageRow extends AccountEventRow {
  /** The last position the page looked at (the same on every row). */
  readonly edge_xid: string;
  readonly edge_seq: string;
  /** The event's own position; null on the one row of a page that looked at events and matched none. */
  readonly xid: string | null;
  readonly seq: string | null;
}

const EVENT_COLUMNS = `e.id, e.type, e.area, e.supplier_id, e.document_id, e.document_number, e.direction,
  e.report_state, e.delivery_status, e.peppol_copy, e.authority, e.delivery, e.created_at`;

/**
 * The page's query: the tenant's events after the position in commit order (commit-ordered-feed.ts: only
 * transactions older than every one still running, so a late commit is never skipped), in the order of the
 * tenant's index (tenant_id, xid, seq), at most `scan` of them; the filters apply to those; the answer is
 * the first `limit` that match, each with the last position looked at (`edge_*`), or that position alone
 * when none matched. The positions and the filtered columns are read from the index alone (it includes
 * type, area and supplier_id: migration AccountEventsFilterIndex1732200001985), the events' rows only for
 * the matches. Without a filter, `scan` is `limit` and every row looked at is answered.
 */
export function eventsPageSql(tenantId: string, query: EventsQuery, scan: number): { sql: string; parameters: unknown[] } {
  const parameters: unknown[] = [tenantId, ...positionParams(query.after), scan, query.limit];
  const filters: string[] = [];
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    parameters.push(value);
    filters.push(condition(`$${parameters.length}`));
  };
  if (query.types) add((p) => `s.type = ANY(${p}::text[])`, query.types);
  if (query.areas) add((p) => `s.area = ANY(${p}::text[])`, query.areas);
  if (query.supplierId) add((p) => `s.supplier_id = ${p}::uuid`, query.supplierId);
  const sql = `
    WITH scanned AS MATERIALIZED (
      SELECT e.xid, e.seq, e.type, e.area, e.supplier_id FROM account_events e
      WHERE e.tenant_id = $1 AND ${afterPositionSql('e', 2)}
      ORDER BY e.xid, e.seq LIMIT $4
    ),
    edge AS (SELECT s.xid, s.seq FROM scanned s ORDER BY s.xid DESC, s.seq DESC LIMIT 1),
    matched AS (SELECT s.xid, s.seq FROM scanned s ${filters.length ? `WHERE ${filters.join(' AND ')}` : ''} ORDER BY s.xid, s.seq LIMIT $5)
    SELECT edge.xid::text AS edge_xid, edge.seq::text AS edge_seq, e.xid::text AS xid, e.seq::text AS seq, ${EVENT_COLUMNS}
    FROM edge LEFT JOIN (matched m JOIN account_events e ON e.xid = m.xid AND e.seq = m.seq) ON true
    ORDER BY e.xid, e.seq`;
  return { sql, parameters };
}

/**
 * `GET /v1/events` (#48, docs/account-api.md "Events"): the account's events of every area, oldest first
 * after a cursor, in the order their transactions committed. Cursors are positions (encodeFeedCursor),
 * stored values: valid across restarts, and after the events they name were deleted by the retention (a
 * page continues from the position).
 */
@Injectable()
export class AccountEvents {
  constructor(private readonly connections: Connections) {}

  /** `scanLimit`: EVENTS_SCAN_LIMIT (a test gives a small one). */
  async page(tenantId: string, query: EventsQuery, scanLimit = EVENTS_SCAN_LIMIT): Promise<EventsPage> {
    const filtered = Boolean(query.types || query.areas || query.supplierId);
    // Unfiltered, every event looked at is answered: looking at `limit` is enough.
    const scan = filtered ? Math.max(scanLimit, query.limit) : query.limit;
    const { sql, parameters } = eventsPageSql(tenantId, query, scan);
    const rows: EventPageRow[] = await this.connections.dataSource.query(sql, parameters);
    const events = rows.filter((row) => row.xid !== null);
    const data = events.map((row) => accountEventOf({ ...row, tenant_id: tenantId, receipt: null }));
    return { status: 'success', data, next_cursor: nextCursor(rows, events, query) };
  }
}

/**
 * Where the next page starts: after the last event answered when the page is full (the events it looked
 * at past that one may match); else after the last event it looked at (those past the last answered did
 * not match, and every event up to there has committed: none can appear behind it); after nothing looked
 * at, the cursor given (null without one).
 */
function nextCursor(rows: readonly EventPageRow[], events: readonly EventPageRow[], query: EventsQuery): string | null {
  const last = events.at(-1);
  if (last && events.length >= query.limit) return encodeFeedCursor({ xid: last.xid!, seq: last.seq! });
  const edge = rows[0];
  if (edge) return encodeFeedCursor({ xid: edge.edge_xid, seq: edge.edge_seq });
  return query.cursor ?? null;
}
