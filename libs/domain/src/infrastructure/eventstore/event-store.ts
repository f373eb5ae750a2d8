import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppError, WrongExpectedVersionError } from '../../errors';
import type { RecordedEvent } from '../../events';
import type { ConstraintErrorMap } from '../../plugin';
import { NOTIFY_ALL_SQL, PostCommitNotifications } from './post-commit-notifications';
import { CommitGroups } from './commit-groups';
import { PreparedStatements } from './prepared-statements';
import { loadInfrastructureConfig } from '../config';
import { EventSchemas, Projector, type PublishedPredicate, TopicResolver, UnitOfWork, toRecordedEvent, unversionedSchemas } from './unit-of-work';
import { UnitSession } from './unit-session';
import type { EventTextsHolder } from './event-texts';
import { metrics } from '../metrics';

export type { ConstraintErrorMap } from '../../plugin';

export interface EventStoreOptions {
  readonly topicFor: TopicResolver;
  readonly projector: Projector;
  /** Unique constraints of read models that carry a business rule (e.g. one document ID per supplier). */
  readonly constraintErrors?: ConstraintErrorMap;
  /**
   * How the outbox relay learns of new rows. `notify` (default), for processes that have no relay
   * of their own (workers): a `pg_notify('outbox')` after the commit, on its own, at most one per
   * RELAY_NOTIFY_EVERY_MS per process (post-commit-notifications.ts). Not inside the appending transaction: a
   * NOTIFY takes a database-wide lock from the notifying statement to the end of the commit, which
   * serialised every worker's commits under load (issue 11: ~1 backend waiting on it at all times).
   * A process with its own relay passes `afterCommit`, which wakes it in-process when it leads (the
   * one relay of the stack that publishes, relay-lease.ts) and answers false otherwise: then the
   * NOTIFY goes out for the relay that does. Its `texts` relay is handed the data text of the events
   * a unit of work is about to commit (event-texts.ts): while it leads it keeps them, the unit's outbox
   * rows name it, and its reads leave their data alone.
   */
  readonly wakeRelay?: 'notify' | { afterCommit: () => boolean; texts?: EventTextsHolder };
  /** Event schema versions and upcasters (EventRegistry); default: every type at version 1. */
  readonly schemas?: EventSchemas;
  /** Whether an event goes to Kafka (EventRegistry `published`); default: all. */
  readonly published?: PublishedPredicate;
  /**
   * Whether units of work keep their statements prepared on their connections (prepared-statements.ts).
   * Default: `DATABASE_PREPARED_STATEMENTS` (on; `off` behind a pooler that cannot carry named
   * statements across server connections, PgBouncer in transaction mode before 1.21), so every store
   * of the process, the CLI's included, follows the one setting.
   */
  readonly prepareStatements?: boolean;
  /**
   * Whether units of work made only of held-back writes that commit at the same moment share one
   * statement (commit-groups.ts). Default: `DATABASE_GROUP_COMMIT` (on).
   */
  readonly groupCommits?: boolean;
}

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  driverError?: PgError;
}

const UNIQUE_VIOLATION = '23505';
const ALREADY_PROCESSED = 'EVENT.ALREADY_PROCESSED';

/** The unit of work failed because its processed mark (UnitOfWork.recordProcessed) was already there: the event was handled. */
export function isAlreadyProcessed(error: unknown): boolean {
  return error instanceof AppError && error.code === ALREADY_PROCESSED;
}

/**
 * A consumer's exactly-once step: `work` and the processed mark of `eventId` for `consumerGroup` in one
 * transaction (UnitOfWork.recordProcessed), or nothing. When the group had handled the event before (a
 * redelivery, a rebalance) nothing of `work` is written and the answer is `undefined`: the caller is
 * done. A function of the store's `transaction`, not a method, so a test's store that wraps
 * `transaction` (a worker killed before its commit) wraps this step too.
 */
export async function transactionOnce<T>(
  store: Pick<EventStore, 'transaction'>,
  consumerGroup: string,
  eventId: string,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<{ readonly value: T } | undefined> {
  try {
    return {
      value: await store.transaction(async (uow) => {
        const value = await work(uow);
        await uow.recordProcessed(consumerGroup, eventId);
        return value;
      }),
    };
  } catch (error) {
    if (isAlreadyProcessed(error)) return undefined;
    throw error;
  }
}

/** PostgreSQL event store (DESIGN.md): events, outbox and read models in one transaction. */
export class EventStore {
  private readonly afterAppend: () => void;
  /** The relay this process's units hand their event texts to (`wakeRelay.texts`). */
  private readonly texts?: EventTextsHolder;
  /** What this process's commits announce to other processes (projections' `announce`, the relay's wake-up). */
  private readonly notifications: PostCommitNotifications;
  private readonly prepared?: PreparedStatements;
  private readonly groups?: CommitGroups;

  constructor(
    readonly dataSource: DataSource,
    private readonly options: EventStoreOptions,
  ) {
    this.notifications = new PostCommitNotifications(async (channels, payloads) => {
      // After shutdown (the pool is gone) there is no one to tell.
      if (dataSource.isInitialized) await poolOf(dataSource).query(NOTIFY_ALL_SQL, [channels, payloads]);
    });
    if (options.prepareStatements ?? loadInfrastructureConfig().databasePreparedStatements) this.prepared = PreparedStatements.ofProcess;
    if (options.groupCommits ?? loadInfrastructureConfig().databaseGroupCommit) this.groups = new CommitGroups();
    const wake = options.wakeRelay ?? 'notify';
    const notify = () => this.notifications.add('outbox', '');
    this.afterAppend = wake === 'notify' ? notify : () => wake.afterCommit() || notify();
    if (wake !== 'notify') this.texts = wake.texts;
  }

  /**
   * Runs `work` in one transaction. Unique violations become domain errors: a concurrent append
   * to the same stream is WrongExpectedVersionError, a read-model constraint is mapped through
   * `constraintErrors`. Nothing half-written survives a failure.
   */
  async transaction<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    // Plain pg on the hot path (issue 11): the pool's clients, not a TypeORM query runner, whose
    // BEGIN alone is two round trips and whose every query passes through its broadcaster; taken
    // for each statement until the unit begins a transaction (unit-session.ts).
    const session = new UnitSession(poolOf(this.dataSource), this.prepared);
    let broken: Error | undefined;
    try {
      const uow = new UnitOfWork(session, this.options.topicFor, this.options.projector, this.options.schemas ?? unversionedSchemas, this.options.published, this.groups, this.texts);
      try {
        const result = await work(uow);
        // The texts travel to the relay while the commit does (event-texts.ts says why not after).
        if (this.texts && uow.eventTexts.length > 0) this.texts.keepTexts(uow.eventTexts);
        await uow.commit();
        if (uow.appended) this.afterAppend();
        for (const { channel, payload } of uow.announcements) this.notifications.add(channel, payload);
        return result;
      } catch (error) {
        await uow.rollback().catch((rollbackError: Error) => {
          // A connection that cannot roll back is not given back to the pool.
          broken = rollbackError;
        });
        throw this.translate(error);
      }
    } finally {
      session.release(broken);
    }
  }

  /**
   * A read on a hot path outside any unit of work (e.g. a worker's first look at an event): a unit of
   * work of that one read (UnitOfWork.read: autocommit, no BEGIN), kept prepared when its columns are
   * named (prepared-statements.ts) unless `prepare: false`: a prepared statement's generic plan is
   * made once per connection, from the tables' sizes then, and kept; a read whose best plan changes
   * as a table grows from empty is planned each time instead.
   */
  read<T = Record<string, unknown>>(sql: string, params: unknown[] = [], options: { readonly prepare?: boolean } = {}): Promise<T[]> {
    return this.transaction((uow) => uow.read<T>(sql, params, { prepare: options.prepare ?? true }));
  }

  /**
   * A write on a hot path outside any unit of work, whose answer nobody reads (no RETURNING): a unit of
   * work of that one write, so it shares a statement and a commit with the units committing at the
   * same moment (group commit; `row` as UnitOfWork.write).
   */
  async write(sql: string, params: unknown[] = [], options: { readonly row?: string } = {}): Promise<void> {
    await this.transaction((uow) => uow.write(sql, params, options));
  }

  /** The stream's events in order, each in the current shape of its type (upcasters applied). */
  async readStream(streamId: string): Promise<RecordedEvent[]> {
    const rows = await this.dataSource.query(
      `SELECT * FROM events WHERE stream_id = $1 ORDER BY stream_position`,
      [streamId],
    );
    const schemas = this.options.schemas ?? unversionedSchemas;
    return rows.map((row: Parameters<typeof toRecordedEvent>[0]) => schemas.upcast(toRecordedEvent(row)));
  }

  /**
   * Several streams in one query: each one's events in order (upcast), by stream id; a stream with no events is missing.
   * One probe of the primary key per stream (the LATERAL): `stream_id = ANY($1)` was planned as a sequential scan of
   * every event wherever the table has no statistics (autovacuum off: never analyzed), the reporting worker's polls of
   * MyInvois bulks reading ~60 streams in 46 ms each under the bench's load, 40% of PostgreSQL's time (issue 11).
   * The subquery's ORDER BY keeps it a subquery run per stream: without it the planner may flatten it into a join,
   * and a hash join over a scan of every event is again the plan it likes with no statistics.
   */
  async readStreams(streamIds: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const rows = await this.dataSource.query(
      `SELECT e.* FROM unnest($1::text[]) AS s(id)
       CROSS JOIN LATERAL (SELECT * FROM events WHERE stream_id = s.id ORDER BY stream_position) AS e
       ORDER BY e.stream_id, e.stream_position`,
      [[...new Set(streamIds)]],
    );
    const schemas = this.options.schemas ?? unversionedSchemas;
    const streams = new Map<string, RecordedEvent[]>();
    for (const row of rows as Array<Parameters<typeof toRecordedEvent>[0]>) {
      const event = schemas.upcast(toRecordedEvent(row));
      const stream = streams.get(event.streamId);
      if (stream) stream.push(event);
      else streams.set(event.streamId, [event]);
    }
    return streams;
  }

  /**
   * The stream's last event (upcast), or undefined for an empty stream: for a stream whose state is
   * its last event (a chain: its length and last link), without reading its whole history.
   */
  async readLast(streamId: string): Promise<RecordedEvent | undefined> {
    const rows = await this.dataSource.query(`SELECT * FROM events WHERE stream_id = $1 ORDER BY stream_position DESC LIMIT 1`, [streamId]);
    const schemas = this.options.schemas ?? unversionedSchemas;
    return rows.length ? schemas.upcast(toRecordedEvent(rows[0])) : undefined;
  }

  /**
   * True when `consumerGroup` has recorded `eventId` as handled (UnitOfWork.markProcessed): a handler
   * that calls out of the process asks first, so a redelivered event calls nothing again.
   */
  async wasProcessed(consumerGroup: string, eventId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM processed_events WHERE consumer_group = $1 AND event_id = $2`, [consumerGroup, eventId]);
    return rows.length > 0;
  }

  private translate(error: unknown): unknown {
    const pg = (error as PgError)?.driverError ?? (error as PgError);
    if (pg?.code !== UNIQUE_VIOLATION || !pg.constraint) return error;
    if (pg.constraint === 'processed_events_pkey') {
      return new AppError('conflict', ALREADY_PROCESSED, 'This consumer group already handled this event.', { retriable: false });
    }
    if (pg.constraint === 'events_stream_position_pkey') {
      metrics.appendConflicts.inc();
      const streamId = /\(stream_id, stream_position\)=\((.*), (\d+)\)/.exec(pg.detail ?? '');
      return new WrongExpectedVersionError(streamId?.[1] ?? 'unknown', Number(streamId?.[2] ?? 0) - 1, null);
    }
    const mapped = this.options.constraintErrors?.[pg.constraint];
    return mapped ? mapped(pg.detail) : error;
  }
}

/** The pg pool under a TypeORM data source (one pool per process, sized by createDataSource). */
export function poolOf(dataSource: DataSource): Pool {
  return (dataSource.driver as PostgresDriver).master as Pool;
}

/**
 * Statements on a hot path outside any unit of work, by the pool itself, answered with their rows
 * (issue 11: TypeORM's `DataSource.query` takes and gives back a query runner and passes through its
 * broadcaster on every call). Errors are pg's, not wrapped in TypeORM's QueryFailedError.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows are typed by each caller, as DataSource.query's
export function pooledSql(dataSource: DataSource): { query(sql: string, params?: unknown[]): Promise<any[]> } {
  return { query: async (sql, params) => (await poolOf(dataSource).query(sql, params)).rows };
}
