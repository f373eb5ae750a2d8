import type { Queue } from 'bullmq';
import { type DocumentReceivedData, type Logger, type RetrySchedule, documentReceivedBody } from '@einvoice/domain';
import { type EventHandler, type EventStore, createDeliveries, enqueueDeliveries } from '@einvoice/domain/infrastructure';

export interface RecordDependencies {
  readonly store: EventStore;
  readonly queue: Queue;
  readonly groupId: string;
  readonly schedule: RetrySchedule;
  readonly log: Logger;
}

/**
 * Kafka side of the dispatcher: in ONE transaction, mark the event processed and insert one
 * delivery per matching subscription; after commit, one BullMQ job per delivery (jobId =
 * delivery id). A crash between commit and enqueue leaves `pending` rows the sweeper enqueues.
 */
export function createDeliveryRecorder(deps: RecordDependencies): EventHandler {
  return async (event) => {
    if (event.type !== 'DocumentReceived') return;
    const data = event.data as DocumentReceivedData;
    const created = await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return [];
      return createDeliveries(uow, data.supplierId, event.eventId, 'DocumentReceived', documentReceivedBody(data));
    });
    if (created.length === 0) return;
    await enqueueDeliveries(deps.queue, created, deps.schedule).catch((error) =>
      // Not rethrown: the rows are committed and the sweeper enqueues them once Redis is back.
      deps.log('warn', 'webhook enqueue failed; the sweeper will retry', { error: String(error), deliveries: created.length }),
    );
  };
}
