// The gateway's outbox relay on a thread of its own (relay-on-thread.ts starts it): reading the
// outbox, encoding the produce requests and marking the rows takes ~12% of a thread that answers
// the requests too (issue 11); here it runs beside them, on the machine's other core.
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import { createLogger } from '@einvoice/domain';
import { createDataSource, platformEventRegistry, startTracing, stopTracing } from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';
import { loadGatewayConfig } from '../config';
import { gatewayPublisher, gatewayRelay } from './gateway-relay';
import type { FromRelayThread, RelayThreadData, ToRelayThread } from './relay-thread-messages';

const log = createLogger('gateway');

async function run(port: NonNullable<typeof parentPort>): Promise<void> {
  const tell = (message: FromRelayThread) => port.postMessage(message);
  // Its publish spans continue the requests' traces (their traceparent travels in the outbox rows).
  startTracing('gateway');
  const config = loadGatewayConfig();
  const registry = platformEventRegistry(areaEventPlugins());
  // One connection: the relay's own session (relay-lease.ts) does its reads and marks; this one counts failures.
  const dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 1, applicationName: 'einvoice-outbox-relay' });
  const publisher = gatewayPublisher(config, registry);
  // The name the process's outbox rows give this relay while it leads (RelayThread.textsHandedTo).
  const { textsHolder } = workerData as RelayThreadData;
  const relay = gatewayRelay(config, publisher, dataSource, (leads) => tell({ type: 'leads', leads }), textsHolder);

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

if (parentPort) void run(parentPort);
