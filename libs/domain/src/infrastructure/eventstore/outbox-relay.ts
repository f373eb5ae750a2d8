import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../events';

/** What the relay needs of a broker: publish in order, resolve only after the broker acked. */
export interface OutboxPublisher {
  publish(messages: Array<{ topic: string; key: string; value: RecordedEvent }>): Promise<void>;
}

export interface OutboxRelayOptions {
  readonly dataSource: DataSource;
  readonly databaseUrl: string;
  readonly publisher: OutboxPublisher;
  /**
   * Topic prefix of this stack: the relay publishes only rows for its own topics, so stacks
   * sharing one database (tests, blue/green) never publish, or stall on, each other's rows.
   */
  readonly topicPrefix: string;
  /** Fallback poll when a NOTIFY was missed (LISTEN connection lost, relay started late). */
  readonly pollIntervalMs?: number;
  readonly batchSize?: number;
  readonly maxBackoffMs?: number;
  readonly log?: (message: string, fields?: Record<string, unknown>) => void;
}

interface OutboxRow {
  id: string;
  topic: string;
  aggregate_id: string;
  payload: RecordedEvent;
}

/** One lock per topic prefix: relays of the same stack take turns, other stacks don't wait. */
const RELAY_LOCK_SQL = `SELECT pg_try_advisory_xact_lock(7312001, hashtext($1)) AS locked`;

/**
 * Publishes outbox rows to Kafka and marks them processed after the broker acks.
 *
 * Progress is `processed_at` per row, not a position cursor: concurrent transactions commit out
 * of order, and a cursor would skip the late one. Rows are taken in id order under a
 * transaction-scoped advisory lock, so however many gateways run, one relay publishes at a time
 * and the events of an aggregate reach Kafka in the order they were appended (appends to one
 * stream are serialised by its expected version). Kafka down: the batch rolls back, the outbox
 * grows, and it drains with backoff when the broker returns.
 */
export class OutboxRelay {
  private listener?: Client;
  private timer?: NodeJS.Timeout;
  private running = false;
  private draining?: Promise<void>;
  private again = false;
  private failures = 0;
  private lockedElsewhere = false;

  private readonly topicPattern: string;

  constructor(private readonly options: OutboxRelayOptions) {
    this.topicPattern = `${options.topicPrefix.replace(/[\\%_]/g, '\\$&')}.%`;
  }

  async start(): Promise<void> {
    this.running = true;
    await this.listen();
    this.wake();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.draining;
    await this.listener?.end().catch(() => undefined);
    this.listener = undefined;
  }

  /** Number of rows not yet published (for /health and tests). */
  async pending(): Promise<number> {
    const [row] = await this.options.dataSource.query(
      `SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NULL AND abandoned_at IS NULL AND topic LIKE $1`,
      [this.topicPattern],
    );
    return Number(row.n);
  }

  /** Drains now; resolves when the outbox was empty at some point or a publish failed. */
  wake(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.draining) {
      this.again = true;
      return this.draining;
    }
    if (this.timer) clearTimeout(this.timer);
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (!this.running) return;
      if (this.again && this.failures === 0 && !this.lockedElsewhere) {
        this.again = false;
        void this.wake();
      } else {
        this.again = false;
        this.schedule();
      }
    });
    return this.draining;
  }

  private schedule(): void {
    const base = this.options.pollIntervalMs ?? 1000;
    // Another relay of this stack holds the lock: look again soon, its batch may not include our rows.
    const backoff = Math.min(this.options.maxBackoffMs ?? 30_000, base * 2 ** Math.min(this.failures, 6));
    const delay = this.lockedElsewhere ? 50 : this.failures === 0 ? base : backoff;
    this.timer = setTimeout(() => void this.wake(), delay);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (!this.running) return;
      const published = await this.publishBatch();
      if (published === 0) return;
    }
  }

  /** Publishes one batch; returns how many rows went out (0: empty, locked elsewhere, or failed). */
  private async publishBatch(): Promise<number> {
    const runner = this.options.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      const [{ locked }] = await runner.query(RELAY_LOCK_SQL, [this.options.topicPrefix]);
      this.lockedElsewhere = !locked;
      if (!locked) {
        await runner.rollbackTransaction();
        return 0;
      }
      const rows: OutboxRow[] = await runner.query(
        `SELECT id, topic, aggregate_id, payload FROM outbox
         WHERE processed_at IS NULL AND abandoned_at IS NULL AND topic LIKE $2
         ORDER BY id LIMIT $1`,
        [this.options.batchSize ?? 500, this.topicPattern],
      );
      if (rows.length === 0) {
        await runner.commitTransaction();
        return 0;
      }
      try {
        await this.options.publisher.publish(
          rows.map((r) => ({ topic: r.topic, key: r.aggregate_id, value: r.payload })),
        );
      } catch (error) {
        await runner.rollbackTransaction();
        await this.recordFailure(rows, error);
        return 0;
      }
      await runner.query(`UPDATE outbox SET processed_at = now(), attempts = attempts + 1 WHERE id = ANY($1::bigint[])`, [
        rows.map((r) => r.id),
      ]);
      await runner.commitTransaction();
      this.failures = 0;
      return rows.length;
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      this.failures += 1;
      this.options.log?.('outbox relay failed', { error: String(error) });
      return 0;
    } finally {
      await runner.release();
    }
  }

  private async recordFailure(rows: OutboxRow[], error: unknown): Promise<void> {
    this.failures += 1;
    const message = error instanceof Error ? error.message : String(error);
    this.options.log?.('outbox publish failed; will retry', { rows: rows.length, error: message, failures: this.failures });
    await this.options.dataSource
      .query(`UPDATE outbox SET attempts = attempts + 1, last_error = $2 WHERE id = ANY($1::bigint[])`, [
        rows.map((r) => r.id),
        message.slice(0, 2000),
      ])
      .catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (!this.running) return;
    const client = new Client({ connectionString: this.options.databaseUrl, application_name: 'einvoice-outbox-listener' });
    client.on('notification', () => void this.wake());
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.listener !== client || !this.running) return;
      this.listener = undefined;
      // The poll covers the gap; reconnect in the background.
      setTimeout(() => void this.listen().catch(() => undefined), 1000).unref();
    });
    await client.connect();
    await client.query('LISTEN outbox');
    this.listener = client;
  }
}
