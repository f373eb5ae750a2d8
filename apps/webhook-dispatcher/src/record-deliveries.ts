import type { Queue } from 'bullmq';
import {
  type DocumentReceivedData,
  type Logger,
  type MyInvoisDocumentFacts,
  type MyInvoisEventScope,
  type RecordedEvent,
  type RetrySchedule,
  PEPPOL_RECEIVED_NAMES,
  documentReceivedBody,
  myInvoisWebhookScope,
  myInvoisWebhooks,
} from '@einvoice/domain';
import { type EventHandler, type EventStore, type UnitOfWork, createDeliveries, enqueueDeliveries } from '@einvoice/domain/infrastructure';

export interface RecordDependencies {
  readonly store: EventStore;
  readonly queue: Queue;
  readonly groupId: string;
  readonly schedule: RetrySchedule;
  /** MyInvois portal of the validation links (`MYINVOIS_PORTAL_URL`). */
  readonly myInvoisPortalUrl: string;
  readonly log: Logger;
}

/**
 * Kafka side of the dispatcher: in ONE transaction, mark the event processed and insert one
 * delivery per matching subscription (per document, for a MyInvois event about several); after
 * commit, one BullMQ job per delivery (jobId = delivery id). A crash between commit and enqueue
 * leaves `pending` rows the sweeper enqueues.
 */
export function createDeliveryRecorder(deps: RecordDependencies): EventHandler {
  return async (event) => {
    const record = recorderOf(event, deps.myInvoisPortalUrl);
    if (!record) return;
    const created = await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return [];
      return record(uow);
    });
    if (created.length === 0) return;
    await enqueueDeliveries(deps.queue, created, deps.schedule).catch((error) =>
      // Not rethrown: the rows are committed and the sweeper enqueues them once Redis is back.
      deps.log('warn', 'webhook enqueue failed; the sweeper will retry', { error: String(error), deliveries: created.length }),
    );
  };
}

/** What to insert for `event` inside the processed-mark transaction; `undefined`: no webhook. */
function recorderOf(event: RecordedEvent, portalUrl: string): ((uow: UnitOfWork) => Promise<string[]>) | undefined {
  if (event.type === 'DocumentReceived') {
    const data = event.data as DocumentReceivedData;
    const [name, ...synonyms] = PEPPOL_RECEIVED_NAMES;
    return (uow) => createDeliveries(uow, data.supplierId, event.eventId, name, documentReceivedBody(data), synonyms);
  }
  const scope = myInvoisWebhookScope(event);
  if (!scope) return undefined;
  return async (uow) => {
    const created: string[] = [];
    for (const webhook of myInvoisWebhooks(event, await documentFacts(uow, scope), portalUrl)) {
      created.push(...(await createDeliveries(uow, webhook.supplierId, webhook.webhookId, webhook.name, webhook.body)));
    }
    return created;
  };
}

/**
 * The documents' supplier, `ID`, uuid and longId from the `myinvois_documents` read model: written in
 * the transaction that appended the event, so present whenever the event is. Only fields that never
 * change once set are read; the state comes from the event (the row may be further along).
 */
async function documentFacts(uow: UnitOfWork, scope: MyInvoisEventScope): Promise<MyInvoisDocumentFacts[]> {
  return uow.query(
    `SELECT id AS "documentId", supplier_id AS "supplierId", invoice_code_number AS "invoiceCodeNumber", uuid, long_id AS "longId"
     FROM myinvois_documents WHERE submission_id = $1 AND ($2::uuid[] IS NULL OR id = ANY ($2::uuid[])) ORDER BY id`,
    [scope.submissionId, scope.documentIds],
  );
}
