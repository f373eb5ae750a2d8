import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { InfrastructureConfig, loadInfrastructureConfig } from './config';
import { createDataSource } from './database';
import { EventStore } from './eventstore';
import { Closeable, EventConsumer, EventHandler, TopicNames, createKafka, installShutdown, topicNames } from './kafka';
import type { Logger } from '../log';
import type { EventRegistry } from './plugins';

/** What every worker holds: the store it appends to and the broker it consumes from. */
export interface WorkerRuntime {
  readonly config: InfrastructureConfig;
  readonly dataSource: DataSource;
  readonly store: EventStore;
  readonly kafka: Kafka;
  /** The worker's consumer group, `${prefix}.${app}`: explicit, never renamed. */
  readonly groupId: string;
}

/** Opens a worker's connections; `registry` is the app's `platformEventRegistry(areaEventPlugins())`. */
export async function openWorkerRuntime(app: string, registry: EventRegistry, env: NodeJS.ProcessEnv = process.env): Promise<WorkerRuntime> {
  const config = loadInfrastructureConfig(env);
  // A handler may hold two connections at once (its transaction and a submission lock or the
  // MyInvois sandbox's own statements), partitions run concurrently, and a periodic job holds
  // its lock and a transaction: 2 per partition + 5. pg opens connections only as needed.
  const poolSize = 2 * config.kafkaPartitionsConcurrency + 5;
  const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize, applicationName: `einvoice-${app}` });
  await dataSource.initialize();
  const store = new EventStore(dataSource, {
    topicFor: (streamId) => registry.topicFor(config.kafkaPrefix, streamId),
    projector: registry.projector,
    constraintErrors: registry.constraintErrors,
  });
  const kafka = createKafka({ ...config, kafkaClientId: `einvoice-${app}` });
  return { config, dataSource, store, kafka, groupId: `${config.kafkaPrefix}.${app}` };
}

/** What a worker plugs into `runWorker`: its handler, and what it owns besides the consumer. */
export interface WorkerParts {
  readonly handle: EventHandler;
  /** Stopped before the consumer on SIGTERM (e.g. a queue worker finishing its active job). */
  readonly stopFirst?: readonly Closeable[];
  /** Stopped after the consumer, before the database pool. */
  readonly stopAfter?: readonly Closeable[];
  /** Runs once the consumer is consuming. */
  readonly started?: () => void;
}

/**
 * Runs a worker: opens its runtime, consumes the given topics with its handler under its own
 * group, and shuts down cleanly on SIGTERM/SIGINT (in-flight message finished, offsets committed).
 */
export async function runWorker(
  app: string,
  log: Logger,
  registry: EventRegistry,
  setup: (runtime: WorkerRuntime) => EventHandler | WorkerParts,
  topicsOf: (topics: TopicNames) => string[] = (topics) => [topics.documents],
): Promise<WorkerRuntime> {
  const runtime = await openWorkerRuntime(app, registry);
  const topics = topicNames(runtime.config.kafkaPrefix);
  const made = setup(runtime);
  const parts: WorkerParts = typeof made === 'function' ? { handle: made } : made;
  const consumer = new EventConsumer({
    kafka: runtime.kafka,
    groupId: runtime.groupId,
    topics: topicsOf(topics),
    deadLetterTopic: topics.deadLetter,
    sessionTimeout: runtime.config.kafkaSessionTimeoutMs,
    heartbeatInterval: runtime.config.kafkaHeartbeatIntervalMs,
    partitionsConsumedConcurrently: runtime.config.kafkaPartitionsConcurrency,
    handle: parts.handle,
  });
  installShutdown([
    ...(parts.stopFirst ?? []),
    consumer,
    ...(parts.stopAfter ?? []),
    { stop: () => runtime.dataSource.destroy() },
  ]);
  await consumer.start();
  parts.started?.();
  log('info', `${app} consuming`, { group: runtime.groupId, topics: topicsOf(topics) });
  return runtime;
}

/** The `main` of a worker process: run it, or log why it could not start and exit 1. */
export function startWorkerProcess(app: string, log: Logger, start: () => Promise<unknown>): void {
  start().catch((error) => {
    log('error', `${app} failed`, { error: String(error?.stack ?? error) });
    process.exit(1);
  });
}
