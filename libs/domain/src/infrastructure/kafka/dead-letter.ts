import type { IHeaders, KafkaMessage, Producer } from 'kafkajs';
import { compressionFor } from './message-size';
import { errorCode, errorMessage } from './retry';

/** Where a dead-lettered message came from and why it failed; kept in its headers. */
export interface DeadLetterInfo {
  readonly topic: string;
  readonly partition: number;
  readonly groupId: string;
  /** Handler tries made: 0 when the message could not even be parsed. */
  readonly attempts: number;
  readonly error: unknown;
  readonly failedAt: Date;
}

/** Headers added to a dead-lettered message (the original key, value and headers are kept). */
export function deadLetterHeaders(message: Pick<KafkaMessage, 'offset'>, info: DeadLetterInfo): Record<string, string> {
  return {
    'x-original-topic': info.topic,
    'x-original-partition': String(info.partition),
    'x-original-offset': message.offset,
    'x-consumer-group': info.groupId,
    'x-error-code': errorCode(info.error),
    // Headers travel with every fetch: keep them small.
    'x-error-message': errorMessage(info.error).slice(0, 1_000),
    'x-attempts': String(info.attempts),
    'x-failed-at': info.failedAt.toISOString(),
  };
}

/**
 * Copies a message to the dead-letter topic with the same key (so a replay keeps its order per
 * key) and waits for all in-sync replicas. If this throws, the caller must not move the offset.
 */
export async function sendToDeadLetter(
  producer: Producer,
  deadLetterTopic: string,
  message: Pick<KafkaMessage, 'key' | 'value' | 'headers' | 'offset'>,
  info: DeadLetterInfo,
): Promise<void> {
  const headers: IHeaders = { ...message.headers, ...deadLetterHeaders(message, info) };
  // A large event dead-letters as it came: compressed like the relay sent it, or it would not fit.
  const compression = compressionFor(message.value?.length ?? 0);
  await producer.send({ topic: deadLetterTopic, acks: -1, compression, messages: [{ key: message.key, value: message.value, headers }] });
}
