import 'reflect-metadata';
import { announceKafkajsPatches, runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { announceOfficialChecks } from '@einvoice/areas';
import { DeliveryWorkerModule, log } from './delivery-worker.module';

/**
 * Consumes submitted documents and delivers them over Peppol, and participant events, to drive
 * their SML state (DeliveryWorkerModule).
 */
startWorkerProcess('delivery-worker', log, async () => {
  // First: a configured but missing official artefact stops the start (conformance/runtime.ts).
  announceOfficialChecks(log);
  announceKafkajsPatches(log);
  return runWorkerApp('delivery-worker', log, DeliveryWorkerModule, {
    topics: (topics) => [topics.documents, topics.participants],
    // Deliveries the consumer gave up on become visible failures (dead-lettered-delivery.ts).
    deadLetters: true,
  });
});
