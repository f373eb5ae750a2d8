import { Kafka, logLevel } from 'kafkajs';
import { KafkaEventPublisher } from './publisher';
import { ensureTopics, topicNames } from './topics';
import { platformEventRegistry } from '../plugins';
import { openTestKafka } from '../../../../../test/support/broker';
import { header, messageCount, readTopic, recordedEvent, uniquePrefix } from './test/support';

// jest 29 ignores `testTimeout` inside a `projects` entry (see consumer.int.spec.ts).
jest.setTimeout(60_000);

describe('KafkaEventPublisher and topics (real broker)', () => {
  let close: () => Promise<void>;
  let kafka: Kafka;
  let publisher: KafkaEventPublisher;

  beforeAll(async () => {
    ({ kafka, publisher, close } = await openTestKafka('publisher-int-spec'));
  }, 120_000);

  afterAll(async () => {
    await close?.();
  }, 60_000);

  it('creates the topics with 6 partitions, and again without error', async () => {
    const prefix = uniquePrefix();
    await ensureTopics(kafka, prefix);
    await ensureTopics(kafka, prefix);

    const admin = kafka.admin();
    await admin.connect();
    const { topics } = await admin.fetchTopicMetadata({ topics: Object.values(topicNames(prefix)) });
    await admin.disconnect();
    expect(topics.map((t) => [t.name, t.partitions.length]).sort()).toEqual(
      [`${prefix}.dead-letter`, `${prefix}.documents`, `${prefix}.participants`, `${prefix}.received`, `${prefix}.reports`, `${prefix}.suppliers`].map((name) => [name, 6]),
    );
  });

  it('publishes events keyed by stream to the topic of their stream kind, with event headers', async () => {
    const prefix = uniquePrefix();
    await ensureTopics(kafka, prefix);
    const document = recordedEvent('document-7d0b8e52-0d7e-4c4a-9a57-6f0a4b1f3c11', 1, { number: 'INV-1', area: 'be' });
    const supplier = { ...recordedEvent('supplier-0b7f3a9e-3c55-4a8f-8d38-2a6f1b9c7e20', 1), type: 'SupplierOnboarded' };
    const messages = [document, supplier].map((value) => ({ topic: platformEventRegistry([]).topicFor(prefix, value.streamId), key: value.streamId, value, headers: { 'x-tenant': 'tenant-1' } }));

    await publisher.publish(messages);

    const [onDocuments] = await readTopic(kafka, `${prefix}.documents`, 1);
    const [onSuppliers] = await readTopic(kafka, `${prefix}.suppliers`, 1);
    expect(onDocuments.key?.toString()).toBe(document.streamId);
    expect(JSON.parse(onDocuments.value!.toString())).toEqual(document);
    expect(header(onDocuments, 'x-event-id')).toBe(document.eventId);
    expect(header(onDocuments, 'x-event-type')).toBe('DocumentSubmitted');
    expect(header(onDocuments, 'x-stream-kind')).toBe('document');
    expect(header(onDocuments, 'x-area')).toBe('be');
    expect(header(onSuppliers, 'x-stream-kind')).toBe('supplier');
    expect(header(onSuppliers, 'x-area')).toBeUndefined();
    expect(header(onDocuments, 'x-tenant')).toBe('tenant-1');
    expect(JSON.parse(onSuppliers.value!.toString())).toEqual(supplier);
    expect(await messageCount(kafka, `${prefix}.participants`)).toBe(0);
  });

  it('fails instead of creating a topic that does not exist', async () => {
    const value = recordedEvent('document-1', 1);

    await expect(publisher.publish([{ topic: `${uniquePrefix()}.documents`, key: value.streamId, value }])).rejects.toThrow();
  });

  it('reports health: true when connected, false for a broker that does not answer', async () => {
    // No retries, so that no probe outlives the test (createKafka's client retries for ~30 s).
    const unreachable = new KafkaEventPublisher(new Kafka({ brokers: ['127.0.0.1:1'], clientId: 'health-spec', retry: { retries: 0 }, logLevel: logLevel.NOTHING }));
    const started = Date.now();

    expect(publisher.isConnected()).toBe(true);
    expect(await publisher.healthy()).toBe(true);
    expect(unreachable.isConnected()).toBe(false);
    expect(await unreachable.healthy(500)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    await unreachable.disconnect();
  });
});
