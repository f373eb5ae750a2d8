import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { EventStore, OutboxRelay, RelayThread, createKafka, ensureTopics, topicNames } from '@einvoice/domain/infrastructure';
import { readTopic } from '../../libs/domain/src/infrastructure/kafka/test/support';
import { useTestBroker } from '../support/broker';
import { openTestDatabase } from '../support/database';
import { ensureBuilt } from '../support/stack';
import { waitUntil } from '../support/wait';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * The gateway's relay on its thread, compiled as `npm start` runs it (dist/), against the real
 * database and broker: it takes the stack's lock on a session of its own, the commits of the
 * process wake it, every event reaches Kafka in order, and its stop frees the lock.
 */
describe('the outbox relay on a thread of the gateway (#11)', () => {
  const prefix = `rthread${Date.now().toString(36)}`;
  const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice';
  let broker: Awaited<ReturnType<typeof useTestBroker>>;
  let dataSource: DataSource;
  let store: EventStore;
  let thread: RelayThread;
  let leads!: Promise<void>;

  beforeAll(async () => {
    ensureBuilt();
    broker = await useTestBroker();
    await ensureTopics(createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: 'relay-thread-test' }), prefix);
    let led: () => void;
    leads = new Promise((resolve) => (led = resolve));
    thread = new RelayThread(path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'infrastructure', 'relay-thread.js'), {
      execArgv: ['-r', path.join(ROOT, 'scripts', 'register-paths.cjs')],
      env: { ...process.env, DATABASE_URL: databaseUrl, KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC_PREFIX: prefix },
      log: () => undefined,
      // The thread's own word that it took the stack's lock: the barrier before the commits.
      onLeadChange: (now) => now && led(),
    });
    // The process's commits wake the thread while it leads, as the gateway's (OutboxPublishing.wakeRelay).
    ({ dataSource, store } = await openTestDatabase(prefix, { wakeRelay: { afterCommit: () => thread.wakeIfLeading(), texts: thread } }));
  }, 120_000);

  afterAll(async () => {
    await thread?.stop();
    await dataSource?.destroy();
    await broker?.stop();
  }, 60_000);

  it('leads on its own session, publishes every event in order per stream, and frees the lock when it stops', async () => {
    await thread.start();
    await leads;
    expect(thread.wakeIfLeading()).toBe(true);
    // Another relay of the stack (a second gateway's) does not lead while the thread does.
    const other = new OutboxRelay({ dataSource, databaseUrl, publisher: { publish: async () => undefined }, topicPrefix: prefix, pollIntervalMs: 100, log: () => undefined });
    const backlog = () => other.pending();

    const streams = [`document-${randomUUID()}`, `document-${randomUUID()}`];
    for (let n = 1; n <= 5; n += 1) {
      for (const streamId of streams) await store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: { n } }], { tenantId: 't' }));
    }
    await waitUntil('the thread to publish the outbox', async () => (await backlog()) === 0);

    const messages = await readTopic(createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: 'relay-thread-reader' }), topicNames(prefix).documents, 10, 30_000);
    for (const streamId of streams) {
      const published = messages.filter((m) => m.key?.toString() === streamId).map((m) => JSON.parse(m.value!.toString()));
      expect(published.map((e) => e.streamPosition)).toEqual([1, 2, 3, 4, 5]);
      // Their data as the commits handed it to the thread (event-texts.ts) or as stored: the same.
      expect(published.map((e) => e.data)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    }
    // Their rows named the thread's relay, which therefore read them without their data.
    const named = await dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE aggregate_id = ANY($1) AND handed_to = $2`, [streams, thread.textsHandedTo()]);
    expect(named[0].n).toBe(10);

    let otherLeads = false;
    await other.start();
    try {
      await other.wake();
      expect(other.wakeIfLeading()).toBe(false);
      await thread.stop();
      expect(thread.wakeIfLeading()).toBe(false);
      // Its session ended with its stop: the other relay takes the lock at its next look.
      await waitUntil('the other relay to lead', async () => {
        await other.wake();
        otherLeads = other.wakeIfLeading();
        return otherLeads;
      });
    } finally {
      await other.stop();
    }
    expect(otherLeads).toBe(true);
  }, 120_000);
});
