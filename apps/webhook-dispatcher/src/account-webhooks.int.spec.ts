// Account-wide webhooks (#48) on real PostgreSQL and Redis: the tail of account_events records the deliveries of
// the matching endpoints and sends them, signed with both secrets during a rotation; an answer's body and the
// next attempt's time are recorded; a dead endpoint does not hold up a healthy one.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Queue, Worker } from 'bullmq';
import type { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { SecretBox, type WebhookConfig, accountEventOf, createLogger, newWebhookSecret } from '@einvoice/domain';
import { createWebhookQueue, enabledAccountEndpoints, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../test/support/database';
import { eventually } from '../../../test/support/wait';
import { WebhookReceiver } from '../../../test/support/webhook-receiver';
import { AccountEventsTail } from './account-events-tail';
import { EndpointCache } from './endpoint-cache';
import { EndpointGate } from './endpoint-gate';
import { FirstAttempts } from './first-attempts';
import { createWebhookWorker } from './processor';

const log = createLogger('test', 'error');

describe('#48 account webhooks: the tail of account_events (real PostgreSQL and Redis)', () => {
  const { redisUrl, kafkaPrefix } = loadInfrastructureConfig();
  const secrets = SecretBox.fromKey(Buffer.alloc(32, 7));
  const config: WebhookConfig = {
    schedule: { attempts: 2, baseDelayMs: 300, maxDelayMs: 300, jitter: 0 },
    timeoutMs: 2_000,
    allowLoopback: true,
    sweepIntervalMs: 1_000,
    concurrency: 2,
    firstAttemptsInFlight: 4,
  };
  let dataSource: DataSource;
  let queue: Queue;
  let failingQueue: Queue;
  const workers: Worker[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });

  beforeEach(() => {
    const suffix = randomUUID().slice(0, 8);
    queue = createWebhookQueue(redisUrl, `${kafkaPrefix}.account-hooks-${suffix}`);
    failingQueue = createWebhookQueue(redisUrl, `${kafkaPrefix}.account-hooks-failing-${suffix}`);
  });

  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.close()));
    for (const q of [queue, failingQueue]) {
      await q.obliterate({ force: true });
      await q.close();
    }
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** An account endpoint of `tenantId` (scope 'account'), with its filters; returns its id and secret. */
  async function endpoint(tenantId: string, url: string, filters: { events?: string[]; areas?: string[]; supplierIds?: string[] } = {}) {
    const id = randomUUID();
    const secret = newWebhookSecret();
    await dataSource.query(
      `INSERT INTO webhook_subscriptions (id, tenant_id, scope, url, events, areas, supplier_ids, secret_sealed, description, created_at)
       VALUES ($1, $2, 'account', $3, $4, $5, $6, $7, NULL, now() - interval '1 second')`,
      [id, tenantId, url, filters.events ?? [], filters.areas ?? null, filters.supplierIds ?? null, secrets.seal(secret)],
    );
    return { id, secret };
  }

  /** A document row (the trigger records its document.accepted event), in `db` (a transaction's connection) or the pool. */
  async function insertDocument(tenantId: string, area: string, db: { query: DataSource['query'] } = dataSource): Promise<string> {
    const id = randomUUID();
    await db.query(
      `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, delivery_status, state, fields, created_at, updated_at, version)
       VALUES ($1, $2, $3, $4, 'outgoing', $5, 'Invoice', 'Scheduled', 'scheduled', '{}', now(), now(), 1)`,
      [id, tenantId, randomUUID(), area, `ACC-${id.slice(0, 8)}`],
    );
    return id;
  }

  /** A reader of its own, starting at the table's end (the test database holds every earlier run's events). */
  async function tail(reader: string, firstAttempts: FirstAttempts): Promise<AccountEventsTail> {
    await dataSource.query(
      `INSERT INTO account_event_positions (reader, xid, seq)
       SELECT $1, xid, seq FROM account_events ORDER BY xid DESC, seq DESC LIMIT 1 ON CONFLICT (reader) DO NOTHING`,
      [reader],
    );
    const endpoints = new EndpointCache((tenants) => enabledAccountEndpoints(dataSource, tenants), 60_000);
    return new AccountEventsTail({
      dataSource, firstAttempts, queue, schedule: config.schedule, endpoints, reader, lockName: reader, batchSize: 500, heldBackPollMs: 50, intervalMs: 60_000, log,
    });
  }

  const firstAttemptsOf = (gate?: EndpointGate) =>
    new FirstAttempts({ db: dataSource, secrets, config, log, queue, schedule: config.schedule, maxInFlight: config.firstAttemptsInFlight, ...(gate ? { lanes: { gate, failingQueue } } : {}) });

  const deliveriesOf = (subscriptionId: string): Promise<Array<{ id: string; event_id: string; event_type: string; status: string; payload: string; next_attempt_at: Date | null }>> =>
    dataSource.query(`SELECT id, event_id, event_type, status, payload, next_attempt_at FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at, id`, [subscriptionId]);

  it('an event reaches the matching endpoints once, as accountEventOf says, and not a filtered-out one; a restarted tail sends nothing again', async () => {
    const target = await new WebhookReceiver().start();
    try {
      const tenantId = randomUUID();
      const all = await endpoint(tenantId, target.url);
      const belgian = await endpoint(tenantId, `${target.url}?be`, { events: ['document.accepted'], areas: ['be'] });
      const polish = await endpoint(tenantId, `${target.url}?pl`, { areas: ['pl'] });
      const reported = await endpoint(tenantId, `${target.url}?reported`, { events: ['document.reported'] });
      const otherTenant = await endpoint(randomUUID(), `${target.url}?other`);
      const reader = `test-${randomUUID()}`;
      const attempts = firstAttemptsOf();
      const first = await tail(reader, attempts);
      const [start] = await dataSource.query(`SELECT xid::text AS xid, seq::text AS seq FROM account_event_positions WHERE reader = $1`, [reader]);
      const documentId = await insertDocument(tenantId, 'be');
      await eventually('the tail recorded the event', async () => {
        await first.runOnce();
        return (await deliveriesOf(all.id)).length === 1 ? true : undefined;
      }, 10_000);
      await attempts.close();

      const [event] = await dataSource.query(`SELECT * FROM account_events WHERE document_id = $1`, [documentId]);
      for (const wanted of [all, belgian]) {
        const [delivery] = await deliveriesOf(wanted.id);
        expect(delivery).toMatchObject({ event_id: event.id, event_type: 'document.accepted', status: 'delivered' });
        expect(delivery.payload).toBe(JSON.stringify(accountEventOf(event)));
      }
      for (const unwanted of [polish, reported, otherTenant]) expect(await deliveriesOf(unwanted.id)).toEqual([]);
      expect(target.received.map((r) => r.headers['webhook-id']).sort()).toEqual([event.id, event.id]);
      expect(JSON.parse(target.received[0].body)).toMatchObject({ id: event.id, type: 'document.accepted', area: 'be', document_id: documentId, data: { status: 'accepted' } });

      // A tail restarted from before the event (as if its position had not moved): nothing recorded or sent twice.
      if (start) await dataSource.query(`UPDATE account_event_positions SET xid = $2::xid8, seq = $3 WHERE reader = $1`, [reader, start.xid, start.seq]);
      else await dataSource.query(`DELETE FROM account_event_positions WHERE reader = $1`, [reader]);
      const again = firstAttemptsOf();
      await (await tail(reader, again)).runOnce();
      await again.close();
      expect(await deliveriesOf(all.id)).toHaveLength(1);
      expect(target.received).toHaveLength(2);
    } finally {
      await target.close();
    }
  });

  it('an event whose transaction commits late is held back, not skipped: both events reach the endpoint', async () => {
    const target = await new WebhookReceiver().start();
    const late = await dataSource.createQueryRunner();
    await late.connect();
    try {
      const tenantId = randomUUID();
      const hook = await endpoint(tenantId, target.url);
      const attempts = firstAttemptsOf();
      const tailed = await tail(`test-${randomUUID()}`, attempts);
      // The late transaction takes its id first, then an earlier-numbered event commits after a later one.
      await late.startTransaction();
      await late.query(`SELECT pg_current_xact_id()`);
      await insertDocument(tenantId, 'de');
      await late.query('SELECT 1');
      const lateDocument = await insertDocument(tenantId, 'pl', late.manager);
      await tailed.runOnce();
      // The committed event waits behind the running transaction: nothing recorded yet.
      expect(await deliveriesOf(hook.id)).toEqual([]);
      await late.commitTransaction();
      const delivered = await eventually('both events recorded', async () => {
        await tailed.runOnce();
        const rows = await deliveriesOf(hook.id);
        return rows.length === 2 ? rows : undefined;
      }, 10_000);
      await attempts.close();
      expect(delivered.map((d) => JSON.parse(d.payload).area).sort()).toEqual(['de', 'pl']);
      expect(delivered.some((d) => JSON.parse(d.payload).document_id === lateDocument)).toBe(true);
    } finally {
      if (late.isTransactionActive) await late.rollbackTransaction();
      await late.release();
      await target.close();
    }
  });

  it('during a secret rotation both secrets sign: the standardwebhooks package verifies the delivery with either; an expired one no longer signs', async () => {
    const target = await new WebhookReceiver().start();
    try {
      const tenantId = randomUUID();
      const hook = await endpoint(tenantId, target.url);
      const previous = newWebhookSecret();
      await dataSource.query(`UPDATE webhook_subscriptions SET previous_secret_sealed = $2, previous_secret_expires_at = now() + interval '1 day' WHERE id = $1`, [hook.id, secrets.seal(previous)]);
      const attempts = firstAttemptsOf();
      const tailed = await tail(`test-${randomUUID()}`, attempts);
      await insertDocument(tenantId, 'be');
      await eventually('delivered', async () => (await tailed.runOnce(), target.received.length === 1 ? true : undefined), 10_000);

      const [received] = target.received;
      const headers = Object.fromEntries(Object.entries(received.headers).map(([name, value]) => [name, String(value)]));
      expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
      for (const secret of [hook.secret, previous]) expect(new Webhook(secret).verify(received.body, headers)).toMatchObject({ type: 'document.accepted' });
      expect(() => new Webhook(newWebhookSecret()).verify(received.body, headers)).toThrow();

      await dataSource.query(`UPDATE webhook_subscriptions SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [hook.id]);
      await insertDocument(tenantId, 'be');
      await eventually('delivered', async () => (await tailed.runOnce(), target.received.length === 2 ? true : undefined), 10_000);
      await attempts.close();
      const after = Object.fromEntries(Object.entries(target.received[1].headers).map(([name, value]) => [name, String(value)]));
      expect(after['webhook-signature'].split(' ')).toHaveLength(1);
      expect(() => new Webhook(previous).verify(target.received[1].body, after)).toThrow();
      expect(new Webhook(hook.secret).verify(target.received[1].body, after)).toEqual(JSON.parse(target.received[1].body));
    } finally {
      await target.close();
    }
  });

  it('records the first 4 KiB of each answer, next_attempt_at while a retry is due, and NULL once the delivery failed for good', async () => {
    const answer = `refused: ${'é'.repeat(3000)}`;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const tenantId = randomUUID();
      const hook = await endpoint(tenantId, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
      const gate = new EndpointGate({ perEndpoint: 4, failingPerEndpoint: 1, slowMs: 1_000 });
      workers.push(createWebhookWorker(failingQueue.name, redisUrl, { db: dataSource, secrets, config, log }, { lane: 'failing', gate, failingQueue, concurrency: 1 }));
      const attempts = firstAttemptsOf(gate);
      const tailed = await tail(`test-${randomUUID()}`, attempts);
      await insertDocument(tenantId, 'sg');
      const [pending] = await eventually('first attempt recorded', async () => {
        await tailed.runOnce();
        const rows = await dataSource.query(
          `SELECT d.next_attempt_at, d.updated_at, a.response_body FROM webhook_deliveries d JOIN webhook_delivery_attempts a ON a.delivery_id = d.id WHERE d.subscription_id = $1`,
          [hook.id],
        );
        return rows.length === 1 ? rows : undefined;
      }, 10_000);
      expect(Buffer.byteLength(pending.response_body)).toBeLessThanOrEqual(4096);
      expect(Buffer.byteLength(pending.response_body)).toBeGreaterThan(4090);
      expect(answer.startsWith(pending.response_body)).toBe(true);
      expect(pending.next_attempt_at.getTime() - pending.updated_at.getTime()).toBeGreaterThanOrEqual(250);
      expect(pending.next_attempt_at.getTime() - pending.updated_at.getTime()).toBeLessThanOrEqual(350);

      const [failed] = await eventually('failed for good', async () => {
        const rows = await deliveriesOf(hook.id);
        return rows[0]?.status === 'failed' ? rows : undefined;
      }, 10_000);
      await attempts.close();
      expect(failed.next_attempt_at).toBeNull();
      const bodies = await dataSource.query(`SELECT response_body FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [failed.id]);
      expect(bodies).toHaveLength(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a dead endpoint (never answers) does not hold up a healthy one: every healthy delivery arrives while the dead ones are still unanswered', async () => {
    const dead = http.createServer(() => undefined);
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const healthy = await new WebhookReceiver().start();
    const slowConfig = { ...config, timeoutMs: 10_000 };
    try {
      const tenantId = randomUUID();
      const deadHook = await endpoint(tenantId, `http://127.0.0.1:${(dead.address() as AddressInfo).port}/hook`, { areas: ['de'] });
      const healthyHook = await endpoint(tenantId, healthy.url, { areas: ['be'] });
      const gate = new EndpointGate({ perEndpoint: 2, failingPerEndpoint: 1, slowMs: 100 });
      const deps = { db: dataSource, secrets, config: slowConfig, log };
      workers.push(
        createWebhookWorker(queue.name, redisUrl, deps, { lane: 'fast', gate, failingQueue, concurrency: 2 }),
        createWebhookWorker(failingQueue.name, redisUrl, deps, { lane: 'failing', gate, failingQueue, concurrency: 1 }),
      );
      const attempts = new FirstAttempts({ ...deps, queue, schedule: config.schedule, maxInFlight: 4, lanes: { gate, failingQueue } });
      const tailed = await tail(`test-${randomUUID()}`, attempts);
      // The dead endpoint's events first: without lanes, they would take every place (4 first attempts, 2 retries).
      for (let i = 0; i < 6; i += 1) await insertDocument(tenantId, 'de');
      for (let i = 0; i < 6; i += 1) await insertDocument(tenantId, 'be');
      // Arrived, and recorded: an attempt is recorded once its answer is read, a moment after the receiver has the POST.
      await eventually('every healthy delivery arrived and recorded delivered', async () => {
        await tailed.runOnce();
        if (healthy.received.length !== 6) return undefined;
        const statuses = (await deliveriesOf(healthyHook.id)).map((d) => d.status);
        return statuses.length === 6 && statuses.every((status) => status === 'delivered') ? true : undefined;
      }, 8_000);
      const [{ answered }] = await dataSource.query(
        `SELECT count(a.*)::int AS answered FROM webhook_deliveries d JOIN webhook_delivery_attempts a ON a.delivery_id = d.id WHERE d.subscription_id = $1`,
        [deadHook.id],
      );
      expect(answered).toBe(0);
      expect((await deliveriesOf(healthyHook.id)).map((d) => d.status)).toEqual(new Array(6).fill('delivered'));
      expect((await deliveriesOf(deadHook.id)).map((d) => d.status)).toEqual(new Array(6).fill('pending'));
      // The dead endpoint refuses from now on (no attempt waits for its timeout), and the attempts in flight end.
      const closed = new Promise((resolve) => dead.close(resolve));
      dead.closeAllConnections();
      await closed;
      await attempts.close();
    } finally {
      dead.closeAllConnections();
      if (dead.listening) await new Promise((resolve) => dead.close(resolve));
      await healthy.close();
    }
  });
});
