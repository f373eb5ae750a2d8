import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { openTestKafka } from '../../../../../test/support/broker';
import { openTestDatabase } from '../../../../../test/support/database';
import { waitUntil } from '../../../../../test/support/wait';
import { encodeEvent, ensureTopics, topicNames } from '../kafka';
import { readTopic } from '../kafka/test/support';
import type { EventStore } from './event-store';
import { OutboxRelay, type OutboxPublisher } from './outbox-relay';

/**
 * Two relays of one stack: one leads (its own session holds the stack's lock), no transaction is
 * open while it waits for the broker, and when its session ends the other takes over, the events of
 * a stream still reaching Kafka in order.
 */
describe('outbox relays of one stack: one leader, no transaction across a publish, a takeover', () => {
  const prefix = `lead${Date.now().toString(36)}`;
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice';
  let dataSource: DataSource;
  let store: EventStore;
  let kafka: Awaited<ReturnType<typeof openTestKafka>>;
  const relays: OutboxRelay[] = [];
  /** Sessions of the relay lock's holder seen idle in a transaction while a publish was under way. */
  const openTransactions: number[] = [];

  // Who holds this stack's relay lock (classid, objid: the two keys of pg_try_advisory_lock), and in which state.
  const holders = async () =>
    (await dataSource.query(
      `SELECT a.application_name AS name, a.state FROM pg_locks l JOIN pg_stat_activity a USING (pid)
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 7312001 AND l.objid::bigint = (hashtext($1)::bigint & 4294967295)`,
      [prefix],
    )) as Array<{ name: string; state: string }>;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase(prefix));
    kafka = await openTestKafka('relay-lead-test');
    await ensureTopics(kafka.kafka, prefix);
    // Looks at the lock's holder from inside each publish, i.e. while the relay waits for the broker.
    const publisher = {
      publish: async (messages: Parameters<OutboxPublisher['publish']>[0]) => {
        openTransactions.push((await holders()).filter((h) => h.state.startsWith('idle in transaction')).length);
        await kafka.publisher.publish(messages);
      },
    };
    for (const name of ['a', 'b']) {
      relays.push(new OutboxRelay({
        dataSource,
        databaseUrl,
        publisher,
        topicPrefix: prefix,
        pollIntervalMs: 200,
        maxBackoffMs: 1_000,
        sessionClient: () => new Client({ connectionString: databaseUrl, application_name: `einvoice-outbox-relay-${prefix}-${name}` }),
      }));
    }
    for (const relay of relays) await relay.start();
  }, 120_000);

  afterAll(async () => {
    for (const relay of relays) await relay.stop();
    await kafka?.close();
    await dataSource?.destroy();
  }, 60_000);

  const append = (streamId: string, n: number) =>
    store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: { n } }], { tenantId: 't' }));
  const pending = () => relays[0].pending();

  it('publishes with one session holding the lock, none of it inside a transaction, and hands over when that session ends', async () => {
    const streamId = `document-${randomUUID()}`;
    for (let n = 1; n <= 5; n += 1) await append(streamId, n);
    await waitUntil('the first events published', async () => (await pending()) === 0, 30_000);
    const [leader, ...others] = await holders();
    expect(others).toEqual([]);
    expect(leader.name).toMatch(new RegExp(`^einvoice-outbox-relay-${prefix}-[ab]$`));
    expect(openTransactions.length).toBeGreaterThan(0);
    expect(openTransactions.every((n) => n === 0)).toBe(true);

    // The leader's session ends (a lost connection; a crash is the same to PostgreSQL): the lock goes with it.
    await dataSource.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [leader.name]);
    for (let n = 6; n <= 10; n += 1) await append(streamId, n);
    await waitUntil('the later events published', async () => (await pending()) === 0, 30_000);
    expect((await holders()).length).toBe(1);
    expect(openTransactions.every((n) => n === 0)).toBe(true);

    const messages = await readTopic(kafka.kafka, topicNames(prefix).documents, 10, 30_000);
    const positions = messages.filter((m) => m.key?.toString() === streamId).map((m) => JSON.parse(m.value!.toString()).streamPosition);
    expect([...new Set(positions)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  }, 120_000);
});

/**
 * A worker's relay stands in for the gateways': it publishes while no gateway's relay runs, gives the
 * lead back between two batches when one starts (no event published twice, none out of order, never
 * two publishing at once), and takes it again when the gateway's stops.
 */
describe('a stand-in relay (a worker\'s) and a relay that leads first (a gateway\'s)', () => {
  const prefix = `standin${Date.now().toString(36)}`;
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice';
  let dataSource: DataSource;
  let store: EventStore;
  let kafka: Awaited<ReturnType<typeof openTestKafka>>;
  /** Stream positions each relay published, and the most publishes seen under way at once. */
  const published: Record<'worker' | 'gateway', number[]> = { worker: [], gateway: [] };
  let underWay = 0;
  let mostAtOnce = 0;

  const relayOf = (name: 'worker' | 'gateway') =>
    new OutboxRelay({
      dataSource,
      databaseUrl,
      publisher: {
        publish: async (messages) => {
          mostAtOnce = Math.max(mostAtOnce, ++underWay);
          try {
            await kafka.publisher.publish(messages);
            published[name].push(...messages.map((m) => JSON.parse(encodeEvent(m.value)).streamPosition as number));
          } finally {
            underWay -= 1;
          }
        },
      },
      topicPrefix: prefix,
      pollIntervalMs: 200,
      maxBackoffMs: 1_000,
      standIn: name === 'worker',
      app: `${prefix}-${name}`,
      log: () => undefined,
    });

  /** The app whose relay session holds the stack's lock, if any. */
  const leader = async () => {
    const rows: Array<{ name: string }> = await dataSource.query(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a USING (pid)
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 7312001 AND l.objid::bigint = (hashtext($1)::bigint & 4294967295)`,
      [prefix],
    );
    return rows.map((r) => r.name.replace(`einvoice-${prefix}-`, '').replace('-outbox-relay', ''));
  };
  /** The sessions a relay of this test holds open, by app. */
  const sessions = async (name: string) =>
    Number((await dataSource.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [`einvoice-${prefix}-${name}-outbox-relay`]))[0].n);

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase(prefix));
    kafka = await openTestKafka('relay-stand-in-test');
    await ensureTopics(kafka.kafka, prefix);
  }, 120_000);

  afterAll(async () => {
    await kafka?.close();
    await dataSource?.destroy();
  }, 60_000);

  it('leads while no gateway relay runs, gives the lead back to one between two batches, and takes it again when it stops', async () => {
    const streamId = `document-${randomUUID()}`;
    let position = 0;
    const appendFive = async () => {
      for (let n = 0; n < 5; n += 1) {
        position += 1;
        await store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: { n: position } }], { tenantId: 't' }));
      }
    };
    const pending = async () => Number((await dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NULL AND topic LIKE $1`, [`${prefix}.%`]))[0].n);
    const worker = relayOf('worker');
    const gateway = relayOf('gateway');
    try {
      await worker.start();
      await appendFive();
      await waitUntil('the worker\'s relay to publish alone', async () => (await pending()) === 0, 30_000);
      expect(await leader()).toEqual(['worker']);

      // The gateway's relay starts while the worker's leads and events keep coming: the worker's hands over.
      await gateway.start();
      const during = appendFive();
      await waitUntil('the gateway\'s relay to lead', async () => (await leader()).join() === 'gateway', 30_000);
      await during;
      await appendFive();
      await waitUntil('the events to be published', async () => (await pending()) === 0, 30_000);
      // A stand-in that gave way keeps no session: it looks on its app's pool.
      expect(await sessions('worker')).toBe(0);
      expect(await leader()).toEqual(['gateway']);
      expect(gateway.wakeIfLeading()).toBe(true);
      expect(worker.wakeIfLeading()).toBe(false);

      await gateway.stop();
      await waitUntil('the worker\'s relay to lead again', async () => (await leader()).join() === 'worker', 30_000);
      await appendFive();
      await waitUntil('the last events to be published', async () => (await pending()) === 0, 30_000);
    } finally {
      await gateway.stop();
      await worker.stop();
    }

    // Each event once, in order, published by one relay at a time: the worker's first and last, the gateway's in between.
    const messages = await readTopic(kafka.kafka, topicNames(prefix).documents, 20, 30_000);
    expect(messages.map((m) => JSON.parse(m.value!.toString()).streamPosition)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(mostAtOnce).toBe(1);
    expect(published.worker.slice(0, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(published.worker.slice(-5)).toEqual([16, 17, 18, 19, 20]);
    expect(published.gateway).toEqual(expect.arrayContaining([11, 12, 13, 14, 15]));
    expect([...published.worker, ...published.gateway].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  }, 120_000);
});
