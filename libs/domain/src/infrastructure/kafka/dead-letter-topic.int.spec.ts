// The operator's view of the dead-letter topic (`cli dlq list`, `cli dlq replay`) on a real broker and
// PostgreSQL: a message a handler refused is listed with its origin and error; replayed, the handler
// gets it again, once; a second replay sends nothing.
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { openTestKafka } from '../../../../../test/support/broker';
import { openTestDatabase } from '../../../../../test/support/database';
import { AppError } from '../../errors';
import { EventConsumer } from './consumer';
import { listDeadLetters, replayDeadLetter } from './dead-letter-topic';
import type { KafkaEventPublisher } from './publisher';
import { messageCount, recordedEvent, uniquePrefix, waitFor } from './test/support';
import { ensureTopics, topicNames } from './topics';

jest.setTimeout(120_000);

describe('the dead-letter topic for an operator', () => {
  let kafka: Kafka;
  let publisher: KafkaEventPublisher;
  let close: () => Promise<void>;
  let dataSource: DataSource;
  let consumer: EventConsumer | undefined;
  const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => dataSource.query(sql, params);

  beforeAll(async () => {
    ({ kafka, publisher, close } = await openTestKafka('dead-letter-topic-int-spec'));
    ({ dataSource } = await openTestDatabase());
  }, 120_000);

  afterAll(async () => {
    await consumer?.stop();
    await close?.();
    await dataSource?.destroy();
  });

  it('lists a refused message with its origin and error; a replay reaches the handler once; a second replay sends nothing', async () => {
    const topics = topicNames(uniquePrefix());
    await ensureTopics(kafka, topics.documents.replace(/\.documents$/, ''));
    const event = { ...recordedEvent('document-44444444-aaaa-4bbb-8ccc-000000000000', 1), type: 'DocumentSubmitted' };
    let refuse = true;
    const handled: string[] = [];
    consumer = new EventConsumer({
      kafka, groupId: `${topics.documents}.worker`, topics: [topics.documents], deadLetterTopic: topics.deadLetter, sessionTimeout: 6_000, heartbeatInterval: 500,
      handle: async (e) => {
        if (refuse) throw new AppError('validation', 'TEST.REFUSED', 'Refused by the test.', { retriable: false });
        handled.push(e.eventId);
      },
    });
    await consumer.start();
    await publisher.publish([{ topic: topics.documents, key: event.streamId, value: event }]);
    const listed = await (async () => {
      for (let i = 0; i < 100; i++) {
        if ((await messageCount(kafka, topics.deadLetter)) > 0) return listDeadLetters(kafka, query, topics.deadLetter);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      throw new Error('nothing dead-lettered');
    })();
    expect(listed).toEqual([expect.objectContaining({
      id: expect.stringMatching(/^\d+:0$/), eventId: event.eventId, type: 'DocumentSubmitted', originalTopic: topics.documents,
      consumerGroup: `${topics.documents}.worker`, errorCode: 'TEST.REFUSED', error: 'Refused by the test.', attempts: 1, replayedAt: null,
    })]);

    refuse = false;
    const before = await messageCount(kafka, topics.documents);
    const first = await replayDeadLetter(kafka, query, topics.deadLetter, listed[0].id);
    expect(first).toMatchObject({ replayed: true, to: topics.documents });
    await waitFor('the replayed event handled', () => handled.length > 0, 30_000);
    expect(handled).toEqual([event.eventId]);

    const second = await replayDeadLetter(kafka, query, topics.deadLetter, listed[0].id);
    expect(second).toEqual({ replayed: false, at: first.at, to: null });
    expect(await messageCount(kafka, topics.documents)).toBe(before + 1);
    expect((await listDeadLetters(kafka, query, topics.deadLetter))[0].replayedAt).toBe(first.at);
    await expect(replayDeadLetter(kafka, query, topics.deadLetter, '0:999')).rejects.toMatchObject({ code: 'DLQ.NOT_FOUND' });
  });
});
