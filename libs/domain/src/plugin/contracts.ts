/**
 * What a plug-in (the platform's core, or an area) contributes to the event store, the read models,
 * the Kafka topics and the schema. Pure contracts: the infrastructure folder turns a list of plug-ins
 * into the projector, the topic resolver and the migrations every app uses (event-registry.ts), and
 * checks them when an app starts, so that a missing piece fails the start, not the first request.
 */
import type { AppError } from '../errors';
import type { RecordedEvent } from '../events';

/** What a projection may do inside the appending transaction: SQL on the same connection. */
export interface ProjectionContext {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /**
   * A write whose answer the projection does not need (no RETURNING): sent with the transaction's
   * next statement, in one round trip with the append (UnitOfWork.write). Prefer it for inserts;
   * `row` names the one row an UPDATE or upsert touches, so writes to other rows of its table join it.
   */
  write(sql: string, params?: unknown[], options?: { readonly row?: string }): Promise<void>;
  /** Tells other processes' listeners of `channel` about what this transaction commits, once it has (UnitOfWork.announce). */
  announce(channel: string, payload: string): void;
}

/** Updates read models for one event, in the transaction of its append; idempotent on replay. */
export type EventProjector = (context: ProjectionContext, event: RecordedEvent) => Promise<void>;

/**
 * The projector of every event type a plug-in appends. `null` says so explicitly when an event
 * changes no read model (its stream history is all there is); a type missing from the map is a
 * programming error that fails the append. Typed as `Record<TheEventUnion['type'], ...>` by each
 * plug-in, so a new event type without a projector does not compile.
 */
export type EventProjectors = Readonly<Record<string, EventProjector | null>>;

/** The Kafka topic family a stream kind (`<kind>-<id>`), or an event type of its own (`EventPlugin.eventTopics`), is published to (topics.ts). */
export type TopicFamily = 'documents' | 'received' | 'reports' | 'suppliers' | 'participants';

/** Turns a unique violation of a named constraint into the domain's own error. */
export type ConstraintErrorMap = Readonly<Record<string, (detail: string | undefined) => AppError>>;

/**
 * A schema change as plain SQL, run in order by TypeORM's migration table with the platform's own
 * migrations. `name` ends in a 13-digit timestamp (TypeORM orders and records migrations by it):
 * `MyInvoisDocuments1732200000006`. Never renamed once released.
 */
export interface SqlMigration {
  readonly name: string;
  readonly up: readonly string[];
  readonly down: readonly string[];
}

/** Lifts an event's data from one schema version to the next (`n` → `n + 1`). */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

/**
 * The schema of an event type whose data changed shape: its current version (written on new
 * events) and one upcaster per older version, so every reader sees the current shape (DESIGN.md:
 * upcasters, not renamed types). A type without an entry is at version 1.
 */
export interface EventSchema {
  readonly current: number;
  /** `upcasters[n]` lifts version `n` to `n + 1`, for every `n` from 1 to `current - 1`. */
  readonly upcasters: Readonly<Record<number, Upcaster>>;
}

/** Everything one plug-in brings to the event store. */
export interface EventPlugin {
  /** For error messages: `core`, `area:my`. */
  readonly name: string;
  /** The area whose streams these are (`my`); absent for the platform's own, whose events carry `data.area`. */
  readonly area?: string;
  /** Stream kinds it appends to, and the topic family of each (`myinvois` → `documents`). */
  readonly streams: Readonly<Record<string, TopicFamily>>;
  /**
   * Its event types published to another family than their stream kind's, so that a worker fetches
   * them without every other event of those streams: `DocumentReceived` (a received document's first
   * event) on `received`, which only the webhook dispatcher reads (issue 11). The events of a stream
   * stay in order within each topic, so a consumer that reads each of its types from one topic still
   * sees them in order.
   */
  readonly eventTopics?: Readonly<Record<string, TopicFamily>>;
  readonly projectors: EventProjectors;
  /** Unique constraints of its read models that carry a business rule. */
  readonly constraintErrors?: ConstraintErrorMap;
  /** Its tables, in timestamp order. */
  readonly migrations?: readonly SqlMigration[];
  /** Event types whose data changed shape since first written, by type. */
  readonly schemas?: Readonly<Record<string, EventSchema>>;
  /**
   * Its event types no process consumes from Kafka (a worker's bookkeeping: an attempt marker, a poll
   * that found no verdict): stored in their stream and projected as any event, but given no outbox row,
   * so the relay, the broker and every consumer group do not carry them.
   */
  readonly unpublished?: readonly string[];
  /**
   * Shared event types (another plug-in's, whose data states `area`) that no process consumes from
   * Kafka when they are about THIS plug-in's area: `AuthorityReportRequested` of an area whose reports
   * the batch sweep finds in `documents`, woken by a notification (area registry `authority.batch`).
   */
  readonly unpublishedOfArea?: readonly string[];
}
