import { DEFAULT_MAX_MESSAGE_BYTES } from './kafka/message-size';

/**
 * Connection settings, read once from the environment. Defaults match the local stack that
 * `npm start` brings up on this machine (README "Configuration").
 */
export interface InfrastructureConfig {
  /** PostgreSQL connection string (event store, outbox, read models). */
  readonly databaseUrl: string;
  /** The event store keeps its statements prepared per connection (eventstore/prepared-statements.ts). */
  readonly databasePreparedStatements: boolean;
  /** Units of work of writes only that commit at the same moment share one statement (eventstore/commit-groups.ts). */
  readonly databaseGroupCommit: boolean;
  /** Redis connection string (BullMQ). */
  readonly redisUrl: string;
  /** Kafka bootstrap servers. */
  readonly kafkaBrokers: readonly string[];
  /** Prefix of every topic and consumer group, so that several stacks can share one broker. */
  readonly kafkaPrefix: string;
  /** Kafka client id reported to the broker. */
  readonly kafkaClientId: string;
  /** Consumer session timeout: how long a crashed worker holds its partitions before the group moves on. */
  readonly kafkaSessionTimeoutMs: number;
  readonly kafkaHeartbeatIntervalMs: number;
  /** Partitions a worker handles at once (each in its own transaction). */
  readonly kafkaPartitionsConcurrency: number;
  /** Messages a worker's consumer handles at once over its partitions, different streams of one partition included (consumer.ts). */
  readonly kafkaHandlerConcurrency: number;
  /** Topic `max.message.bytes` the `topics` command sets (kafka/message-size.ts). */
  readonly kafkaMaxMessageBytes: number;
  /**
   * Where the app's outbox relay runs (outbox-publishing/): `thread` (default; a worker thread of its own
   * where the app has a compiled thread entry, the gateway's, else in-process), `in-process` (on the thread
   * that does the app's work), `off` (the app does not relay: the others do).
   */
  readonly outboxRelay: 'thread' | 'in-process' | 'off';
}

export function loadInfrastructureConfig(env: NodeJS.ProcessEnv = process.env): InfrastructureConfig {
  return {
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice',
    databasePreparedStatements: env.DATABASE_PREPARED_STATEMENTS !== 'off',
    databaseGroupCommit: env.DATABASE_GROUP_COMMIT !== 'off',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    kafkaBrokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',').map((b) => b.trim()).filter(Boolean),
    kafkaPrefix: env.KAFKA_TOPIC_PREFIX ?? 'einvoice',
    kafkaClientId: env.KAFKA_CLIENT_ID ?? 'einvoice-gateway',
    // Short: heartbeats go on while a handler works (consumer.ts), so the session only detects a
    // dead worker, whose partitions then move within ~4 s (#9). Brokers must allow it:
    // group.min.session.timeout.ms ≤ 4000 (ours: 1000, scripts/lib/kafka.mjs; Kafka's default is 6000).
    kafkaSessionTimeoutMs: Number(env.KAFKA_SESSION_TIMEOUT_MS || 4_000),
    kafkaHeartbeatIntervalMs: Number(env.KAFKA_HEARTBEAT_INTERVAL_MS || 1_000),
    // As many as a topic has partitions (6): a worker's handlers wait on PostgreSQL and the network
    // far more than they compute, so one partition at a time per worker left it idle (issue 11).
    kafkaPartitionsConcurrency: Number(env.KAFKA_PARTITIONS_CONCURRENCY ?? 6),
    // Streams of one partition need not wait for each other (issue 11): 16 at once; the delivery
    // worker sets 32 for itself. Its pool does not grow past 16 handlers' connections (runtime.ts
    // workerPoolSize): three workers and a gateway stay at 90 of PostgreSQL's default 100.
    kafkaHandlerConcurrency: Number(env.KAFKA_HANDLER_CONCURRENCY ?? 16),
    kafkaMaxMessageBytes: Number(env.KAFKA_MAX_MESSAGE_BYTES ?? DEFAULT_MAX_MESSAGE_BYTES),
    outboxRelay: outboxRelayOf(env.OUTBOX_RELAY),
  };
}

/** `OUTBOX_RELAY`: `off`, `in-process`, else (`on`, `thread`, unset) the default, a thread where the app has one. */
function outboxRelayOf(value: string | undefined): InfrastructureConfig['outboxRelay'] {
  return value === 'off' || value === 'in-process' ? value : 'thread';
}
