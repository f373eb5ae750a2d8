import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { InfrastructureConfig, loadInfrastructureConfig } from './config';
import { createDataSource } from './database';
import { EventStore } from './eventstore';
import { createKafka } from './kafka';
import { serveMetrics, startMetrics } from './metrics';
import { startTracing } from './tracing';
import { createLogger, type Logger } from '../log';
import { OutboxPublishing } from './outbox-publishing';
import { type EventRegistry, eventStoreOptions } from './plugins';

/** What every worker holds: the store it appends to, the relay that publishes it, and the broker it consumes from. */
export interface WorkerRuntime {
  readonly config: InfrastructureConfig;
  readonly dataSource: DataSource;
  readonly store: EventStore;
  /**
   * The worker's outbox relay (started and stopped by WorkerRuntimeModule): a stand-in that publishes
   * the stack's outbox while no gateway's relay runs, on the worker's own thread.
   */
  readonly publishing: OutboxPublishing;
  readonly kafka: Kafka;
  /** The worker's consumer group, `${prefix}.${app}`: explicit, never renamed. */
  readonly groupId: string;
  /** Its event types: consumed events are upcast with it as stream reads are. */
  readonly registry: EventRegistry;
}

/** What a worker sets for itself where the environment says nothing. */
export interface WorkerDefaults {
  /**
   * Its KAFKA_HANDLER_CONCURRENCY (default: the platform's, 16). A worker whose handlers mostly wait
   * (on a transmission, on their commits) needs more of them at once to keep pace with the gateway.
   */
  readonly handlerConcurrency?: number;
}

/** A worker's settings: the environment's, else the worker's own defaults, else the platform's. */
export function workerConfig(env: NodeJS.ProcessEnv, defaults: WorkerDefaults = {}): InfrastructureConfig {
  const config = loadInfrastructureConfig(env);
  if (env.KAFKA_HANDLER_CONCURRENCY !== undefined || defaults.handlerConcurrency === undefined) return config;
  return { ...config, kafkaHandlerConcurrency: defaults.handlerConcurrency };
}

/**
 * Handlers' connections at most: a handler holds one only while a statement of it runs or its
 * transaction is open (UnitSession), never while it waits on a call (none is made inside a
 * transaction), so past this many, handlers wait for a statement's turn, not for each other's calls.
 */
const HANDLER_CONNECTIONS = 16;

/**
 * A worker's pool: its handlers' connections (at most HANDLER_CONNECTIONS, however many handlers
 * run), one for the dead-letter group's handler, one on which every advisory lock of the process is
 * held (jobs/advisory-lock.ts), 5 for periodic jobs (and its relay's look for a gateway's, once a
 * poll). pg opens connections only as needed; three workers (23 each, and their relays' LISTEN
 * connection) and the gateway (20 and its relay's session) stay at 93, under PostgreSQL's default
 * max_connections of 100 (a worker's relay opens a session of its own only while no gateway's runs).
 */
export function workerPoolSize(config: Pick<InfrastructureConfig, 'kafkaHandlerConcurrency'>): number {
  return Math.min(config.kafkaHandlerConcurrency, HANDLER_CONNECTIONS) + 1 + 1 + 5;
}

/**
 * Opens a worker's runtime; `WorkerRuntimeModule` provides it and closes its pool on shutdown.
 * `registry` is the app's `platformEventRegistry(areaEventPlugins())`.
 */
export async function openWorkerRuntime(app: string, registry: EventRegistry, env: NodeJS.ProcessEnv = process.env, defaults: WorkerDefaults = {}): Promise<WorkerRuntime> {
  const config = workerConfig(env, defaults);
  const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: workerPoolSize(config), applicationName: `einvoice-${app}` });
  await dataSource.initialize();
  // On the worker's thread: it publishes only while no gateway runs, the worker's own few events then (docs/architecture.md).
  const publishing = new OutboxPublishing({ app, config, registry, dataSource, log: createLogger(app), standIn: true });
  const store = new EventStore(dataSource, { ...eventStoreOptions(registry, config.kafkaPrefix), wakeRelay: publishing.wakeRelay });
  const kafka = createKafka({ ...config, kafkaClientId: `einvoice-${app}` });
  return { config, dataSource, store, publishing, kafka, groupId: `${config.kafkaPrefix}.${app}`, registry };
}

/** The `main` of a worker process: its metrics (on METRICS_PORT when set), then run it, or log why it could not start and exit 1. */
export function startWorkerProcess(app: string, log: Logger, start: () => Promise<unknown>): void {
  startMetrics(app);
  startTracing(app);
  const port = Number(process.env.METRICS_PORT ?? 0);
  if (port) {
    serveMetrics(port).then(
      () => log('info', 'metrics served', { url: `http://0.0.0.0:${port}/metrics` }),
      (error: Error) => log('warn', 'metrics not served', { port, error: error.message }),
    );
  }
  start().catch((error) => {
    log('error', `${app} failed`, { error: String(error?.stack ?? error) });
    process.exit(1);
  });
}
