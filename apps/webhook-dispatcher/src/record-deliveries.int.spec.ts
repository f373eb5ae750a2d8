// The dispatcher's Kafka side on real PostgreSQL and Redis: which deliveries a MyInvois event
// records (one per subscription wanting it and per document), in the processed-mark transaction.
import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { type RecordedEvent, createLogger } from '@einvoice/domain';
import { type EventHandler, type EventStore, createWebhookQueue, insertSubscription, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../test/support/database';
import { workerContext as context } from '../../../test/support/myinvois-worker';
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

describe('webhook dispatcher: deliveries of received documents (real PostgreSQL and Redis; MyInvois\'s lifecycle: report-webhooks.int.spec.ts)', () => {
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
