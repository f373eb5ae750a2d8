import { RecordedEvent, createLogger, documentDecider, documentStreamId } from '@einvoice/domain';
import { EventConsumer, EventStore, KafkaEventPublisher, ensureTopics, handleCommand, topicNames } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { waitUntil } from '../../../test/support/wait';
import { openTestKafka } from '../../../test/support/broker';
import { openTestDatabase } from '../../../test/support/database';
import { documentSubmitted } from '../../../test/support/fixtures';
import { SandboxAccessPoint } from './access-point/sandbox-access-point';
import { createDeliveryHandler } from './deliver-document';


describe('#2 delivery-worker consumer is idempotent over real Kafka and PostgreSQL', () => {
  const prefix = `deliv${Date.now().toString(36)}`;
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let store: EventStore;
  let publisher: KafkaEventPublisher;
  let consumer: EventConsumer;
  const delivered: string[] = [];

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase(prefix));
    const opened = await openTestKafka('delivery-int');
    ({ publisher, close } = opened);
    const kafka = opened.kafka;
    await ensureTopics(kafka, prefix);
    const topics = topicNames(prefix);
    const handle = createDeliveryHandler({
      store,
      accessPoint: new SandboxAccessPoint(store),
      groupId: `${prefix}.delivery-worker`,
      log: createLogger('delivery-int', 'error'),
    });
    consumer = new EventConsumer({
      kafka,
      groupId: `${prefix}.delivery-worker`,
      topics: [topics.documents],
      deadLetterTopic: topics.deadLetter,
      sessionTimeout: 10_000,
      heartbeatInterval: 1_000,
      handle: async (event, ctx) => {
        await handle(event, ctx);
        delivered.push(event.eventId);
      },
    });
    await consumer.start();
  }, 120_000);

  afterAll(async () => {
    await consumer?.stop();
    await dataSource?.destroy();
    await close?.();
  }, 60_000);

  it('the same DocumentSubmitted published three times (relay retries) is delivered once', async () => {
    const data = documentSubmitted({ fields: {} });
    const documentId = data.documentId;
    const [event] = await store.transaction((uow) =>
      handleCommand(uow, documentDecider, documentStreamId(documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }),
    );
    const message = { topic: topicNames(prefix).documents, key: event.streamId, value: event as RecordedEvent };
    await publisher.publish([message, message]);
    await publisher.publish([message]);

    await waitUntil('three handled copies', async () => delivered.filter((id) => id === event.eventId).length === 3);
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [event.streamId]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['DocumentSubmitted', 'DocumentDelivered']);
    const transmissions = await dataSource.query(`SELECT count(*)::int AS n FROM sandbox_ap_messages WHERE receiver = $1`, [data.receiverParticipantId]);
    expect(transmissions[0].n).toBe(1);
    const [row] = await dataSource.query(`SELECT delivery_status FROM documents WHERE id = $1`, [documentId]);
    expect(row.delivery_status).toBe('Delivered');
  });

  it('#11 decides from the event in hand first; a stream with more refuses the append, and the retry reads it: one delivery', async () => {
    const data = documentSubmitted({ fields: {} });
    const [event] = await store.transaction((uow) =>
      handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }),
    );
    const handlerOf = (groupId: string) => createDeliveryHandler({ store, accessPoint: new SandboxAccessPoint(store), groupId, log: createLogger('delivery-int', 'error') });
    const ctx = (attempt: number) => ({ topic: 't', partition: 0, offset: '0', attempt, headers: {}, heartbeat: async () => undefined });
    await handlerOf(`${prefix}.a`)(event, ctx(1));
    // Another consumer group (a second deployment) meets the same event: its first try assumes the
    // stream is that event alone, and the stream's second position is taken.
    const other = handlerOf(`${prefix}.b`);
    await expect(other(event, ctx(1))).rejects.toMatchObject({ code: 'STREAM.WRONG_EXPECTED_VERSION', retriable: true });
    await expect(other(event, ctx(2))).resolves.toBeUndefined();
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [event.streamId]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['DocumentSubmitted', 'DocumentDelivered']);
  });
});
