import type { DataSource } from 'typeorm';

/**
 * How long the bookkeeping tables keep a row (#8). Event history (`events`) is never pruned.
 * - `outbox`: a published row, 7 days (`OUTBOX_RETENTION_HOURS`): long enough to see what was
 *   published lately; unpublished and parked rows are never pruned.
 * - `processed_events`: 14 days (`PROCESSED_EVENTS_RETENTION_HOURS`): twice Kafka's default topic
 *   retention (7 days), so a redelivery of an event still on its topic always finds its mark; a later
 *   replay from the dead-letter topic meets the deciders, which record an answer once.
 * - `idempotency_keys`: 24 hours (`IDEMPOTENCY_KEY_RETENTION_HOURS`), as Stripe keeps keys: once
 *   pruned, the same key is a new request.
 * - `account_events` (#48, `GET /v1/events`): 30 days (`ACCOUNT_EVENTS_RETENTION_DAYS`), long enough to
 *   catch up after an endpoint was down for weeks. A cursor past deleted events still works: a page
 *   continues from its position (it names a position, not a row).
 */
export interface RetentionWindows {
  readonly outboxHours: number;
  readonly processedEventsHours: number;
  readonly idempotencyKeyHours: number;
  readonly accountEventsDays: number;
  /** Rows deleted per statement: short statements, no long lock on a busy table. */
  readonly batchSize: number;
}

/** Windows from the environment (README "Configuration"). */
export function retentionWindowsFromEnv(env: NodeJS.ProcessEnv = process.env): RetentionWindows {
  const positive = (unit: string) => (name: string, fallback: number) => {
    const value = Number(env[name] ?? fallback);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of ${unit}, got "${env[name]}"`);
    return value;
  };
  const hours = positive('hours');
  return {
    outboxHours: hours('OUTBOX_RETENTION_HOURS', 168),
    processedEventsHours: hours('PROCESSED_EVENTS_RETENTION_HOURS', 336),
    idempotencyKeyHours: hours('IDEMPOTENCY_KEY_RETENTION_HOURS', 24),
    accountEventsDays: positive('days')('ACCOUNT_EVENTS_RETENTION_DAYS', 30),
    batchSize: 5_000,
  };
}

/** Rows deleted by one pruning, per table. */
export interface Pruned {
  readonly outbox: number;
  readonly processedEvents: number;
  readonly idempotencyKeys: number;
  readonly accountEvents: number;
}

const STATEMENTS = {
  outbox: `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE processed_at < $1 ORDER BY processed_at LIMIT $2)`,
  processedEvents: `DELETE FROM processed_events WHERE ctid IN (SELECT ctid FROM processed_events WHERE processed_at < $1 LIMIT $2)`,
  idempotencyKeys: `DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys WHERE created_at < $1 LIMIT $2)`,
  // Oldest first by the created_at index: each batch reads only what it deletes.
  accountEvents: `DELETE FROM account_events WHERE ctid IN (SELECT ctid FROM account_events WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
} as const;

/** Deletes what is older than its window, in batches, until nothing is left to delete (or `stopping`). */
export async function pruneBookkeeping(dataSource: DataSource, windows: RetentionWindows, now = Date.now(), stopping = () => false): Promise<Pruned> {
  const cutoff = (hours: number) => new Date(now - hours * 3_600_000);
  const prune = async (sql: string, before: Date) => {
    let total = 0;
    for (;;) {
      // TypeORM answers a DELETE as [rows, affected count].
      const [, affected]: [unknown, number] = await dataSource.query(sql, [before, windows.batchSize]);
      total += affected;
      if (affected < windows.batchSize || stopping()) return total;
    }
  };
  return {
    outbox: await prune(STATEMENTS.outbox, cutoff(windows.outboxHours)),
    processedEvents: await prune(STATEMENTS.processedEvents, cutoff(windows.processedEventsHours)),
    idempotencyKeys: await prune(STATEMENTS.idempotencyKeys, cutoff(windows.idempotencyKeyHours)),
    accountEvents: await prune(STATEMENTS.accountEvents, cutoff(windows.accountEventsDays * 24)),
  };
}
