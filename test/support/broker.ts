// A Kafka broker a test can stop and start again on the same port and data folder (the outbox
// must survive the broker going away). Runs scripts/lib/kafka.mjs in a child process.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { KafkaEventPublisher, createKafka, type Kafka } from '@einvoice/domain/infrastructure';
import { freePort } from './stack';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'lib', 'kafka.mjs');


export class RestartableBroker {
  private constructor(
    readonly port: number,
    private readonly dataDir: string,
  ) {}

  static async create(): Promise<RestartableBroker> {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'einvoice-broker-'));
    return new RestartableBroker(await freePort(), dataDir);
  }

  get brokers(): string[] {
    return [`127.0.0.1:${this.port}`];
  }

  async start(): Promise<void> {
    await run(process.execPath, [SCRIPT, 'start', '--port', String(this.port), '--data-dir', this.dataDir], { cwd: ROOT });
  }

  async stop(): Promise<void> {
    await run(process.execPath, [SCRIPT, 'stop', '--data-dir', this.dataDir], { cwd: ROOT });
  }

  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    await rm(this.dataDir, { recursive: true, force: true });
  }
}

/** The broker `npm test` started (KAFKA_BROKERS), or a fresh one for this file, stopped by `stop()`. */
export async function useTestBroker(): Promise<{ brokers: string[]; stop(): Promise<void> }> {
  if (process.env.KAFKA_BROKERS) return { brokers: process.env.KAFKA_BROKERS.split(','), stop: async () => undefined };
  const broker = await RestartableBroker.create();
  await broker.start();
  return { brokers: broker.brokers, stop: () => broker.destroy() };
}

/** A Kafka client and a connected publisher on the test broker; `close()` undoes both. */
export async function openTestKafka(clientId: string): Promise<{
  kafka: Kafka;
  publisher: KafkaEventPublisher;
  close(): Promise<void>;
}> {
  const broker = await useTestBroker();
  const kafka = createKafka({ kafkaBrokers: broker.brokers, kafkaClientId: clientId });
  const publisher = new KafkaEventPublisher(kafka);
  await publisher.connect();
  return {
    kafka,
    publisher,
    close: async () => {
      await publisher.disconnect().catch(() => undefined);
      await broker.stop();
    },
  };
}
