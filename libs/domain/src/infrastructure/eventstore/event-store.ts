import type { DataSource } from 'typeorm';
import { WrongExpectedVersionError } from '../../errors';
import type { RecordedEvent } from '../../events';
import type { ConstraintErrorMap } from '../../plugin';
import { EventSchemas, Projector, TopicResolver, UnitOfWork, toRecordedEvent, unversionedSchemas } from './unit-of-work';

export type { ConstraintErrorMap } from '../../plugin';

export interface EventStoreOptions {
  readonly topicFor: TopicResolver;
  readonly projector: Projector;
  /** Unique constraints of read models that carry a business rule (e.g. one document ID per supplier). */
  readonly constraintErrors?: ConstraintErrorMap;
  /**
   * How the outbox relay learns of new rows. `notify` (default): `pg_notify` in the appending
   * transaction, for processes that have no relay of their own (workers). A process with its
   * own relay passes `afterCommit` to wake it in-process instead: NOTIFY takes a database-wide
   * lock at commit, which serialises every appending transaction under load.
   */
  readonly wakeRelay?: 'notify' | { afterCommit: () => void };
  /** Event schema versions and upcasters (EventRegistry); default: every type at version 1. */
  readonly schemas?: EventSchemas;
}

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  driverError?: PgError;
}

const UNIQUE_VIOLATION = '23505';

/** PostgreSQL event store (DESIGN.md): events, outbox and read models in one transaction. */
export class EventStore {
  constructor(
    readonly dataSource: DataSource,
    private readonly options: EventStoreOptions,
  ) {}

  /**
   * Runs `work` in one transaction. Unique violations become domain errors: a concurrent append
   * to the same stream is WrongExpectedVersionError, a read-model constraint is mapped through
   * `constraintErrors`. Nothing half-written survives a failure.
   */
  async transaction<T>(work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('READ COMMITTED');
      try {
        const wake = this.options.wakeRelay ?? 'notify';
        const uow = new UnitOfWork(runner, this.options.topicFor, this.options.projector, wake === 'notify', this.options.schemas ?? unversionedSchemas);
        const result = await work(uow);
        await runner.commitTransaction();
        if (uow.appended && wake !== 'notify') wake.afterCommit();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        throw this.translate(error);
      }
    } finally {
      await runner.release();
    }
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
    if (pg.constraint === 'events_stream_position_pkey') {
      const streamId = /\(stream_id, stream_position\)=\((.*), (\d+)\)/.exec(pg.detail ?? '');
      return new WrongExpectedVersionError(streamId?.[1] ?? 'unknown', Number(streamId?.[2] ?? 0) - 1, null);
    }
    const mapped = this.options.constraintErrors?.[pg.constraint];
    return mapped ? mapped(pg.detail) : error;
  }
}
