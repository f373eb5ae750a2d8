import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { InfrastructureConfig, loadInfrastructureConfig } from './config';
import { createDataSource } from './database';
import { EventStore } from './eventstore';
import { createKafka } from './kafka';
import { serveMetrics, startMetrics } from './metrics';
import { startTracing } from './tracing';
import type { Logger } from '../log';
import { type EventRegistry, eventStoreOptions } from './plugins';

/** What every worker holds: the store it appends to and the broker it consumes from. */
export interface WorkerRuntime {
  readonly config: InfrastructureConfig;
  readonly dataSource: DataSource;
  readonly store: EventStore;
  readonly kafka: Kafka;
  /** The worker's consumer group, `${prefix}.${app}`: explicit, never renamed. */
  readonly groupId: string;
  /** Its event types: consumed events are upcast with it as stream reads are. */
  readonly registry: EventRegistry;
}

/**
 * Opens a worker's runtime; `WorkerRuntimeModule` provides it and closes its pool on shutdown.
 * `registry` is the app's `platformEventRegistry(areaEventPlugins())`.
 */
export async function openWorkerRuntime(app: string, registry: EventRegistry, env: NodeJS.ProcessEnv = process.env): Promise<WorkerRuntime> {
  const config = loadInfrastructureConfig(env);
  // A handler uses one connection at a time (its transaction, or the MyInvois sandbox's statements
  // during a call); the consumer runs up to KAFKA_HANDLER_CONCURRENCY of them and the dead-letter
  // group one more; every advisory lock of the process is held on one more connection
  // (jobs/advisory-lock.ts); periodic jobs get 5. pg opens connections only as needed.
  const poolSize = config.kafkaHandlerConcurrency + 1 + 1 + 5;
  const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize, applicationName: `einvoice-${app}` });
  await dataSource.initialize();
  const store = new EventStore(dataSource, eventStoreOptions(registry, config.kafkaPrefix));
  const kafka = createKafka({ ...config, kafkaClientId: `einvoice-${app}` });
  return { config, dataSource, store, kafka, groupId: `${config.kafkaPrefix}.${app}`, registry };
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
