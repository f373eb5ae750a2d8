import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { waitUntil } from '../../../../../test/support/wait';
import { RestartableBroker } from '../../../../../test/support/broker';
import { openTestDatabase } from '../../../../../test/support/database';
import { createKafka, ensureTopics, KafkaEventPublisher, topicNames } from '../kafka';
import { readTopic } from '../kafka/test/support';
import { EventStore } from './event-store';
import { OutboxRelay } from './outbox-relay';
import { APP_SESSION_OPTIONS } from '../database/session-options';


describe('outbox relay with a real broker that goes away and comes back', () => {
  const prefix = `relay${Date.now().toString(36)}`;
  let broker: RestartableBroker;
  let dataSource: DataSource;
  let store: EventStore;
  let relay: OutboxRelay;
  let publisher: KafkaEventPublisher;

  beforeAll(async () => {
    broker = await RestartableBroker.create();
    await broker.start();
    ({ dataSource, store } = await openTestDatabase(prefix));
    const kafka = createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: 'relay-test' });
    await ensureTopics(kafka, prefix);
    publisher = new KafkaEventPublisher(kafka);
    await publisher.connect();
    relay = new OutboxRelay({ dataSource, databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice', publisher, topicPrefix: prefix, pollIntervalMs: 200, maxBackoffMs: 1000 });
    await relay.start();
  }, 120_000);

  afterAll(async () => {
    await relay?.stop();
    await publisher?.disconnect().catch(() => undefined);
    await dataSource?.destroy();
    await broker?.destroy();
  }, 60_000);

  const append = (streamId: string, n: number) =>
    store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: { n } }], { tenantId: 't' }));

  it('publishes every event in order per aggregate, keeps appending while Kafka is down, and drains when it returns', async () => {
    const streamId = `document-${randomUUID()}`;
    for (let n = 1; n <= 5; n += 1) await append(streamId, n);
    await waitUntil('the first events to be published', async () => (await relay.pending()) === 0);

    await broker.stop();
    // Requests still succeed: the append commits, the outbox grows.
    for (let n = 6; n <= 10; n += 1) await append(streamId, n);
    // Barrier: the relay has tried these rows against the absent broker (and recorded the failure).
    await waitUntil('the relay to have tried the new rows', async () => {
      const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE aggregate_id = $1 AND processed_at IS NULL AND attempts > 0`, [streamId]);
      return Number(n) > 0;
    });
    expect(await relay.pending()).toBe(5);

    await broker.start();
    await waitUntil('the outbox to drain after the broker returned', async () => (await relay.pending()) === 0, 90_000);

    const kafka = createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: 'relay-test-reader' });
    const messages = await readTopic(kafka, topicNames(prefix).documents, 10, 30_000);
    const positions = messages
      .filter((m) => m.key?.toString() === streamId)
      .map((m) => JSON.parse(m.value!.toString()).streamPosition);
    // At-least-once: a batch cut by the outage may be published twice; order per key holds.
    expect([...new Set(positions)]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  }, 180_000);

  /**
   * A relay of its own (topics `prefix` + `suffix`), woken only by its start and by wake(): no poll within
   * the test, and a LISTEN connection that listens to nothing (other suites' commits NOTIFY the same
   * channel). `reads()`: the outbox reads of its session so far.
   */
  async function countingRelay(suffix: string, options: Partial<ConstructorParameters<typeof OutboxRelay>[0]>) {
    const ownPrefix = `${prefix}${suffix}`;
    await ensureTopics(createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: `relay-test-topics-${suffix}` }), ownPrefix);
    const own = await openTestDatabase(ownPrefix);
    const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice';
    let reads = 0;
    /** A session whose statements pass through `look` first, which may replace them. */
    const session = (look: (text: string | undefined) => string | undefined) => () => {
      const client = new Client({ connectionString: databaseUrl, options: APP_SESSION_OPTIONS });
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const config = args[0] as string | { text?: string };
        const replaced = look(typeof config === 'string' ? config : config?.text);
        return replaced === undefined ? query(...args) : query(replaced, ...args.slice(1));
      };
      return client;
    };
    const countingSession = session((text) => {
      if (text?.includes('FROM outbox o LEFT JOIN events e')) reads += 1;
      return undefined;
    });
    const deafListener = session((text) => (text === 'LISTEN outbox' ? 'SELECT 1' : undefined));
    const relay = new OutboxRelay({
      dataSource: own.dataSource, databaseUrl, publisher, topicPrefix: ownPrefix, pollIntervalMs: 600_000, maxBackoffMs: 600_000,
      sessionClient: countingSession, listenerClient: deafListener, log: () => undefined, ...options,
    });
    /** The drain in progress (and the one it chains to), ended. */
    const drained = async () => {
      while ((relay as unknown as { draining?: Promise<void> }).draining) await (relay as unknown as { draining?: Promise<void> }).draining;
    };
    return { relay, own, ownPrefix, reads: () => reads, drained };
  }

  it('#11 a batch that took every waiting row ends the drain without reading again; one cut by its row limit reads on', async () => {
    const { relay: ownRelay, own, ownPrefix, reads: readsSoFar, drained } = await countingRelay('d', { batchSize: 2 });
    const streamId = `document-${randomUUID()}`;
    await own.store.transaction((uow) => uow.append(streamId, 'no_stream', [1, 2, 3, 4, 5].map((n) => ({ type: 'TestHappened', data: { n } })), { tenantId: 't' }));
    try {
      await ownRelay.start();
      await waitUntil('the five rows to be published', async () => (await ownRelay.pending()) === 0);
      // Batches of 2, 2 and 1: the short one took the rest, so no fourth read. Barrier: the drain itself has ended.
      await drained();
      expect(readsSoFar()).toBe(3);
      await own.store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: { n: 6 } }], { tenantId: 't' }));
      await ownRelay.wake();
      expect(await ownRelay.pending()).toBe(0);
      expect(readsSoFar()).toBe(4);
      const messages = await readTopic(createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: 'relay-test-reader-2' }), topicNames(ownPrefix).documents, 6, 30_000);
      expect(messages.map((m) => JSON.parse(m.value!.toString()).streamPosition)).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      await ownRelay.stop();
      await own.dataSource.destroy();
    }
  }, 120_000);

  it('#11 an idle relay woken by commits gathers them for gatherMs: one read for the commits of the window, none more for their wakes', async () => {
    const { relay: ownRelay, own, ownPrefix, reads, drained } = await countingRelay('g', { gatherMs: 300 });
    const streamId = `document-${randomUUID()}`;
    const append = (n: number) => own.store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: { n } }], { tenantId: 't' }));
    try {
      await ownRelay.start();
      // start's own drain (nothing there): one read.
      await drained();
      expect(reads()).toBe(1);
      await append(1);
      const first = ownRelay.wake(true);
      // Committed and woken within the window: the same read takes it, and its wake asks for no other drain.
      await append(2);
      void ownRelay.wake(true);
      await first;
      await drained();
      expect(reads()).toBe(2);
      expect(await ownRelay.pending()).toBe(0);
      // Woken without gathering (its start, the poll, a drain's own rest), it reads at once.
      await append(3);
      await ownRelay.wake();
      expect(reads()).toBe(3);
      const messages = await readTopic(createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: 'relay-test-reader-3' }), topicNames(ownPrefix).documents, 3, 30_000);
      expect(messages.map((m) => JSON.parse(m.value!.toString()).streamPosition)).toEqual([1, 2, 3]);
    } finally {
      await ownRelay.stop();
      await own.dataSource.destroy();
    }
  }, 120_000);
});
