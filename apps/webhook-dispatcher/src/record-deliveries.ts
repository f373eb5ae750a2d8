import type { Queue } from 'bullmq';
import {
  type DocumentReceivedData,
  type Logger,
  type RecordedEvent,
  type RetrySchedule,
  PEPPOL_RECEIVED_NAMES,
  documentReceivedBody,
} from '@einvoice/domain';
import {
  type EventHandler,
  type EventStore,
  type SubscribersQuestion,
  TickBatch,
  enqueueDeliveries,
  insertDeliveries,
  pooledSql,
  subscribersOfEach,
  transactionOnce,
} from '@einvoice/domain/infrastructure';
import { type AreaWebhook, type ReportedDocumentRow, type WebhookSource, type WebhookSourceContext, reportedDocumentRows } from '@einvoice/areas';
import type { FirstAttempts } from './first-attempts';

export interface RecordDependencies {
  readonly store: EventStore;
  readonly queue: Queue;
  /** Sends the new deliveries' first attempts (first-attempts.ts); without it, they are enqueued. */
  readonly firstAttempts?: Pick<FirstAttempts, 'dispatch'>;
  readonly groupId: string;
  readonly schedule: RetrySchedule;
  /** The areas' webhook sources by event type (`webhookSources()` of the area registry; they read before any transaction). */
  readonly sources: ReadonlyMap<string, WebhookSource>;
  /** What sources read their settings from (e.g. `MYINVOIS_PORTAL_URL`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
}

/**
 * Kafka side of the dispatcher: which subscriptions want the event's webhooks is read first, with no
 * transaction open, and an event no subscription wants ends there (most of them: MyInvois's bulk
 * validations of a supplier without webhooks cost one commit each before, issue 11). Otherwise, in
 * ONE transaction, mark the event processed and insert one delivery per matching subscription and
 * per webhook (an area's event may concern several documents: MyInvois); which events make webhooks
 * is the platform's `DocumentReceived` and what the areas declare (area registry `webhooks` and
 * `reportWebhooks`). After commit, each delivery's first attempt is sent (first-attempts.ts), or one
 * BullMQ job per delivery is added (jobId = delivery id). A crash between commit and either leaves
 * `pending` rows the sweeper enqueues. Nothing marks an unwanted event
 * processed: a redelivery looks again, and a delivery's id derives from (subscription, event), so
 * none is created twice.
 */
export function createDeliveryRecorder(deps: RecordDependencies): EventHandler {
  // Reads outside any transaction (the sources', the subscriptions'), by the pool itself.
  const { query: read } = pooledSql(deps.store.dataSource);
  // The handlers running at the same moment ask for their subscribers in one query (most events want none).
  const subscribers = new TickBatch<SubscribersQuestion, string[]>((questions) => subscribersOfEach({ read }, questions));
  // And the rows of the reported documents their report events are about (a MyInvois bulk's validations come by the hundred).
  const documents = new TickBatch<string, ReportedDocumentRow | undefined>((ids) => reportedDocumentRows(read, ids));
  const context: WebhookSourceContext = { query: read, env: deps.env ?? process.env, reportedDocument: (id) => documents.ask(id) };
  return async (event) => {
    const webhooks = await webhooksOf(event, deps.sources, context);
    if (!webhooks) return;
    const wanted: Array<{ readonly webhook: AreaWebhook; readonly subscriptions: string[] }> = [];
    for (const webhook of webhooks) {
      const subscriptions = await subscribers.ask({ supplierId: webhook.supplierId, names: [webhook.name, ...(webhook.synonyms ?? [])] });
      if (subscriptions.length) wanted.push({ webhook, subscriptions });
    }
    if (!wanted.length) return;
    // The deliveries and the processed mark: one statement (UnitOfWork), or nothing.
    const recorded = await transactionOnce(deps.store, deps.groupId, event.eventId, async (uow) => {
      const ids: string[] = [];
      for (const { webhook, subscriptions } of wanted) ids.push(...(await insertDeliveries(uow, subscriptions, webhook.webhookId, webhook.name, webhook.body)));
      return ids;
    });
    // Handled before (a redelivery): its deliveries exist and were enqueued, or the sweeper enqueues them.
    if (!recorded) return;
    const created = recorded.value;
    const dispatched = deps.firstAttempts ? deps.firstAttempts.dispatch(created) : enqueueDeliveries(deps.queue, created, deps.schedule);
    await dispatched.catch((error) =>
      // Not rethrown: the rows are committed and the sweeper enqueues them once Redis is back.
      deps.log('warn', 'webhook enqueue failed; the sweeper will retry', { error: String(error), deliveries: created.length }),
    );
  };
}

/** The webhooks `event` makes (their subscribers not looked up yet); `undefined`: none of its type. */
async function webhooksOf(event: RecordedEvent, sources: RecordDependencies['sources'], context: WebhookSourceContext): Promise<readonly AreaWebhook[] | undefined> {
  if (event.type === 'DocumentReceived') {
    const data = event.data as DocumentReceivedData;
    const [name, ...synonyms] = PEPPOL_RECEIVED_NAMES;
    return [{ supplierId: data.supplierId, webhookId: event.eventId, name, body: documentReceivedBody(data), synonyms }];
  }
  const source = sources.get(event.type);
  if (!source) return undefined;
  return source(event, context);
}
