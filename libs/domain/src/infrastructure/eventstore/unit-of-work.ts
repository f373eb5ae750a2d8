import { WrongExpectedVersionError } from '../../errors';
import { timeOrderedUuid } from '../../ids';
import type { Event, EventMetadata, RecordedEvent } from '../../events';
import { streamKind } from '../../events';
import { HeldWrites, type Write, combineWrites } from './deferred-writes';
import type { CommitGroups } from './commit-groups';
import { traceparentOf } from '../tracing';
import { areaInData } from '../kafka/headers';
import type { EventText, EventTextsHolder } from './event-texts';

/** A unit of work's statements may be kept prepared on its connection (prepared-statements.ts says which). */
const PREPARE = { prepare: true } as const;

/** The columns of `events`, named so that a stream read may be kept prepared (never `SELECT *`: prepared-statements.ts). */
const EVENT_COLUMNS = 'event_id, stream_id, stream_position, global_position, type, schema_version, data, metadata, recorded_at';

/** `no_stream`: the stream must not exist yet; `any`: skip the check; a number: its current length. */
/** Whether an event is given an outbox row (goes to Kafka): by its type, and for shared types by its area (EventRegistry `published`). */
export type PublishedPredicate = (event: Pick<RecordedEvent, 'type' | 'streamId' | 'data'>) => boolean;

export type ExpectedVersion = number | 'no_stream' | 'any';

/** Maps an event's stream id and type to its Kafka topic (set by the app: the prefix is configuration). */
export type TopicResolver = (streamId: string, type: string) => string;

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

/** An `events` row as read. */
export interface StoredEventColumns {
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

export function toRecordedEvent(row: StoredEventColumns): RecordedEvent {
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

/** The connection a unit of work runs on (EventStore gives it a UnitSession: pooled connections as it needs them, unit-session.ts). */
export interface SqlConnection {
  /** `prepare`: the connection may keep the statement prepared (prepared-statements.ts decides which). */
  query(sql: string, params?: unknown[], options?: { readonly prepare?: boolean }): Promise<{ command: string; rows: unknown[]; rowCount: number | null }>;
  /** BEGIN: the statements after it, COMMIT or ROLLBACK included, go on the connection that began. */
  begin(): Promise<unknown>;
}

/**
 * One PostgreSQL transaction: appends, outbox rows, read-model updates, the processed-event
 * ledger and idempotency records all commit together or not at all.
 *
 * Round trips are the cost that matters here (issue 11), so: BEGIN is sent only before the first
 * statement whose answer is needed (`query`, a stream read); writes whose answer nobody reads
 * (`write`: the appended events, their outbox rows, inserts of projections) wait and travel as one
 * statement with the next read or at commit (deferred-writes.ts). A unit of work of writes only
 * is one statement in autocommit: no BEGIN, no COMMIT.
 */
export class UnitOfWork {
  /** True once an event was appended (and so an outbox row written). */
  appended = false;
  /** The data text of each appended event that has an outbox row, as written: the store hands them to its relay as it commits (event-texts.ts). */
  readonly eventTexts: EventText[] = [];
  /** Notifications for other processes, sent by the store once this unit of work committed (`announce`). */
  readonly announcements: Array<{ readonly channel: string; readonly payload: string }> = [];
  private began = false;
  private pending: Write[] = [];
  /** What `pending` writes, table by table, kept as it grows: whether the next write may join it is one lookup. */
  private held = new HeldWrites();

  constructor(
    private readonly connection: SqlConnection,
    private readonly topicFor: TopicResolver,
    private readonly projector: Projector,
    private readonly schemas: EventSchemas = unversionedSchemas,
    private readonly published: PublishedPredicate = () => true,
    /** Where a unit of writes only is committed with others' (commit-groups.ts); without it, alone. */
    private readonly groups?: CommitGroups,
    /** The relay this unit's event texts will be handed to (EventStore's `wakeRelay.texts`): its outbox rows name it. */
    private readonly texts?: Pick<EventTextsHolder, 'textsHandedTo'>,
  ) {}

  /**
   * SQL inside the transaction, with its answer (TypeORM's shape: rows, or `[rows, count]` for
   * UPDATE and DELETE). The writes held back so far are sent first, so it sees them.
   */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    await this.flush();
    const result = await this.send(sql, params, PREPARE);
    return (result.command === 'UPDATE' || result.command === 'DELETE' ? [result.rows, result.rowCount] : result.rows) as T[];
  }

  /**
   * A write whose answer nobody reads (INSERT, UPDATE or DELETE without RETURNING): held back and
   * sent with the next `query` or at commit, in one statement with the other such writes (`row`:
   * the one row it touches, when it touches one; see deferred-writes.ts). Its
   * errors (a unique violation) surface then, and fail the unit of work as they would have here.
   */
  async write(sql: string, params: unknown[] = [], options: { readonly row?: string } = {}): Promise<void> {
    const next = { sql, params, row: options.row };
    if (!this.held.admits(next)) await this.flush();
    this.pending.push(next);
    this.held.add(next);
  }

  /**
   * Tells listeners of `channel` something this unit of work commits: sent by the store after the
   * commit, never if it rolls back (post-commit-notifications.ts says why not a NOTIFY inside).
   */
  announce(channel: string, payload: string): void {
    this.announcements.push({ channel, payload });
  }

  /**
   * The stream's events in order, each in the current shape of its type (upcasters applied). Read
   * without opening the transaction while nothing was sent or held back: what is decided from it is
   * appended with the stream's version, which the primary key guards (a writer that came in between
   * makes the append fail with WrongExpectedVersionError), so the read needs no snapshot shared with
   * the writes, and a unit of work of one command stays one autocommit statement.
   */
  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const rows = await this.read<StoredEventColumns>(`SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = $1 ORDER BY stream_position`, [streamId]);
    return rows.map((row) => this.schemas.upcast(toRecordedEvent(row)));
  }

  /**
   * A read whose answer needs no snapshot shared with this unit of work's writes (a stream read
   * guarded by its version; what a later insert's own constraints guard anyway): sent outside the
   * transaction while nothing was sent or held back, else as `query`.
   */
  async read<T = Record<string, unknown>>(sql: string, params: unknown[] = [], options: { readonly prepare: boolean } = PREPARE): Promise<T[]> {
    if (this.began || this.pending.length > 0) return this.query<T>(sql, params);
    return (await this.connection.query(sql, params, options)).rows as T[];
  }

  /**
   * Appends events after checking the expected version. A concurrent writer that got there
   * first makes the primary key `(stream_id, stream_position)` fail, which the store turns
   * into WrongExpectedVersionError (a 409/retry, never a 500). The events and their outbox rows
   * are written with the transaction's next statement; the events returned carry the position in
   * their stream, and `globalPosition` '0' (the store numbers them as it inserts them; what is
   * read back and published carries the number).
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
    return this.appendAfter(streamId, current, events, metadata);
  }

  /**
   * Appends right after `version`, the stream's length as just read (handleCommand), without asking
   * for it again: if another writer appended since, the primary key refuses the first position and
   * the unit of work fails with WrongExpectedVersionError.
   */
  async appendAfter(streamId: string, version: number, events: readonly Event[], metadata: EventMetadata): Promise<RecordedEvent[]> {
    if (events.length === 0) return [];
    // Events appended while a span is active (a worker's handling) carry it, so the trace goes on.
    const traceparent = metadata.traceparent ?? traceparentOf();
    if (traceparent) metadata = { ...metadata, traceparent };
    const current = version;
    const recorded: RecordedEvent[] = [];
    let position = current;
    for (const event of events) {
      position += 1;
      const stored: RecordedEvent = {
        eventId: timeOrderedUuid(),
        streamId,
        streamPosition: position,
        globalPosition: '0',
        type: event.type,
        schemaVersion: event.schemaVersion ?? this.schemas.versionOf(event.type),
        data: event.data,
        metadata,
        recordedAt: new Date().toISOString(),
      };
      // Written as pg would write it (JSON.stringify), here so that the text can go to the relay as well.
      const dataText = JSON.stringify(stored.data);
      await this.write(
        `INSERT INTO events (event_id, stream_id, stream_position, type, schema_version, data, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [stored.eventId, streamId, position, stored.type, stored.schemaVersion, dataText, metadata],
      );
      // The outbox row names the event; the relay reads the event itself (its payload is not written twice).
      // A type no process consumes gets none: it is history and read model only.
      if (this.published(stored)) {
        this.eventTexts.push({ eventId: stored.eventId, text: dataText });
        await this.write(
          `INSERT INTO outbox (event_id, topic, aggregate_type, aggregate_id, message_type, area, handed_to) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          // Its area ('' for none): the relay's header, without unpacking the event's data (migration OutboxArea).
          // The relay that is handed its text, if any, reads the row without it (migration OutboxHandedTo).
          [stored.eventId, this.topicFor(streamId, stored.type), streamKind(streamId), streamId, stored.type, areaInData(stored) ?? '', this.texts?.textsHandedTo() ?? null],
        );
      }
      await this.projector(this, stored);
      recorded.push(stored);
    }
    this.appended = true;
    return recorded;
  }

  private async currentVersion(streamId: string): Promise<number> {
    const [{ version }] = await this.query<{ version: number }>(
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
    const rows = await this.query(
      `INSERT INTO processed_events (consumer_group, event_id) VALUES ($1, $2)
       ON CONFLICT DO NOTHING RETURNING event_id`,
      [consumerGroup, eventId],
    );
    return rows.length === 1;
  }

  /**
   * markProcessed without waiting for the answer: the mark travels with the effects, and when the
   * group had already handled the event the whole unit of work fails with an error that
   * `isAlreadyProcessed` recognises (nothing of it is written), which the caller treats as done.
   */
  async recordProcessed(consumerGroup: string, eventId: string): Promise<void> {
    await this.write(`INSERT INTO processed_events (consumer_group, event_id) VALUES ($1, $2)`, [consumerGroup, eventId]);
  }

  /** Stores the answer of an idempotent POST with the effects that produced it. Sent at once, not
   * held back: the key's row must be the first thing the transaction writes, so that a concurrent
   * request with the same key waits on it and replays this answer instead of meeting the rows this
   * request creates (e.g. its document number) first.
   */
  async recordIdempotentResponse(response: IdempotentResponse): Promise<void> {
    await this.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, status_code, response) VALUES ($1, $2, $3, $4, $5)`,
      [response.tenantId, response.key, response.requestHash, response.statusCode, JSON.stringify(response.body)],
    );
  }

  /**
   * Sends what is held back, then COMMIT; or, if nothing was sent yet, all of it as one autocommit
   * statement (with other units' that commit at the same moment, when the store groups commits).
   */
  async commit(): Promise<void> {
    if (!this.began) {
      if (this.pending.length === 0) return;
      if (this.groups) return this.groups.commit(this.takePending(), this.connection);
      const { sql, params } = combineWrites(this.takePending());
      await this.connection.query(sql, [...params], PREPARE);
      return;
    }
    await this.flush();
    await this.connection.query('COMMIT');
  }

  /** ROLLBACK if a transaction was opened; what was held back is dropped. */
  async rollback(): Promise<void> {
    this.takePending();
    if (this.began) await this.connection.query('ROLLBACK');
  }

  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const { sql, params } = combineWrites(this.takePending());
    await this.send(sql, [...params], PREPARE);
  }

  private takePending(): Write[] {
    const pending = this.pending;
    this.pending = [];
    this.held = new HeldWrites();
    return pending;
  }

  /** A statement inside the transaction: BEGIN first if it is the first one. */
  private async send(sql: string, params: unknown[], options?: { readonly prepare?: boolean }) {
    if (!this.began) {
      this.began = true;
      await this.connection.begin();
    }
    return this.connection.query(sql, params, options);
  }
}
