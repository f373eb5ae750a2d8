import { randomUUID } from 'node:crypto';
import type { QueryRunner } from 'typeorm';
import { WrongExpectedVersionError } from '../../errors';
import type { Event, EventMetadata, RecordedEvent } from '../../events';
import { streamKind } from '../../events';

/** `no_stream`: the stream must not exist yet; `any`: skip the check; a number: its current length. */
export type ExpectedVersion = number | 'no_stream' | 'any';

/** Maps a stream id to its Kafka topic (set by the app: the prefix is configuration). */
export type TopicResolver = (streamId: string) => string;

/** Called for every appended event inside the same transaction, to update read models. */
export type Projector = (uow: UnitOfWork, event: RecordedEvent) => Promise<void>;

/** Event schema evolution (EventRegistry): the version new events are written with, and old events lifted to the current shape. */
export interface EventSchemas {
  versionOf(type: string): number;
  upcast(event: RecordedEvent): RecordedEvent;
}

/** Without declared schemas: every type at version 1, nothing to lift. */
export const unversionedSchemas: EventSchemas = { versionOf: () => 1, upcast: (event) => event };

/** A previously stored answer to a POST, replayed when the same Idempotency-Key comes back. */
export interface IdempotentResponse {
  readonly tenantId: string;
  readonly key: string;
  readonly requestHash: string;
  readonly statusCode: number;
  readonly body: unknown;
}

interface EventRow {
  event_id: string;
  stream_id: string;
  stream_position: number;
  global_position: string;
  type: string;
  schema_version: number;
  data: object;
  metadata: EventMetadata;
  recorded_at: Date;
}

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    streamPosition: Number(row.stream_position),
    globalPosition: String(row.global_position),
    type: row.type,
    schemaVersion: Number(row.schema_version),
    data: row.data,
    metadata: row.metadata,
    recordedAt: new Date(row.recorded_at).toISOString(),
  };
}

/**
 * One PostgreSQL transaction: appends, outbox rows, read-model updates, the processed-event
 * ledger and idempotency records all commit together or not at all.
 */
export class UnitOfWork {
  /** True once an event was appended (and so an outbox row written). */
  appended = false;

  constructor(
    private readonly runner: QueryRunner,
    private readonly topicFor: TopicResolver,
    private readonly projector: Projector,
    /** NOTIFY the relay from this transaction (processes without a relay of their own). */
    private readonly notifyRelay = true,
    private readonly schemas: EventSchemas = unversionedSchemas,
  ) {}

  /** Raw SQL inside the transaction (read-model updates). */
  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.runner.query(sql, params);
  }

  /** The stream's events in order, each in the current shape of its type (upcasters applied). */
  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const rows: EventRow[] = await this.runner.query(
      `SELECT * FROM events WHERE stream_id = $1 ORDER BY stream_position`,
      [streamId],
    );
    return rows.map((row) => this.schemas.upcast(toRecordedEvent(row)));
  }

  /**
   * Appends events after checking the expected version. A concurrent writer that got there
   * first makes the primary key `(stream_id, stream_position)` fail, which the store turns
   * into WrongExpectedVersionError (a 409/retry, never a 500).
   */
  async append(
    streamId: string,
    expected: ExpectedVersion,
    events: readonly Event[],
    metadata: EventMetadata,
  ): Promise<RecordedEvent[]> {
    if (events.length === 0) return [];
    const current = expected === 'no_stream' || expected === 0 ? 0 : await this.currentVersion(streamId);
    // A new stream needs no read: if another writer created it first, inserting position 1
    // violates the primary key, which the store reports as WrongExpectedVersionError.
    if (expected !== 'any' && expected !== 'no_stream' && expected !== current) {
      throw new WrongExpectedVersionError(streamId, expected, current);
    }
    const recorded: RecordedEvent[] = [];
    let position = current;
    for (const event of events) {
      position += 1;
      const [row]: EventRow[] = await this.runner.query(
        `INSERT INTO events (event_id, stream_id, stream_position, type, schema_version, data, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [randomUUID(), streamId, position, event.type, event.schemaVersion ?? this.schemas.versionOf(event.type), event.data, metadata],
      );
      const stored = toRecordedEvent(row);
      await this.runner.query(
        `INSERT INTO outbox (event_id, topic, aggregate_type, aggregate_id, message_type, payload, metadata)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [stored.eventId, this.topicFor(streamId), streamKind(streamId), streamId, stored.type, stored, metadata],
      );
      await this.projector(this, stored);
      recorded.push(stored);
    }
    if (this.notifyRelay && !this.appended) {
      // Delivered at commit only, so the relay never wakes for a rolled-back append.
      await this.runner.query(`SELECT pg_notify('outbox', '')`);
    }
    this.appended = true;
    return recorded;
  }

  private async currentVersion(streamId: string): Promise<number> {
    const [{ version }] = await this.runner.query(
      `SELECT COALESCE(MAX(stream_position), 0)::int AS version FROM events WHERE stream_id = $1`,
      [streamId],
    );
    return Number(version);
  }

  /**
   * Records that a consumer group handled an event; false when it already had, in which case
   * the caller skips the effect. Same transaction as the effect: exactly-once effects on top
   * of Kafka's at-least-once delivery.
   */
  async markProcessed(consumerGroup: string, eventId: string): Promise<boolean> {
    const rows = await this.runner.query(
      `INSERT INTO processed_events (consumer_group, event_id) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING event_id`,
      [consumerGroup, eventId],
    );
    return rows.length === 1;
  }

  /** Stores the answer of an idempotent POST with the effects that produced it. */
  async recordIdempotentResponse(response: IdempotentResponse): Promise<void> {
    await this.runner.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, status_code, response)
       VALUES ($1, $2, $3, $4, $5)`,
      [response.tenantId, response.key, response.requestHash, response.statusCode, JSON.stringify(response.body)],
    );
  }
}
