import 'reflect-metadata';
import { runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';
import { log } from './webhook-dispatcher.providers';

/**
 * The webhook dispatcher (WebhookDispatcherModule): records deliveries from Kafka (documents received, and
 * the areas' webhooks of their documents and of their reports), sends them from BullMQ.
 */
startWorkerProcess('webhook-dispatcher', log, () =>
  runWorkerApp('webhook-dispatcher', log, WebhookDispatcherModule, { topics: (topics) => [topics.documents, topics.reports] }),
);
