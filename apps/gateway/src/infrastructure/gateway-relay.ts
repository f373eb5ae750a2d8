import { createLogger } from '@einvoice/domain';
import { type EventRegistry, KafkaEventPublisher, OutboxRelay, createKafka } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import type { GatewayConfig } from '../config';

const log = createLogger('gateway');

/** The gateway's Kafka publisher: `x-area` from the registry, so a worker passes over other areas' events without decoding them. */
export function gatewayPublisher(config: GatewayConfig, registry: EventRegistry): KafkaEventPublisher {
  return new KafkaEventPublisher(createKafka({ ...config, kafkaClientId: 'einvoice-gateway' }), { areaOf: (event) => registry.areaOf(event) });
}

/** The gateway's outbox relay, built alike on the main thread and on a thread of its own (relay-thread.ts). */
export function gatewayRelay(
  config: GatewayConfig,
  publisher: KafkaEventPublisher,
  dataSource: DataSource,
  onLeadChange?: (leads: boolean) => void,
  /** The name its process's outbox rows give it (OutboxRelay `textsHolder`): a relay on a thread is given it by its process. */
  textsHolder?: string,
): OutboxRelay {
  return new OutboxRelay({
    dataSource,
    databaseUrl: config.databaseUrl,
    publisher,
    topicPrefix: config.kafkaPrefix,
    log: (message, fields, level = 'warn') => log(level, message, fields),
    onLeadChange,
    textsHolder,
  });
}
