import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { openTestKafka } from '../../../../../test/support/broker';
import { openTestDatabase } from '../../../../../test/support/database';
import { waitUntil } from '../../../../../test/support/wait';
import { ensureTopics, type KafkaEventPublisher } from '../kafka';
import type { EventStore } from './event-store';
import { OutboxRelay } from './outbox-relay';

/**
 * #8: the relay's LISTEN connection is re-opened until it works. Its fallback poll is set to ten
 * minutes here, so a row published within the test's wait can only have been announced by NOTIFY
 * on a LISTEN connection re-opened after failed attempts.
 */
describe('#8 outbox relay: a lost LISTEN connection whose first reconnects fail is retried until it works', () => {
  const prefix = `listen${Date.now().toString(36)}`;
  const applicationName = `einvoice-outbox-listener-${prefix}`;
  let dataSource: DataSource;
  let store: EventStore;
  let relay: OutboxRelay;
  let publisher: KafkaEventPublisher;
  let close: () => Promise<void>;
  let opened = 0;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase(prefix));
    const kafka = await openTestKafka('listener-test');
    ({ publisher, close } = kafka);
    await ensureTopics(kafka.kafka, prefix);
    const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice';
    relay = new OutboxRelay({
      dataSource,
      databaseUrl,
      publisher,
      topicPrefix: prefix,
      pollIntervalMs: 600_000,
      maxBackoffMs: 1_000,
      // The 2nd and 3rd connections (the first two reconnects) point at a port nobody listens on.
      listenerClient: () => {
        opened += 1;
        const url = opened === 2 || opened === 3 ? 'postgres://postgres@127.0.0.1:1/none' : databaseUrl;
        return new Client({ connectionString: url, application_name: applicationName });
      },
    });
    await relay.start();
  }, 120_000);

  afterAll(async () => {
    await relay?.stop();
    await close?.();
    await dataSource?.destroy();
  }, 60_000);

  const published = async (streamId: string) =>
    (await dataSource.query(`SELECT 1 FROM outbox WHERE aggregate_id = $1 AND processed_at IS NOT NULL`, [streamId])).length === 1;

  it('publishes, on NOTIFY, a row appended after the reconnects', async () => {
    await dataSource.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [applicationName]);
    await waitUntil('the listener re-opened after two failed attempts', async () => opened >= 4, 30_000);
    await waitUntil('the listener is listening', async () =>
      (await dataSource.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query = 'LISTEN outbox'`, [applicationName])).length === 1, 30_000);
    const streamId = `document-${randomUUID()}`;
    await store.transaction((uow) => uow.append(streamId, 'no_stream', [{ type: 'TestHappened', data: {} }], { tenantId: 't' }));
    await waitUntil('the row published', () => published(streamId), 30_000);
  });
});
