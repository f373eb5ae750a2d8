import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { openTestKafka } from '../../../../../test/support/broker';
import { openTestDatabase } from '../../../../../test/support/database';
import { waitUntil } from '../../../../../test/support/wait';
import { ensureTopics, topicNames } from '../kafka';
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
