// The dispatcher's Kafka side on real PostgreSQL and Redis: which deliveries a MyInvois event
// records (one per subscription wanting it and per document), in the processed-mark transaction.
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { type RecordedEvent, createLogger, deterministicUuid } from '@einvoice/domain';
import { myInvoisSubmissionDecider } from '@einvoice/areas';
import { type EventHandler, type EventStore, createWebhookQueue, handleCommand, insertSubscription, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../test/support/database';
import { freshTin } from '../../../test/support/myinvois';
import { appendMyInvoisSubmission, sandboxWorker, storeMyInvoisSupplier, workerContext as context } from '../../../test/support/myinvois-worker';
import { webhookSources } from '@einvoice/areas';
import { createDeliveryRecorder } from './record-deliveries';

const portal = 'https://preprod.myinvois.hasil.gov.my';

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  payload: string;
}

describe('webhook dispatcher: deliveries of MyInvois lifecycle events (real PostgreSQL and Redis)', () => {
  const { redisUrl, kafkaPrefix } = loadInfrastructureConfig();
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  let store: EventStore;
  let queue: Queue;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    // A fresh queue (STYLE.md): the jobs are inspected, never run.
    queue = createWebhookQueue(redisUrl, `${kafkaPrefix}.webhooks-record-${randomUUID().slice(0, 8)}`);
  });

  afterAll(async () => {
    await queue?.obliterate({ force: true });
    await queue?.close();
    await dataSource?.destroy();
  });

  const recorder = (groupId = `dispatcher-${randomUUID()}`): EventHandler =>
    createDeliveryRecorder({ store, queue, groupId, schedule: { attempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000, jitter: 0 }, sources: webhookSources(), env: { MYINVOIS_PORTAL_URL: portal }, log: createLogger('test', 'error') });

  async function subscribe(supplierId: string, events: string[]): Promise<string> {
    const id = randomUUID();
    await insertSubscription(dataSource, { id, tenantId: randomUUID(), supplierId, area: 'my', url: 'https://erp.example.com/hooks', events, secretSealed: 'x', description: null });
    return id;
  }

  const deliveriesOf = (subscriptionId: string): Promise<DeliveryRow[]> =>
    dataSource.query(`SELECT id, event_id, event_type, status, payload FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY event_type, event_id`, [subscriptionId]);
  const historyOf = (streamId: string) => store.transaction((uow) => uow.readStream(streamId)) as Promise<RecordedEvent[]>;
  const feed = async (handler: EventHandler, events: RecordedEvent[]) => {
    for (const event of events) await handler(event, context);
  };

  it('a bulk with one valid and one INVALID document: one delivery per document to the subscription wanting both, none to the others; a redelivery records nothing again', async () => {
    const seller = await storeMyInvoisSupplier(dataSource, freshTin());
    const wantsBoth = await subscribe(seller.supplierId, ['MyInvoisValid', 'MyInvoisInvalid']);
    const wantsRejected = await subscribe(seller.supplierId, ['MyInvoisRejected']);
    const otherSupplier = await subscribe(randomUUID(), ['MyInvoisValid', 'MyInvoisInvalid']);

    // The reporting worker against its sandbox: submit, first poll (Submitted), second poll (Valid / Invalid).
    const { data, event: submitted, streamId } = await appendMyInvoisSubmission(store, seller, [`OK-${run}`, `X-INVALID-${run}`]);
    const { handler: worker, poll } = sandboxWorker(store);
    await worker(submitted, context);
    await poll(data.submissionId);
    await poll(data.submissionId);
    const history = await historyOf(streamId);
    const validated = history.find((e) => e.type === 'MyInvoisDocumentValidated')!;
    const invalidated = history.find((e) => e.type === 'MyInvoisDocumentInvalidated')!;
    expect([validated, invalidated].every(Boolean)).toBe(true);

    const handle = recorder();
    await feed(handle, history);
    const rows = await deliveriesOf(wantsBoth);
    expect(rows.map((r) => [r.event_type, r.event_id, r.status])).toEqual([
      ['MyInvoisInvalid', invalidated.eventId, 'pending'],
      ['MyInvoisValid', validated.eventId, 'pending'],
    ]);
    const [ok, bad] = data.documents;
    expect(JSON.parse(rows[1].payload)).toEqual({
      Event: 'DocumentValidated', EventType: 'MyInvoisValid', EventGroup: 'Invoice', uuid: (validated.data as { uuid: string }).uuid, DocumentId: `OK-${run}`, Status: 'valid',
      GatewayDocumentId: ok.documentId, LongId: expect.any(String), ValidationLink: expect.stringMatching(`^${portal}/.+/share/.+`), Reason: null, Error: null,
      OccurredAt: expect.any(String),
    });
    expect(JSON.parse(rows[0].payload)).toMatchObject({ EventType: 'MyInvoisInvalid', Status: 'invalid', DocumentId: `X-INVALID-${run}`, GatewayDocumentId: bad.documentId, Reason: expect.any(String), LongId: null });
    expect(await deliveriesOf(wantsRejected)).toEqual([]);
    expect(await deliveriesOf(otherSupplier)).toEqual([]);
    // Each delivery has its job, keyed by the delivery id.
    for (const row of rows) expect((await queue.getJob(row.id))?.data).toEqual({ deliveryId: row.id });

    // At-least-once: the same events again, to this consumer group and to another one, add nothing.
    await feed(handle, history);
    await feed(recorder(), history);
    expect((await deliveriesOf(wantsBoth)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });

  it('a submission refused as a whole: one MyInvoisRejected per document, each with its own Webhook-Id derived from the event', async () => {
    const seller = await storeMyInvoisSupplier(dataSource, freshTin());
    const wantsRejected = await subscribe(seller.supplierId, ['MyInvoisRejected']);
    const wantsValid = await subscribe(seller.supplierId, ['MyInvoisValid']);
    const { data, streamId } = await appendMyInvoisSubmission(store, seller, [`A-${run}`, `B-${run}`]);
    const error = { code: 'BadArgument', message: 'Submission is not valid', target: null, propertyPath: null, details: null };
    const [refused] = await store.transaction((uow) =>
      handleCommand(uow, myInvoisSubmissionDecider, streamId, { type: 'RecordSubmissionRejected', data: { submissionId: data.submissionId, error, rejectedAt: new Date().toISOString() } }, { tenantId: seller.tenantId }),
    );

    await recorder()(refused, context);
    const rows = await deliveriesOf(wantsRejected);
    const expectedIds = data.documents.map((d) => deterministicUuid(`webhook-event:${refused.eventId}:${d.documentId}`)).sort();
    expect(rows.map((r) => r.event_id).sort()).toEqual(expectedIds);
    expect(rows.map((r) => JSON.parse(r.payload)).map((b) => [b.DocumentId, b.Status, b.Error]).sort()).toEqual([
      [`A-${run}`, 'rejected', error],
      [`B-${run}`, 'rejected', error],
    ]);
    expect(await deliveriesOf(wantsValid)).toEqual([]);
  });

  it('DocumentReceived reaches a Malaysian supplier\'s subscription to PeppolReceived (its synonym), once', async () => {
    const supplierId = randomUUID();
    const subscription = await subscribe(supplierId, ['PeppolReceived']);
    const unrelated = await subscribe(supplierId, ['MyInvoisValid']);
    const documentId = randomUUID();
    const received = {
      eventId: randomUUID(), streamId: `document-${documentId}`, streamPosition: 1, globalPosition: '1', type: 'DocumentReceived', schemaVersion: 1,
      data: { documentId, supplierId, documentNumber: `MY-IN-${run}` }, metadata: { tenantId: randomUUID() }, recordedAt: new Date().toISOString(),
    } as RecordedEvent;
    const handle = recorder();
    await handle(received, context);
    await handle(received, context);
    expect((await deliveriesOf(subscription)).map((r) => [r.event_type, r.event_id, JSON.parse(r.payload).EventType])).toEqual([['DocumentReceived', received.eventId, 'PeppolReceived']]);
    expect(await deliveriesOf(unrelated)).toEqual([]);
  });
});
