/**
 * The dead-letter topic for an operator (`cli dlq list`, `cli dlq replay <id>`): each message named by
 * `partition:offset`, with where it came from and why it failed (dead-letter.ts headers); a replay sends
 * it back to its original topic with its key, value and event headers, once (table
 * `dead_letter_replays`). Consumers are idempotent per event (processed marks), so a group that already
 * handled the event passes over it, and the group that failed handles it now.
 */
import { randomUUID } from 'node:crypto';
import type { IHeaders, Kafka, KafkaMessage } from 'kafkajs';
import { AppError } from '../../errors';
import { headerString } from './codec';
import { EVENT_HEADERS } from './headers';
import { compressionFor } from './message-size';

export interface DeadLetter {
  /** `partition:offset` in the dead-letter topic. */
  readonly id: string;
  readonly eventId: string | null;
  readonly type: string | null;
  readonly area: string | null;
  readonly originalTopic: string | null;
  readonly consumerGroup: string | null;
  readonly errorCode: string | null;
  readonly error: string | null;
  readonly attempts: number | null;
  readonly failedAt: string | null;
}

/** The headers dead-lettering adds (dead-letter.ts), dropped again on replay. */
const DEAD_LETTER_HEADERS = ['x-original-topic', 'x-original-partition', 'x-original-offset', 'x-consumer-group', 'x-error-code', 'x-error-message', 'x-attempts', 'x-failed-at'];
const READ_TIMEOUT_MS = 60_000;

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>;

function describe(partition: number, message: KafkaMessage): DeadLetter {
  const h = (name: string) => headerString(message.headers, name) ?? null;
  const attempts = h('x-attempts');
  return {
    id: `${partition}:${message.offset}`,
    eventId: h(EVENT_HEADERS.eventId),
    type: h(EVENT_HEADERS.type),
    area: h(EVENT_HEADERS.area),
    originalTopic: h('x-original-topic'),
    consumerGroup: h('x-consumer-group'),
    errorCode: h('x-error-code'),
    error: h('x-error-message'),
    attempts: attempts === null ? null : Number(attempts),
    failedAt: h('x-failed-at'),
  };
}

/** Every message of the topic up to its end, read by a throwaway consumer group (deleted afterwards). */
export async function readTopic(kafka: Kafka, topic: string): Promise<Array<{ partition: number; message: KafkaMessage }>> {
  const admin = kafka.admin();
  await admin.connect();
  const groupId = `einvoice-cli-read-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId });
  try {
    const remaining = new Map((await admin.fetchTopicOffsets(topic)).filter((p) => Number(p.high) > Number(p.low)).map((p) => [p.partition, Number(p.high)]));
    if (!remaining.size) return [];
    const read: Array<{ partition: number; message: KafkaMessage }> = [];
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${topic} not read to its end within ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS);
      consumer
        .run({
          autoCommit: false,
          eachMessage: async ({ partition, message }) => {
            if (!remaining.has(partition)) return;
            read.push({ partition, message });
            if (Number(message.offset) + 1 >= remaining.get(partition)!) remaining.delete(partition);
            if (!remaining.size) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
    return read.sort((a, b) => a.partition - b.partition || Number(a.message.offset) - Number(b.message.offset));
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await admin.deleteGroups([groupId]).catch(() => undefined);
    await admin.disconnect();
  }
}

/** The dead-lettered messages, oldest first per partition, with when each was replayed (if it was). */
export async function listDeadLetters(kafka: Kafka, query: Query, topic: string): Promise<Array<DeadLetter & { replayedAt: string | null }>> {
  const replays = new Map(
    (await query<{ message_id: string; replayed_at: Date | null }>(`SELECT message_id, replayed_at FROM dead_letter_replays WHERE topic = $1`, [topic])).map((r) => [r.message_id, r.replayed_at]),
  );
  return (await readTopic(kafka, topic)).map(({ partition, message }) => {
    const letter = describe(partition, message);
    return { ...letter, replayedAt: replays.get(letter.id)?.toISOString() ?? null };
  });
}

/**
 * Sends dead-lettered message `id` back to its original topic, once: a second replay answers when the
 * first was. A replay cut short (the row claimed, never marked replayed) may be sent again a minute later.
 */
export async function replayDeadLetter(kafka: Kafka, query: Query, topic: string, id: string): Promise<{ readonly replayed: boolean; readonly at: string; readonly to: string | null }> {
  const [done] = await query<{ replayed_at: Date | null }>(`SELECT replayed_at FROM dead_letter_replays WHERE topic = $1 AND message_id = $2`, [topic, id]);
  if (done?.replayed_at) return { replayed: false, at: done.replayed_at.toISOString(), to: null };
  const found = (await readTopic(kafka, topic)).find(({ partition, message }) => `${partition}:${message.offset}` === id);
  if (!found) throw new AppError('not_found', 'DLQ.NOT_FOUND', `No message ${id} in ${topic}.`, { retriable: false });
  const letter = describe(found.partition, found.message);
  if (!letter.originalTopic) throw new AppError('validation', 'DLQ.NO_ORIGIN', `Message ${id} does not say which topic it came from.`, { retriable: false });
  const claimed = await query(
    `INSERT INTO dead_letter_replays (topic, message_id, event_id) VALUES ($1, $2, $3)
     ON CONFLICT (topic, message_id) DO UPDATE SET requested_at = now()
     WHERE dead_letter_replays.replayed_at IS NULL AND dead_letter_replays.requested_at < now() - interval '1 minute'
     RETURNING 1`,
    [topic, id, letter.eventId],
  );
  if (!claimed.length) throw new AppError('conflict', 'DLQ.REPLAY_IN_PROGRESS', `Message ${id} is being replayed right now.`, { retriable: true });
  const headers: IHeaders = Object.fromEntries(Object.entries(found.message.headers ?? {}).filter(([name]) => !DEAD_LETTER_HEADERS.includes(name)));
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    // A large event goes back as it came: compressed like the relay sent it, or it would not fit.
    await producer.send({ topic: letter.originalTopic, acks: -1, compression: compressionFor(found.message.value?.length ?? 0), messages: [{ key: found.message.key, value: found.message.value, headers: { ...headers, 'x-replayed-from': `${topic}:${id}` } }] });
  } finally {
    await producer.disconnect();
  }
  // A CTE: the answer is rows whichever client runs it (TypeORM answers a bare UPDATE with a count).
  const [row] = await query<{ replayed_at: Date }>(`WITH done AS (UPDATE dead_letter_replays SET replayed_at = now() WHERE topic = $1 AND message_id = $2 RETURNING replayed_at) SELECT replayed_at FROM done`, [topic, id]);
  return { replayed: true, at: row.replayed_at.toISOString(), to: letter.originalTopic };
}
