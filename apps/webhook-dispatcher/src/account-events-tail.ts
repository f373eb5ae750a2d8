import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { type AccountEventRow, type Logger, type RetrySchedule, accountEventOf, deterministicUuid } from '@einvoice/domain';
import {
  type FeedPosition,
  LockedPeriodicJob,
  afterPositionSql,
  endpointWants,
  enqueueDeliveries,
  pooledSql,
  positionParams,
} from '@einvoice/domain/infrastructure';
import type { EndpointCache } from './endpoint-cache';
import type { FirstAttempts } from './first-attempts';

/** One tail per stack at a time (advisory lock class; namespaces: apps/gateway/src/participants/supplier-participants.ts). */
export const ACCOUNT_TAIL_LOCK = 7312048;

export interface AccountTailDependencies {
  readonly dataSource: DataSource;
  /** Sends the new deliveries' first attempts (first-attempts.ts); without it, they are enqueued. */
  readonly firstAttempts?: Pick<FirstAttempts, 'dispatch'>;
  readonly queue: Queue;
  readonly schedule: RetrySchedule;
  readonly endpoints: EndpointCache;
  /** The reader's name in `account_event_positions` (one position per reader). */
  readonly reader: string;
  /** The lock's name: the stack's topic prefix (its dispatchers elect one tail). */
  readonly lockName: string;
  /** Events per batch (one statement records its deliveries and the position). */
  readonly batchSize: number;
  /** The look again of a tail whose next events wait behind a transaction still running (the horizon). */
  readonly heldBackPollMs: number;
  /** Rounds without a wake-up (the NOTIFY lost, the listener down). */
  readonly intervalMs: number;
  readonly log: Logger;
}

/** A row of the page: the stored event and its position. */
type TailRow = AccountEventRow & { readonly xid: string; readonly seq: string };

/**
 * Account-wide webhooks (#48): the dispatcher follows the WHOLE `account_events` table in commit order
 * (commit-ordered-feed.ts: a row shows once every older transaction ended, so one committing late is never
 * skipped), from its position in `account_event_positions`. Each batch (≤ batchSize events): the tenants'
 * enabled account endpoints (EndpointCache) are matched against each event (types, areas, suppliers; an
 * endpoint gets the events recorded from its creation on), then ONE statement inserts the deliveries
 * (payload `JSON.stringify(accountEventOf(row))`, Webhook-Id the event's id, unique per (endpoint, event)) and
 * advances the position: both or neither. After it, the new deliveries' first attempts are sent (the next page
 * is read once they all started: the backlog waits in the table, not in Redis); a crash between leaves pending
 * rows the sweeper enqueues.
 *
 * Woken by `NOTIFY account_events` (each writing transaction's, the trigger's); when the next events are held
 * back by the horizon, it looks again after `heldBackPollMs` (their transaction's NOTIFY came already); and
 * every `intervalMs` anyway. One dispatcher of the stack tails at a time (a round holds the advisory lock).
 */
export class AccountEventsTail extends LockedPeriodicJob {
  private readonly sql: ReturnType<typeof pooledSql>;

  constructor(private readonly deps: AccountTailDependencies) {
    const { dataSource, lockName, intervalMs, log } = deps;
    super({ dataSource, lockKey: ACCOUNT_TAIL_LOCK, lockName, intervalMs, log, description: 'account events tail' });
    this.sql = pooledSql(deps.dataSource);
  }

  protected async round(stopping: () => boolean): Promise<void> {
    let position = await this.position();
    while (!stopping()) {
      const rows: TailRow[] = await this.sql.query(
        `SELECT e.xid::text AS xid, e.seq::text AS seq, e.id, e.tenant_id, e.type, e.area, e.supplier_id, e.document_id, e.document_number,
                e.direction, e.report_state, e.delivery_status, e.peppol_copy, e.authority, e.delivery, e.created_at
         FROM account_events e WHERE ${afterPositionSql('e', 1)} ORDER BY e.xid, e.seq LIMIT $3`,
        [...positionParams(position), this.deps.batchSize],
      );
      if (rows.length > 0) {
        const last = rows[rows.length - 1];
        position = { xid: last.xid, seq: last.seq };
        await this.record(rows, position);
      }
      if (rows.length < this.deps.batchSize) {
        if (await this.heldBack()) this.wakeIn(this.deps.heldBackPollMs);
        return;
      }
    }
  }

  /** One batch: its deliveries and the new position in one statement, then the first attempts. */
  private async record(rows: readonly TailRow[], position: FeedPosition): Promise<void> {
    const endpoints = await this.deps.endpoints.of(rows.map((row) => row.tenant_id));
    const events: Array<{ id: string; type: string; payload: string }> = [];
    const deliveries: Array<{ id: string; endpoint: string; event: number }> = [];
    for (const row of rows) {
      const wanting = (endpoints.get(row.tenant_id) ?? []).filter((endpoint) => endpointWants(endpoint, row));
      if (wanting.length === 0) continue;
      events.push({ id: row.id, type: row.type, payload: JSON.stringify(accountEventOf(row)) });
      // The same id as insertDeliveries' (store.ts): derived from (endpoint, event).
      for (const endpoint of wanting) {
        deliveries.push({ id: deterministicUuid(`webhook-delivery:${endpoint.id}:${row.id}`), endpoint: endpoint.id, event: events.length });
      }
    }
    // ON CONFLICT: a second tail (a lock lost mid-round) recorded them; only new rows come back, to be sent here.
    const created: Array<{ id: string }> = await this.sql.query(
      `WITH e AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[]) WITH ORDINALITY AS e (event_id, event_type, payload, n)
       ), d AS (
         INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, payload)
         SELECT x.id, x.subscription_id, e.event_id, e.event_type, e.payload
         FROM unnest($4::uuid[], $5::uuid[], $6::int[]) AS x (id, subscription_id, n) JOIN e ON e.n = x.n
         ON CONFLICT DO NOTHING RETURNING id
       ), p AS (
         INSERT INTO account_event_positions AS p (reader, xid, seq) VALUES ($7, $8::xid8, $9::bigint)
         ON CONFLICT (reader) DO UPDATE SET xid = EXCLUDED.xid, seq = EXCLUDED.seq, updated_at = now()
         WHERE (p.xid, p.seq) < (EXCLUDED.xid, EXCLUDED.seq)
       )
       SELECT id FROM d`,
      [
        events.map((e) => e.id),
        events.map((e) => e.type),
        events.map((e) => e.payload),
        deliveries.map((d) => d.id),
        deliveries.map((d) => d.endpoint),
        deliveries.map((d) => d.event),
        this.deps.reader,
        position.xid,
        position.seq,
      ],
    );
    if (created.length === 0) return;
    const ids = created.map((row) => row.id);
    const { firstAttempts, queue, schedule, log } = this.deps;
    // Waiting for room: the next page is read once this one's first attempts have all started.
    await (firstAttempts ? firstAttempts.dispatch(ids, { waitForRoom: true }) : enqueueDeliveries(queue, ids, schedule)).catch((error) =>
      // Not rethrown: the rows are committed and the sweeper enqueues them once Redis is back.
      log('warn', 'webhook enqueue failed; the sweeper will retry', { error: String(error), deliveries: ids.length }),
    );
  }

  /** Where this reader got to; none: from the table's start (an endpoint gets only the events recorded since its creation). */
  private async position(): Promise<FeedPosition | undefined> {
    const [row] = await this.sql.query(`SELECT xid::text AS xid, seq::text AS seq FROM account_event_positions WHERE reader = $1`, [this.deps.reader]);
    return row ? { xid: row.xid, seq: row.seq } : undefined;
  }

  /**
   * Whether committed events wait behind the horizon (a transaction older than theirs still runs): the newest event's
   * transaction is not older than every one still running (the position only ever moves to events below the horizon,
   * which only rises: every event at or above it is after the position). Asked as the newest xid, one descent of
   * the primary key, not as "an event after the position at or above the horizon": the planner, guessing a third of
   * the table matched, read the whole table for it (24 ms a call at 37,000 events, each tail round; #48 bench).
   */
  private async heldBack(): Promise<boolean> {
    const [row] = await this.sql.query(
      `SELECT coalesce((SELECT max(e.xid) FROM account_events e) >= pg_snapshot_xmin(pg_current_snapshot()), false) AS held`,
    );
    return row.held === true;
  }
}
