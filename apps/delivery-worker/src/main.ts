import { createLogger } from '@einvoice/domain';
import { EventConsumer, installShutdown, openWorkerRuntime, topicNames } from '@einvoice/domain/infrastructure';
import { SandboxAccessPoint } from './access-point/sandbox-access-point';
import { createDeliveryHandler } from './deliver-document';

const log = createLogger('delivery-worker');

/** Consumes submitted documents and delivers them over Peppol (sandbox access point by default). */
async function main(): Promise<void> {
  const runtime = await openWorkerRuntime('delivery-worker');
  const topics = topicNames(runtime.config.kafkaPrefix);
  const accessPoint = new SandboxAccessPoint(runtime.dataSource, Number(process.env.SANDBOX_AP_LATENCY_MS ?? 0));
  const consumer = new EventConsumer({
    kafka: runtime.kafka,
    groupId: runtime.groupId,
    topics: [topics.documents],
    deadLetterTopic: topics.deadLetter,
    handle: createDeliveryHandler({ store: runtime.store, accessPoint, groupId: runtime.groupId, log }),
  });
  installShutdown([consumer, { stop: () => runtime.dataSource.destroy() }]);
  await consumer.start();
  log('info', 'delivery-worker consuming', { group: runtime.groupId, topic: topics.documents });
}

main().catch((error) => {
  log('error', 'delivery-worker failed', { error: String(error?.stack ?? error) });
  process.exit(1);
});
