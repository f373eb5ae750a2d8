// Set before kafkajs is used: it warns once, at the first producer, that v2 changed the default
// partitioner. Our keys have never been partitioned by the legacy one, so the new default is fine.
process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1';

import { Kafka, logLevel as LogLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { InfrastructureConfig } from '../config';
// The patches are applied when their module loads: before any client below exists.
import './patches';

/** What `createKafka` needs from the environment config (infrastructure/config.ts). */
export type KafkaClientConfig = Pick<InfrastructureConfig, 'kafkaBrokers' | 'kafkaClientId'> & {
  /** `warn` (default) or `error`; kafkajs is chatty at info. */
  readonly logLevel?: 'warn' | 'error';
};

/**
 * The one place a kafkajs client is built (all direct kafkajs use lives in this folder, so a
 * later switch of client touches one place; kafkajs is maintenance-only, tulios/kafkajs#1603).
 */
export function createKafka(config: KafkaClientConfig): Kafka {
  return new Kafka({
    clientId: config.kafkaClientId,
    brokers: [...config.kafkaBrokers],
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    // About 30 s of reconnecting before an error reaches the caller; the outbox relay and the
    // consumers' own restart take over from there (Kafka down = the outbox grows).
    retry: { initialRetryTime: 300, maxRetryTime: 10_000, retries: 6 },
    logLevel: config.logLevel === 'error' ? LogLevel.ERROR : LogLevel.WARN,
    logCreator: jsonLineLogCreator,
  });
}

const LEVEL_NAMES: Record<number, string> = {
  [LogLevel.ERROR]: 'error',
  [LogLevel.WARN]: 'warn',
  [LogLevel.INFO]: 'info',
  [LogLevel.DEBUG]: 'debug',
};

// The first JoinGroup of every member is answered MEMBER_ID_REQUIRED by design (KIP-394) and
// kafkajs logs it as an error (tulios/kafkajs#856); it is not one.
const EXPECTED_ERRORS = ['The group member needs to have a valid member id before actually entering a consumer group'];

/** kafkajs log entries as one JSON line each on stderr, like the rest of the service's logs. */
export const jsonLineLogCreator: logCreator = () => (entry: LogEntry) => {
  const { timestamp, message, ...extra } = entry.log;
  if (typeof extra.error === 'string' && EXPECTED_ERRORS.includes(extra.error)) return;
  process.stderr.write(
    `${JSON.stringify({ time: timestamp, level: LEVEL_NAMES[entry.level] ?? entry.label, logger: `kafkajs.${entry.namespace}`, message, ...extra })}\n`,
  );
};
