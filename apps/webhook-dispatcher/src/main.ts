import 'reflect-metadata';
import { runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { WebhookDispatcherModule } from './webhook-dispatcher.module';
import { log } from './webhook-dispatcher.providers';

/** The webhook dispatcher (WebhookDispatcherModule): records deliveries from Kafka, sends them from BullMQ. */
startWorkerProcess('webhook-dispatcher', log, () => runWorkerApp('webhook-dispatcher', log, WebhookDispatcherModule));
