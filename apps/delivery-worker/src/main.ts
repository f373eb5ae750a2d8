import 'reflect-metadata';
import { announceKafkajsPatches, runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { announceOfficialChecks } from '@einvoice/areas';
import { DeliveryWorkerModule, log } from './delivery-worker.module';
import { smlSettings } from './sml/sml-settings';

/**
 * Consumes submitted documents and delivers them over Peppol, and participant events, to drive
 * their SML state (DeliveryWorkerModule).
 */
startWorkerProcess('delivery-worker', log, async () => {
  // First: a configured but missing official artefact stops the start (conformance/runtime.ts).
  announceOfficialChecks(log);
  announceKafkajsPatches(log);
  // So does a real SML without its SMP certificate and ID, or with a certificate expired or not its key's.
  const sml = smlSettings();
  log('info', 'SML', sml.network === 'sandbox' ? { network: 'sandbox', smpId: sml.smpId } : { ...sml.summary });
  return runWorkerApp('delivery-worker', log, DeliveryWorkerModule, {
    topics: (topics) => [topics.documents, topics.participants],
    // Deliveries the consumer gave up on become visible failures (dead-lettered-delivery.ts).
    deadLetters: true,
  });
});
