import { createLogger } from '@einvoice/domain';
import { runWorker, startWorkerProcess } from '@einvoice/domain/infrastructure';

const log = createLogger('webhook-dispatcher');

/**
 * Consumes DocumentReceived. Subscriptions, signing and BullMQ retries are built with the
 * webhook issue (#3); until then a received document is only logged here.
 */
startWorkerProcess('webhook-dispatcher', log, () =>
  runWorker('webhook-dispatcher', log, () => async (event) => {
    if (event.type === 'DocumentReceived') log('info', 'document received', { streamId: event.streamId });
  }),
);
