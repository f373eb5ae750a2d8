// Test support for the Kafka integration tests: a real broker (scripts/lib/kafka.mjs), unique
// names per test (STYLE.md §5), and small readers. Not part of the build (tsconfig.build.json
// excludes test/ folders).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Kafka, KafkaMessage } from 'kafkajs';
import type { RecordedEvent } from '../../../events';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../../../../..');
const SCRIPT = path.join(ROOT, 'scripts/lib/kafka.mjs');

/** A broker for one test file. */
export interface TestBroker {
  readonly brokers: string[];
  /** Stops the broker if this file started it; a reused one (KAFKA_BROKERS) is left alone. */
  stop(): Promise<void>;
}

/**
 * Reuses the broker in KAFKA_BROKERS when set; otherwise starts one on free ports in a temp
 * folder. The script runs in a child process: jest cannot import ESM without
 * --experimental-vm-modules.
 */
export async function startTestBroker(): Promise<TestBroker> {
  if (process.env.KAFKA_BROKERS) {
    return { brokers: process.env.KAFKA_BROKERS.split(','), stop: async () => undefined };
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-kafka-test-'));
  const { stdout } = await run(process.execPath, [SCRIPT, 'start', '--port', '0', '--data-dir', dataDir], { cwd: ROOT });
  const started = JSON.parse(stdout) as { brokers: string; startMs: number };
  process.stderr.write(`test broker on ${started.brokers}, ready in ${started.startMs} ms\n`);
  return {
    brokers: [started.brokers],
    stop: async () => {
      await run(process.execPath, [SCRIPT, 'stop', '--data-dir', dataDir], { cwd: ROOT });
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

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

/** Messages ever written to a topic (sum of high watermarks): proves that nothing was. */
export async function messageCount(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high), 0);
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
