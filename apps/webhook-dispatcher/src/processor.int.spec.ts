import { randomUUID } from 'node:crypto';
import type { Queue, Worker } from 'bullmq';
import type { DataSource } from 'typeorm';
import { SecretBox, type WebhookConfig, createLogger, newWebhookSecret, verifyWebhook } from '@einvoice/domain';
import {
  createDeliveries,
  createWebhookQueue,
  enqueueDeliveries,
  insertSubscription,
  listDeliveries,
  loadInfrastructureConfig,
  reopenDelivery,
} from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../test/support/database';
import { eventually, waitUntil } from '../../../test/support/wait';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { createWebhookWorker } from './processor';
import { Sweeper } from './sweeper';

/** A receiver on 127.0.0.1 answering with the statuses given, then 200. */
const receiver = (statuses: number[]) => new WebhookReceiver(statuses).start();

describe('#3 webhook processor on real Redis and PostgreSQL', () => {
  const { redisUrl, kafkaPrefix } = loadInfrastructureConfig();
  const secrets = SecretBox.fromKey(Buffer.alloc(32, 3));
  const config: WebhookConfig = {
    schedule: { attempts: 4, baseDelayMs: 50, maxDelayMs: 200, jitter: 0.2 },
    timeoutMs: 2_000,
    allowLoopback: true,
    sweepIntervalMs: 1_000,
    concurrency: 2,
  };
  let dataSource: DataSource;
  let queue: Queue;
  let worker: Worker;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });

  beforeEach(() => {
    // A fresh queue per test (STYLE.md), under the run's prefix.
    const name = `${kafkaPrefix}.webhooks-int-${randomUUID().slice(0, 8)}`;
    queue = createWebhookQueue(redisUrl, name);
    worker = createWebhookWorker(name, redisUrl, { db: dataSource, secrets, config, log: createLogger('test', 'error') });
  });

  afterEach(async () => {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function subscribe(url: string): Promise<{ deliveryId: string; secret: string; subscriptionId: string; eventId: string }> {
    const secret = newWebhookSecret();
    const supplierId = randomUUID();
    const subscription = await insertSubscription(dataSource, {
      id: randomUUID(), tenantId: randomUUID(), supplierId, area: 'de', url, events: ['DocumentReceived'],
      secretSealed: secrets.seal(secret), description: null,
    });
    const eventId = randomUUID();
    const db = { read: (sql: string, params?: unknown[]) => dataSource.query(sql, params), write: async (sql: string, params?: unknown[]) => void (await dataSource.query(sql, params)) };
    const [deliveryId] = await createDeliveries(db, supplierId, eventId, 'DocumentReceived', '{"Event":"DocumentReceived"}');
    // The same event again (another consumer group) creates nothing: the same id, one row.
    expect(await createDeliveries(db, supplierId, eventId, 'DocumentReceived', '{}')).toEqual([deliveryId]);
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = $1`, [eventId]))[0].n).toBe(1);
    return { deliveryId, secret, subscriptionId: subscription.id, eventId };
  }

  it('500 three times then 200: delivered once, four attempts recorded, one Webhook-Id, every attempt signed', async () => {
    const target = await receiver([500, 500, 500]);
    try {
      const { deliveryId, secret, subscriptionId, eventId } = await subscribe(target.url);
      await enqueueDeliveries(queue, [deliveryId, deliveryId], config.schedule);
      const [delivery] = await eventually('delivered', async () => {
        const rows = await listDeliveries(dataSource, subscriptionId);
        return rows[0]?.status === 'delivered' ? rows : undefined;
      }, 20_000);
      expect(delivery.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 200]);
      expect(delivery.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
      expect(target.received).toHaveLength(4);
      for (const { headers, body } of target.received) {
        expect(headers['webhook-id']).toBe(eventId);
        const signed = { id: String(headers['webhook-id']), timestamp: String(headers['webhook-timestamp']), signature: String(headers['webhook-signature']) };
        expect(verifyWebhook(secret, signed, body)).toBe(true);
      }
      // A late duplicate job finds the delivery no longer pending and sends nothing.
      await enqueueDeliveries(queue, [deliveryId], config.schedule);
      // Barrier: the duplicate job has run (finished jobs are removed from the queue).
      await waitUntil('the duplicate job handled', async () => (await queue.getJob(deliveryId)) === undefined);
      expect(target.received).toHaveLength(4);
    } finally {
      await target.close();
    }
  });

  it('always 500: failed after the last attempt; re-sent, it is delivered', async () => {
    const target = await receiver(new Array(4).fill(500));
    try {
      const { deliveryId, subscriptionId } = await subscribe(target.url);
      await enqueueDeliveries(queue, [deliveryId], config.schedule);
      const [failed] = await eventually('failed', async () => {
        const rows = await listDeliveries(dataSource, subscriptionId);
        return rows[0]?.status === 'failed' ? rows : undefined;
      }, 20_000);
      expect(failed.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 500]);
      expect(await reopenDelivery(dataSource, subscriptionId, deliveryId)).toBe('reopened');
      expect(await reopenDelivery(dataSource, subscriptionId, deliveryId)).toBe('not_failed');
      await enqueueDeliveries(queue, [deliveryId], config.schedule);
      const [delivered] = await eventually('delivered after re-send', async () => {
        const rows = await listDeliveries(dataSource, subscriptionId);
        return rows[0]?.status === 'delivered' ? rows : undefined;
      }, 20_000);
      expect(delivered.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 500, 200]);
    } finally {
      await target.close();
    }
  });

  it('the sweeper enqueues a pending delivery whose job was never added (crash after commit)', async () => {
    const target = await receiver([]);
    try {
      const { deliveryId, subscriptionId } = await subscribe(target.url);
      await dataSource.query(`UPDATE webhook_deliveries SET updated_at = now() - interval '1 minute' WHERE id = $1`, [deliveryId]);
      const sweeper = new Sweeper(dataSource, queue, config.schedule, config.sweepIntervalMs, createLogger('test', 'error'));
      expect(await sweeper.sweep()).toBeGreaterThanOrEqual(1);
      await eventually('delivered', async () => ((await listDeliveries(dataSource, subscriptionId))[0]?.status === 'delivered' ? true : undefined), 20_000);
      expect(target.received).toHaveLength(1);
    } finally {
      await target.close();
    }
  });
});
