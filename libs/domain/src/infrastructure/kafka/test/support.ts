// Test support for the Kafka integration tests (the broker: test/support/broker.ts): unique
// names per test (STYLE.md §5), and small readers. Not part of the build (tsconfig.build.json
// excludes test/ folders).
import { randomUUID } from 'node:crypto';
import type { Kafka, KafkaMessage } from 'kafkajs';
import type { RecordedEvent } from '../../../events';

/** A topic prefix nobody else uses. */
export function uniquePrefix(): string {
  return `t${Date.now()}${Math.random().toString(36).slice(2, 8)}`;
}

/** A RecordedEvent as the outbox relay would publish it. */
export function recordedEvent(streamId: string, streamPosition: number, data: object = {}): RecordedEvent {
  return {
    eventId: randomUUID(),
    streamId,
    streamPosition,
    globalPosition: String(streamPosition),
    type: 'DocumentSubmitted',
    schemaVersion: 1,
    data,
    metadata: { tenantId: 'tenant-1' },
    recordedAt: new Date().toISOString(),
  };
}

/** A message read back from a topic, with its partition. */
export type ReadMessage = KafkaMessage & { readonly partition: number };

/** Reads the first `count` messages of a topic with a throw-away group; fails after `timeoutMs`. */
export async function readTopic(kafka: Kafka, topic: string, count: number, timeoutMs = 15_000): Promise<ReadMessage[]> {
  const consumer = kafka.consumer({ groupId: `${topic}.reader.${randomUUID()}`, sessionTimeout: 6_000, heartbeatInterval: 500 });
  const messages: ReadMessage[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${messages.length} of ${count} messages from ${topic}`)), timeoutMs);
      void consumer.run({
        eachMessage: async ({ partition, message }) => {
          messages.push({ ...message, partition });
          if (messages.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return messages;
}

/**
 * Messages ever written to a topic (sum of high watermarks): proves that nothing was. Right after
 * a topic was created a broker may still answer NOT_LEADER (metadata lag, KAFKA-15780): asked again.
 */
export async function messageCount(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const offsets = await admin.fetchTopicOffsets(topic);
        return offsets.reduce((sum, p) => sum + Number(p.high), 0);
      } catch (error) {
        if ((error as { type?: string }).type !== 'NOT_LEADER_FOR_PARTITION' || attempt >= 50) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
        await admin.fetchTopicMetadata({ topics: [topic] }); // refreshes the client's idea of the leaders
      }
    }
  } finally {
    await admin.disconnect();
  }
}

/** Resolves once `predicate` holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, predicate: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const header = (message: KafkaMessage, name: string): string | undefined => message.headers?.[name]?.toString();
