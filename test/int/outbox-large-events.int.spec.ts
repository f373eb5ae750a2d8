// Large events must never stall the outbox (issue G): the largest event the API can produce is
// relayed and consumed intact, and a row the broker refuses is parked instead of blocking the
// rows of every other stream.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { MyInvoisDocumentsSubmittedData, RecordedEvent } from '@einvoice/domain';
import {
  EventConsumer,
  EventStore,
  KafkaEventPublisher,
  OutboxRelay,
  createKafka,
  ensureTopics,
  loadInfrastructureConfig,
  topicForStream,
  topicNames,
  type Kafka,
} from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../support/database';
import { useTestBroker } from '../support/broker';
import { bulkDigest, largestMyInvoisBulk } from '../support/largest-events';
import { eventually, waitUntil } from '../support/wait';

jest.setTimeout(180_000);

describe('large events through the outbox relay and Kafka (real PostgreSQL and broker)', () => {
  const prefix = `glarge${Date.now().toString(36)}`;
  const topics = topicNames(prefix);
  let broker: Awaited<ReturnType<typeof useTestBroker>>;
  let dataSource: DataSource;
  let store: EventStore;
  let kafka: Kafka;
  let publisher: KafkaEventPublisher;
  let relay: OutboxRelay;
  let consumer: EventConsumer;
  const consumed: RecordedEvent[] = [];

  beforeAll(async () => {
    broker = await useTestBroker();
    ({ dataSource } = await openTestDatabase(prefix));
    // No read models: these tests are about the outbox and the broker, not about projections.
    store = new EventStore(dataSource, { topicFor: (streamId) => topicForStream(prefix, streamId), projector: async () => undefined });
    kafka = createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: 'large-events-spec' });
    await ensureTopics(kafka, prefix);
    publisher = new KafkaEventPublisher(kafka);
    await publisher.connect();
    relay = new OutboxRelay({ dataSource, databaseUrl: loadInfrastructureConfig().databaseUrl, publisher, topicPrefix: prefix, pollIntervalMs: 200, maxBackoffMs: 1_000 });
    await relay.start();
    consumer = new EventConsumer({
      kafka,
      groupId: `${prefix}.reader`,
      topics: [topics.documents, topics.suppliers],
      deadLetterTopic: topics.deadLetter,
      handle: async (event) => void consumed.push(event),
    });
    await consumer.start();
  }, 120_000);

  afterAll(async () => {
    await consumer?.stop();
    await relay?.stop();
    await publisher?.disconnect().catch(() => undefined);
    await dataSource?.destroy();
    await broker?.stop();
  }, 60_000);

  const append = (streamId: string, type: string, data: object) =>
    store.transaction((uow) => uow.append(streamId, 'any', [{ type, data }], { tenantId: 't' }));
  const received = (streamId: string) => eventually(`the event of ${streamId} to be consumed`, async () => consumed.find((e) => e.streamId === streamId), 90_000);

  it('relays the largest MyInvois bulk (100 documents, just under 5 MB, with PINT MY copies) and a worker reads it intact', async () => {
    const { data, documentBytes } = largestMyInvoisBulk();
    const eventBytes = Buffer.byteLength(JSON.stringify(data));
    expect(documentBytes).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(documentBytes).toBeGreaterThan(0.95 * 5 * 1024 * 1024);
    // Far over Kafka's 1 MB default: without the topics' limit this row stalled the outbox.
    expect(eventBytes).toBeGreaterThan(10 * 1024 * 1024);
    const streamId = `myinvois-${randomUUID()}`;
    await append(streamId, 'MyInvoisDocumentsSubmitted', data);

    const event = await received(streamId);

    const arrived = event.data as unknown as MyInvoisDocumentsSubmittedData;
    expect(bulkDigest(arrived)).toBe(bulkDigest(data));
    expect(arrived).toEqual(data);
    expect(await relay.pending()).toBe(0);
  });
});
