// An app's outbox relay on a thread of its own (RelayThread starts it; the app's thread entry, e.g.
// apps/gateway/src/infrastructure/relay-thread.ts, calls runRelayThread): reading the outbox, encoding
// the produce requests and marking the rows takes ~12% of a gateway thread that answers the requests
// too (issue 11); here it runs beside them, on the machine's other core.
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '../../log';
import { loadInfrastructureConfig } from '../config';
import { createDataSource } from '../database';
import type { EventRegistry } from '../plugins';
import { startTracing, stopTracing } from '../tracing';
import { appPublisher, appRelay } from './app-relay';
import type { FromRelayThread, RelayThreadData, ToRelayThread } from './relay-thread-messages';

/**
 * Runs the relay of `app` in this thread, when it is one (RelayThread's): `registry` is the app's
 * `platformEventRegistry(areaEventPlugins())`, built here, since a thread is given data, not objects.
 */
export function runRelayThread(app: string, registry: () => EventRegistry): void {
  if (parentPort) void run(app, registry, parentPort);
}

async function run(app: string, registryOf: () => EventRegistry, port: NonNullable<typeof parentPort>): Promise<void> {
  const tell = (message: FromRelayThread) => port.postMessage(message);
  const log = createLogger(app);
  // Its publish spans continue the traces of the commits (their traceparent travels in the outbox rows).
  startTracing(app);
  const config = loadInfrastructureConfig();
  const { textsHolder, standIn } = workerData as RelayThreadData;
  const settings = { app, config, log, standIn };
  const registry = registryOf();
  // One connection: the relay's own session (relay-lease.ts) does its reads and marks; this one counts failures (and a stand-in's looks).
  const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 1, applicationName: `einvoice-${app}-outbox-relay` });
  const publisher = appPublisher(settings, registry);
  // The name the process's outbox rows give this relay while it leads (RelayThread.textsHandedTo).
  const relay = appRelay(settings, publisher, dataSource, (leads) => tell({ type: 'leads', leads }), textsHolder);

  const stop = async () => {
    await relay.stop();
    await publisher.disconnect().catch(() => undefined);
    if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
    await stopTracing();
    tell({ type: 'stopped' });
  };

  port.on('message', (message: ToRelayThread) => {
    // A commit's wake: gathered with the commits of the next few ms when the relay is idle.
    if (message.type === 'wake') void relay.wake(true);
    else if (message.type === 'texts') relay.keepTexts(message.texts);
    else if (message.type === 'stop') void stop();
  });
  try {
    await dataSource.initialize();
    // Kafka may be down: requests still succeed and the outbox drains when it returns.
    await publisher.connect().catch((error) => log('warn', 'kafka unavailable at start', { error: String(error) }));
    await relay.start();
  } catch (error) {
    tell({ type: 'failed', error: String((error as Error)?.stack ?? error) });
    return;
  }
  tell({ type: 'started' });
}
