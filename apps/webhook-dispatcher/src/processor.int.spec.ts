import { randomUUID } from 'node:crypto';
import type { Queue, Worker } from 'bullmq';
import type { DataSource } from 'typeorm';
import { SecretBox, type WebhookConfig, createLogger, newWebhookSecret } from '@einvoice/domain';
import {
  createDeliveries,
  createWebhookQueue,
  enqueueDeliveries,
  insertSubscription,
  listDeliveries,
  loadInfrastructureConfig,
  recordAttempt,
  recordAttempts,
  reopenDelivery,
} from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../test/support/database';
import { eventually, waitUntil } from '../../../test/support/wait';
import { WebhookReceiver, signedCorrectly } from '../../../test/support/webhook-receiver';
import { FirstAttempts } from './first-attempts';
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
    firstAttemptsInFlight: 2,
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
      for (const received of target.received) {
        expect(received.headers['webhook-id']).toBe(eventId);
        expect(signedCorrectly(secret, received)).toBe(true);
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

  describe('#11 first attempts sent without the queue', () => {
    const firstAttempts = () =>
      new FirstAttempts({ db: dataSource, secrets, config, log: createLogger('test', 'error'), queue, schedule: config.schedule, maxInFlight: config.firstAttemptsInFlight });

    it('a 2xx: delivered at the first attempt, no job ever added', async () => {
      const target = await receiver([]);
      try {
        const { deliveryId, subscriptionId } = await subscribe(target.url);
        const attempts = firstAttempts();
        await attempts.dispatch([deliveryId]);
        expect(attempts.has(deliveryId)).toBe(true);
        await attempts.close();
        const [delivery] = await listDeliveries(dataSource, subscriptionId);
        expect(delivery.status).toBe('delivered');
        expect(delivery.attempts.map((a) => a.attempt)).toEqual([1]);
        expect(await queue.getJob(deliveryId)).toBeUndefined();
        expect(target.received).toHaveLength(1);
      } finally {
        await target.close();
      }
    });

    it('always 500: the queue takes over for the rest of the schedule, no attempt more than it allows', async () => {
      const target = await receiver(new Array(10).fill(500));
      try {
        const { deliveryId, subscriptionId } = await subscribe(target.url);
        const attempts = firstAttempts();
        await attempts.dispatch([deliveryId]);
        await attempts.close();
        const job = await queue.getJob(deliveryId);
        expect(job?.data).toMatchObject({ deliveryId, priorAttempts: 1 });
        expect(job?.opts.attempts).toBe(config.schedule.attempts - 1);
        const [failed] = await eventually('failed', async () => {
          const rows = await listDeliveries(dataSource, subscriptionId);
          return rows[0]?.status === 'failed' ? rows : undefined;
        }, 20_000);
        expect(failed.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
        expect(target.received).toHaveLength(config.schedule.attempts);
      } finally {
        await target.close();
      }
    });

    it('past maxInFlight, and once closed, deliveries are enqueued; the sweeper leaves one in flight alone', async () => {
      const target = await receiver([]);
      try {
        // A queue nobody works: what was enqueued stays there to be seen.
        const idle = createWebhookQueue(redisUrl, `${kafkaPrefix}.webhooks-idle-${randomUUID().slice(0, 8)}`);
        try {
          const subscribed = await Promise.all([1, 2, 3].map(() => subscribe(target.url)));
          const attempts = new FirstAttempts({ db: dataSource, secrets, config, log: createLogger('test', 'error'), queue: idle, schedule: config.schedule, maxInFlight: config.firstAttemptsInFlight });
          await attempts.dispatch(subscribed.map((s) => s.deliveryId));
          await attempts.close();
          const late = await subscribe(target.url);
          await attempts.dispatch([late.deliveryId]);
          const jobs = await Promise.all([...subscribed, late].map((s) => idle.getJob(s.deliveryId)));
          expect(jobs.map((job) => job !== undefined)).toEqual([false, false, true, true]);
          const statuses = await Promise.all([...subscribed, late].map(async (s) => (await listDeliveries(dataSource, s.subscriptionId))[0].status));
          expect(statuses).toEqual(['delivered', 'delivered', 'pending', 'pending']);
          expect(target.received).toHaveLength(2);
        } finally {
          await idle.obliterate({ force: true });
          await idle.close();
        }

        const quiet = await subscribe(target.url);
        await dataSource.query(`UPDATE webhook_deliveries SET updated_at = now() - interval '1 minute' WHERE id = $1`, [quiet.deliveryId]);
        const sending = { has: (id: string) => id === quiet.deliveryId, longestAttemptMs: 4_000 };
        const sweeper = new Sweeper(dataSource, queue, config.schedule, config.sweepIntervalMs, createLogger('test', 'error'), sending);
        await sweeper.sweep();
        expect(await queue.getJob(quiet.deliveryId)).toBeUndefined();
      } finally {
        await target.close();
      }
    });
  });

  it('#11 attempts recorded in one statement: each delivery moves on by its own result, one not pending is left alone, a delivery twice is refused', async () => {
    const subscribed = await Promise.all([1, 2, 3, 4].map(() => subscribe('http://127.0.0.1:9/unused')));
    const [ok, failed, last, done] = subscribed.map((s) => s.deliveryId);
    await recordAttempt(dataSource, done, { statusCode: 200, durationMs: 3, error: null, acknowledged: true }, false);
    const refused = { statusCode: 500, durationMs: 7, error: 'HTTP 500', acknowledged: false };
    const numbers = await recordAttempts(dataSource, [
      { deliveryId: ok, result: { statusCode: 204, durationMs: 5, error: null, acknowledged: true }, final: false },
      { deliveryId: failed, result: refused, final: false },
      { deliveryId: last, result: { ...refused, error: 'HTTP 503' }, final: true },
      { deliveryId: done, result: refused, final: false },
    ]);
    expect(numbers).toEqual([1, 1, 1, undefined]);
    const views = await Promise.all(subscribed.map(async (s) => (await listDeliveries(dataSource, s.subscriptionId))[0]));
    expect(views.map((v) => v.status)).toEqual(['delivered', 'pending', 'failed', 'delivered']);
    expect(views.map((v) => v.attempts.map((a) => [a.attempt, a.status_code, a.duration_ms, a.error]))).toEqual([
      [[1, 204, 5, null]],
      [[1, 500, 7, 'HTTP 500']],
      [[1, 500, 7, 'HTTP 503']],
      [[1, 200, 3, null]],
    ]);
    expect(views[0].delivered_at).not.toBeNull();
    // The failed one's subscription had nothing delivered since: disabled, as recordAttempt does.
    const [disabled] = await dataSource.query(`SELECT disabled_at IS NOT NULL AS disabled FROM webhook_subscriptions WHERE id = $1`, [subscribed[2].subscriptionId]);
    expect(disabled.disabled).toBe(true);
    await expect(recordAttempts(dataSource, [{ deliveryId: failed, result: refused, final: false }, { deliveryId: failed, result: refused, final: false }])).rejects.toThrow(/twice/);
    expect((await listDeliveries(dataSource, subscribed[1].subscriptionId))[0].attempts).toHaveLength(1);
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
