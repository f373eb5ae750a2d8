import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import type { RecordedEvent } from '../../events';
import type { EncodedEvent } from '../kafka/codec';
import { AppError } from '../../errors';
import { type EventText, type EventTextsHolder, KnownEventTexts } from './event-texts';
import { chunkRows, markPublished, nextOutboxRows, parkRow, parkedOutboxRows, topicPattern, type HandedTexts, type OutboxRow, type ParkedOutboxRow, type RowQueries } from './outbox-rows';
import { RelayLease } from './relay-lease';
import { PreparedStatements } from './prepared-statements';
import { loadInfrastructureConfig } from '../config';
import { SpanKind, SpanStatusCode, contextOf, startSpan, traceparentOf } from '../tracing';
import { RELAY_SESSION_OPTIONS } from '../database/session-options';

/** What the relay needs of a broker: publish in order, resolve only after the broker acked. */
export interface OutboxPublisher {
  publish(messages: Array<{ topic: string; key: string; value: RecordedEvent | EncodedEvent; headers?: Record<string, string> }>): Promise<void>;
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
  /** Rows read per batch (default 500)... */
  readonly batchSize?: number;
  /** ...and at most about this much stored payload (default 16 MiB; at least one row). */
  readonly batchBytes?: number;
  /**
   * Stored bytes per publish (default 1 MiB): small events travel many to a request, a large one
   * alone, so a record batch never adds several large events up past the topics' limit.
   */
  readonly publishBytes?: number;
  readonly maxBackoffMs?: number;
  /**
   * How long a relay woken from idle by a commit waits before it reads (default GATHER_MS), so that
   * the commits of those milliseconds go in its batch (0: reads at once).
   */
  readonly gatherMs?: number;
  /** Opens the LISTEN connection (default: a pg Client on `databaseUrl`); tests inject failures here. */
  readonly listenerClient?: () => Client;
  /** Opens the relay's session, which holds the lock and reads and marks rows (default: a pg Client on `databaseUrl`). */
  readonly sessionClient?: () => Client;
  readonly log?: (message: string, fields?: Record<string, unknown>, level?: 'warn' | 'error') => void;
  /** Told when this relay starts or stops leading (RelayLease); a relay on a thread tells its process so. */
  readonly onLeadChange?: (leads: boolean) => void;
  /**
   * The name this relay is handed its process's event texts under (`outbox.handed_to`; default a
   * new UUID): a relay on a thread is given its process's, which the process's units of work write.
   */
  readonly textsHolder?: string;
  /**
   * A stand-in (a worker's relay) leads only while no relay that leads first (a gateway's) runs, and
   * gives the lead back when one does (relay-lease.ts); default false: this relay leads first.
   */
  readonly standIn?: boolean;
  /** The app it runs in, named in its sessions' `application_name` (`einvoice-<app>-outbox-relay`, `-outbox-listener`): pg_stat_activity shows who leads. */
  readonly app?: string;
}

/**
 * A relay woken from idle gathers this long before its read (issue 11). Below saturation every commit
 * woke an idle relay, so each batch held one or two rows, and each row paid a read, a produce request,
 * a mark, and a fetch and a transaction in each consumer, for itself (at a fixed 300/s the stack's CPU
 * per document went from 5.6 to 5.4 ms with this wait). A wake during a drain needs none: the rows
 * committed meanwhile have gathered by the time it ends.
 */
const GATHER_MS = 4;

/** How a batch went: rows done (published or parked), and whether the broker failed us. */
interface BatchOutcome {
  readonly done: number;
  readonly failed?: { readonly rows: readonly OutboxRow[]; readonly error: unknown };
}

/**
 * The publisher's verdict that these messages will never be taken as they are (KafkaEventPublisher:
 * `KAFKA.MESSAGE_REFUSED`); anything else (broker away, busy, timeouts) is worth retrying.
 */
function isRefused(error: unknown): boolean {
  return error instanceof AppError && !error.retriable;
}

/**
 * Publishes outbox rows to Kafka and marks them processed after the broker acks.
 *
 * Progress is `processed_at` per row, not a position cursor: concurrent transactions commit out
 * of order, and a cursor would skip the late one. Rows are taken in id order by the relay whose
 * session holds the stack's lock (relay-lease.ts), so however many apps run a relay, one relay
 * publishes at a time and the events of an aggregate reach Kafka in the order they were appended
 * (appends to one stream are serialised by its expected version). Its reads and marks are
 * autocommit statements: no transaction is open while it waits for the broker. Kafka down: what was published is marked, the
 * rest waits, the outbox grows, and it drains with backoff when the broker returns. A row the
 * broker refuses for good (too large, invalid) is parked (`abandoned_at`, logged as an error,
 * listed by GET /health) instead of blocking every stream behind it; the later rows of its own
 * stream wait until it is released (`cli outbox release`).
 */
export class OutboxRelay implements EventTextsHolder {
  private listener?: Client;
  private timer?: NodeJS.Timeout;
  private running = false;
  private draining?: Promise<void>;
  /** Waiting for the commits of GATHER_MS before a drain's first read: a wake then has nothing to add. */
  private gathering = false;
  private again = false;
  private failures = 0;
  private lockedElsewhere = false;
  /** When this relay last asked for the lock and another relay held it (Date.now()). */
  private leadRefusedAt = 0;

  private readonly topicPattern: string;
  private readonly lease: RelayLease;
  /** Data texts of this process's events, handed over as their units commit (keepTexts). */
  private readonly texts = new KnownEventTexts();
  /** What its reads are told of them: the rows that name this relay have their text here. */
  private readonly handed: HandedTexts;

  constructor(private readonly options: OutboxRelayOptions) {
    this.topicPattern = topicPattern(options.topicPrefix);
    this.handed = { holder: options.textsHolder ?? randomUUID(), get: (eventId) => this.texts.get(eventId) };
    const open = options.sessionClient ?? (() => new Client({ connectionString: options.databaseUrl, application_name: this.applicationName('outbox-relay'), keepAlive: true, options: RELAY_SESSION_OPTIONS }));
    // A stand-in looks for a relay that leads first on the app's pool: its own session is opened only to take the lock.
    const standIn = options.standIn ? { look: (sql: string, params: unknown[]) => options.dataSource.query(sql, params), everyMs: options.pollIntervalMs ?? 1000 } : undefined;
    this.lease = new RelayLease(open, options.topicPrefix, loadInfrastructureConfig().databasePreparedStatements ? PreparedStatements.ofProcess : undefined, options.onLeadChange, standIn);
  }

  async start(): Promise<void> {
    this.running = true;
    // Listening, it drains what was appended before (listen's own wake).
    await this.listen();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.draining;
    await this.lease.end();
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

  /** Rows the broker refused, parked until released (for /health; outbox-rows.ts). */
  parked(limit?: number): Promise<{ count: number; rows: ParkedOutboxRow[] }> {
    return parkedOutboxRows(this.options.dataSource, this.options.topicPrefix, limit);
  }

  /**
   * Wakes this relay if it publishes for the stack (after its own process's commits) and says so;
   * false while another relay leads, which a NOTIFY must wake instead (EventStore's `wakeRelay`).
   */
  wakeIfLeading(): boolean {
    if (!this.running || !this.lease.leads) return false;
    void this.wake(true);
    return true;
  }

  /** Keeps, while it leads, the data texts of its process's events as their units commit, for its next reads (event-texts.ts). */
  keepTexts(texts: readonly EventText[]): void {
    if (this.running && this.lease.leads) this.texts.add(texts);
  }

  /** The name its process's outbox rows give it while it leads (EventStore's `wakeRelay.texts`); undefined otherwise. */
  textsHandedTo(): string | undefined {
    return this.running && this.lease.leads ? this.handed.holder : undefined;
  }

  /**
   * Drains (after gathering, when `gather` and idle); resolves when the outbox was empty at some point
   * or a publish failed.
   */
  wake(gather = false): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.draining) {
      if (!this.gathering) this.again = true;
      return this.draining;
    }
    if (this.timer) clearTimeout(this.timer);
    const gatherMs = gather ? (this.options.gatherMs ?? GATHER_MS) : 0;
    this.draining = this.gatherThenDrain(gatherMs).finally(() => {
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

  private async gatherThenDrain(gatherMs: number): Promise<void> {
    if (gatherMs > 0) {
      this.gathering = true;
      await new Promise((resolve) => setTimeout(resolve, gatherMs));
      this.gathering = false;
    }
    await this.drain();
  }

  private schedule(): void {
    const base = this.options.pollIntervalMs ?? 1000;
    // Another relay of this stack leads: it publishes every row; this one tries the lock at each poll, to take over.
    const backoff = Math.min(this.options.maxBackoffMs ?? 30_000, base * 2 ** Math.min(this.failures, 6));
    const delay = this.failures === 0 || this.lockedElsewhere ? base : backoff;
    this.timer = setTimeout(() => void this.wake(), delay);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (!this.running) return;
      const { done, rest } = await this.publishBatch();
      // A batch that took every row there was ends the drain without a read that would find none (a third of
      // the reads under load, issue 11): a row committed since then woke this relay, which drains again (`again`).
      if (done === 0 || !rest) return;
    }
  }

  /**
   * Publishes one batch: how many rows are done (0: empty, another relay leads, or failed), and whether
   * rows may be left that the batch's bounds (rows, bytes) kept out. What was published before a failure is marked.
   */
  private async publishBatch(): Promise<{ readonly done: number; readonly rest: boolean }> {
    const none = { done: 0, rest: false };
    try {
      // A follower hears every commit's NOTIFY; asking for the lock once a poll interval is enough to take over.
      if (this.lockedElsewhere && Date.now() - this.leadRefusedAt < (this.options.pollIntervalMs ?? 1000)) return none;
      const session = await this.lease.lead();
      this.lockedElsewhere = session === undefined;
      if (session === undefined) {
        this.leadRefusedAt = Date.now();
        return none;
      }
      const limit = this.options.batchSize ?? 500;
      const maxBytes = this.options.batchBytes ?? 16 * 1024 * 1024;
      const rows = await nextOutboxRows(session, this.topicPattern, limit, maxBytes, this.handed);
      if (rows.length === 0) return none;
      this.texts.forget(rows.map((r) => r.payload.eventId));
      const outcome = await this.publishRows(session, rows);
      if (outcome.failed) {
        await this.recordFailure(outcome.failed.rows, outcome.failed.error);
        return none;
      }
      this.failures = 0;
      // Neither bound kept a row out: fewer rows than the limit, and less than the byte budget in all (nextOutboxRows
      // leaves a row out only once the rows before it reach the budget).
      const rest = rows.length >= limit || rows.reduce((bytes, row) => bytes + row.stored_bytes, 0) >= maxBytes;
      return { done: outcome.done, rest };
    } catch (error) {
      this.failures += 1;
      this.options.log?.('outbox relay failed', { error: String(error) });
      return none;
    }
  }

  /**
   * Publishes the rows in order, a few per request. A request the broker refuses as it is (too
   * large, invalid) is retried row by row to find the culprit, which is parked: the rows of every
   * other stream go on, the later rows of its own stream wait behind it (order per aggregate).
   * Any other failure (broker away, busy) stops the batch; it is tried again with backoff.
   */
  private async publishRows(session: RowQueries, rows: readonly OutboxRow[]): Promise<BatchOutcome> {
    const blocked = new Set<string>();
    let done = 0;
    for (const chunk of chunkRows(rows, this.options.publishBytes ?? 1024 * 1024)) {
      const ready = chunk.filter((r) => !blocked.has(r.aggregate_id));
      if (ready.length === 0) continue;
      const error = await this.publish(ready);
      if (error === undefined) {
        await markPublished(session, ready);
        done += ready.length;
        continue;
      }
      if (!isRefused(error)) return { done, failed: { rows: ready, error } };
      for (const row of ready) {
        if (blocked.has(row.aggregate_id)) continue;
        const rowError = ready.length === 1 ? error : await this.publish([row]);
        if (rowError === undefined) {
          await markPublished(session, [row]);
        } else if (isRefused(rowError)) {
          await this.park(session, row, rowError);
          blocked.add(row.aggregate_id);
        } else {
          return { done, failed: { rows: [row], error: rowError } };
        }
        done += 1;
      }
    }
    return { done };
  }

  private async publish(rows: readonly OutboxRow[]): Promise<unknown> {
    // One span per traced event (a child of the span that appended it); the message carries it to the consumers.
    const spans = rows.map((r) => r.payload.metadata.traceparent
      ? startSpan(`publish ${r.payload.type}`, { kind: SpanKind.PRODUCER, parent: contextOf(r.payload.metadata.traceparent), attributes: { 'messaging.system': 'kafka', 'messaging.destination.name': r.topic, 'einvoice.event_id': r.payload.eventId } })
      : undefined);
    try {
      await this.options.publisher.publish(rows.map((r, i) => {
        const traceparent = spans[i] && traceparentOf(spans[i]);
        return { topic: r.topic, key: r.aggregate_id, value: r.payload, ...(traceparent ? { headers: { traceparent } } : {}) };
      }));
      return undefined;
    } catch (error) {
      for (const span of spans) span?.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      return error ?? new Error('publish failed');
    } finally {
      for (const span of spans) span?.end();
    }
  }

  private async park(session: RowQueries, row: OutboxRow, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    await parkRow(session, row, message);
    this.options.log?.(
      'outbox row parked: the broker refuses it; later events of its stream wait behind it until it is released (docs/architecture.md "The event store, the outbox and Kafka"; cli outbox release)',
      { outboxId: row.id, eventId: row.payload.eventId, type: row.payload.type, streamId: row.aggregate_id, topic: row.topic, storedBytes: row.stored_bytes, error: message },
      'error',
    );
  }

  private async recordFailure(rows: readonly OutboxRow[], error: unknown): Promise<void> {
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

  private applicationName(role: string): string {
    return this.options.app ? `einvoice-${this.options.app}-${role}` : `einvoice-${role}`;
  }

  private async listen(): Promise<void> {
    if (!this.running) return;
    const client = this.options.listenerClient?.() ?? new Client({ connectionString: this.options.databaseUrl, application_name: this.applicationName('outbox-listener') });
    client.on('notification', () => void this.wake(true));
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.listener !== client || !this.running) return;
      this.listener = undefined;
      // The poll covers the gap; reconnect in the background until it works.
      this.relisten(1);
    });
    try {
      await client.connect();
      await client.query('LISTEN outbox');
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (!this.running) return void (await client.end().catch(() => undefined));
    this.listener = client;
    // Rows appended while nobody listened were announced to no one.
    void this.wake();
  }

  /**
   * Re-opens the LISTEN connection with backoff (0.5 s, doubling, at most `maxBackoffMs`) until it
   * works or the relay stops: a failed attempt is retried, never dropped (#8).
   */
  private relisten(attempt: number): void {
    if (!this.running) return;
    const delayMs = Math.min(this.options.maxBackoffMs ?? 30_000, 250 * 2 ** attempt);
    setTimeout(() => {
      this.listen().catch((error) => {
        this.options.log?.('outbox LISTEN connection failed; retrying', { attempt, delayMs, error: String((error as Error)?.message ?? error) });
        this.relisten(attempt + 1);
      });
    }, delayMs).unref();
  }
}
