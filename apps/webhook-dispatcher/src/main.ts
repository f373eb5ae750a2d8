import 'reflect-metadata';
import { announceOfficialChecks, anyAreaOwnWebhooks } from '@einvoice/areas';
import { announceKafkajsPatches, runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';
import { log } from './webhook-dispatcher.providers';

/**
 * The webhook dispatcher (WebhookDispatcherModule): records deliveries from Kafka (documents received, and
 * the areas' webhooks of their documents and of their reports), sends them from BullMQ. It reads the topic of
 * DocumentReceived and that of the reports, not every document's events (issue 11), unless an area makes
 * webhooks of its own events.
 */
startWorkerProcess('webhook-dispatcher', log, async () => {
  // First: a configured but missing official artefact stops the start (conformance/runtime.ts).
  announceOfficialChecks(log);
  announceKafkajsPatches(log);
  return runWorkerApp('webhook-dispatcher', log, WebhookDispatcherModule, {
    topics: (topics) => [topics.received, topics.reports, ...(anyAreaOwnWebhooks() ? [topics.documents] : [])],
  });
});
