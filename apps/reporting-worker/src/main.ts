import { createLogger } from '@einvoice/domain';
import { EventConsumer, installShutdown, openWorkerRuntime, topicNames } from '@einvoice/domain/infrastructure';
import { createReportingHandler } from './report-document';

const log = createLogger('reporting-worker');

/** Consumes submitted documents and reports those whose area has a tax authority to report to. */
async function main(): Promise<void> {
  const runtime = await openWorkerRuntime('reporting-worker');
  const topics = topicNames(runtime.config.kafkaPrefix);
  const consumer = new EventConsumer({
    kafka: runtime.kafka,
    groupId: runtime.groupId,
    topics: [topics.documents],
    deadLetterTopic: topics.deadLetter,
    handle: createReportingHandler(log),
  });
  installShutdown([consumer, { stop: () => runtime.dataSource.destroy() }]);
  await consumer.start();
  log('info', 'reporting-worker consuming', { group: runtime.groupId, topic: topics.documents });
}

main().catch((error) => {
  log('error', 'reporting-worker failed', { error: String(error?.stack ?? error) });
  process.exit(1);
});
