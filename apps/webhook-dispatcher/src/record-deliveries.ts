import type { Queue } from 'bullmq';
import {
  type DocumentReceivedData,
  type Logger,
  type RecordedEvent,
  type RetrySchedule,
  PEPPOL_RECEIVED_NAMES,
  documentReceivedBody,
} from '@einvoice/domain';
import { type EventHandler, type EventStore, type UnitOfWork, createDeliveries, enqueueDeliveries, isAlreadyProcessed } from '@einvoice/domain/infrastructure';
import type { WebhookSource } from '@einvoice/areas';

export interface RecordDependencies {
  readonly store: EventStore;
  readonly queue: Queue;
  readonly groupId: string;
  readonly schedule: RetrySchedule;
  /** The areas' webhook sources by event type (`webhookSources()` of the area registry; they read in the transaction below). */
  readonly sources: ReadonlyMap<string, WebhookSource>;
  /** What sources read their settings from (e.g. `MYINVOIS_PORTAL_URL`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
}

/**
 * Kafka side of the dispatcher: in ONE transaction, mark the event processed and insert one
 * delivery per matching subscription and per webhook (an area's event may concern several
 * documents: MyInvois); which events make webhooks is the platform's `DocumentReceived` and what the
 * areas declare (area registry `webhooks` and `reportWebhooks`). After
 * commit, one BullMQ job per delivery (jobId = delivery id). A crash between commit and enqueue
 * leaves `pending` rows the sweeper enqueues.
 */
export function createDeliveryRecorder(deps: RecordDependencies): EventHandler {
  return async (event) => {
    const record = recorderOf(event, deps);
    if (!record) return;
    let created: string[];
    try {
      // The deliveries and the processed mark: one statement (UnitOfWork), or nothing.
      created = await deps.store.transaction(async (uow) => {
        const ids = await record(uow);
        await uow.recordProcessed(deps.groupId, event.eventId);
        return ids;
      });
    } catch (error) {
      // Handled before (a redelivery): its deliveries exist and were enqueued, or the sweeper enqueues them.
      if (isAlreadyProcessed(error)) return;
      throw error;
    }
    if (created.length === 0) return;
    await enqueueDeliveries(deps.queue, created, deps.schedule).catch((error) =>
      // Not rethrown: the rows are committed and the sweeper enqueues them once Redis is back.
      deps.log('warn', 'webhook enqueue failed; the sweeper will retry', { error: String(error), deliveries: created.length }),
    );
  };
}

/** What to insert for `event` inside the processed-mark transaction; `undefined`: no webhook. */
function recorderOf(event: RecordedEvent, deps: RecordDependencies): ((uow: UnitOfWork) => Promise<string[]>) | undefined {
  if (event.type === 'DocumentReceived') {
    const data = event.data as DocumentReceivedData;
    const [name, ...synonyms] = PEPPOL_RECEIVED_NAMES;
    return (uow) => createDeliveries(uow, data.supplierId, event.eventId, name, documentReceivedBody(data), synonyms);
  }
  const source = deps.sources.get(event.type);
  if (!source) return undefined;
  return async (uow) => {
    const created: string[] = [];
    for (const webhook of await source(event, { query: (sql, params) => uow.read(sql, params), env: deps.env ?? process.env })) {
      created.push(...(await createDeliveries(uow, webhook.supplierId, webhook.webhookId, webhook.name, webhook.body, webhook.synonyms)));
    }
    return created;
  };
}
