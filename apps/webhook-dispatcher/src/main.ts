import { createLogger } from '@einvoice/domain';
import { EventConsumer, installShutdown, openWorkerRuntime, topicNames } from '@einvoice/domain/infrastructure';

const log = createLogger('webhook-dispatcher');

/**
 * Consumes DocumentReceived. Subscriptions, signing and BullMQ retries are built with the
 * webhook issue (#3); until then a received document is only logged here.
 */
async function main(): Promise<void> {
  const runtime = await openWorkerRuntime('webhook-dispatcher');
  const topics = topicNames(runtime.config.kafkaPrefix);
  const consumer = new EventConsumer({
    kafka: runtime.kafka,
    groupId: runtime.groupId,
    topics: [topics.documents],
    deadLetterTopic: topics.deadLetter,
    handle: async (event) => {
      if (event.type === 'DocumentReceived') log('info', 'document received', { streamId: event.streamId });
    },
  });
  installShutdown([consumer, { stop: () => runtime.dataSource.destroy() }]);
  await consumer.start();
  log('info', 'webhook-dispatcher consuming', { group: runtime.groupId, topic: topics.documents });
}

main().catch((error) => {
  log('error', 'webhook-dispatcher failed', { error: String(error?.stack ?? error) });
  process.exit(1);
});
