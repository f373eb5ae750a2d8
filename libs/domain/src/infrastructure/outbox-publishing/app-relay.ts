import type { DataSource } from 'typeorm';
import type { Logger } from '../../log';
import type { InfrastructureConfig } from '../config';
import { OutboxRelay } from '../eventstore';
import { KafkaEventPublisher, createKafka } from '../kafka';
import type { EventRegistry } from '../plugins';

/** What an app's relay is built from, on its main thread and on a thread of its own alike (relay-thread-main.ts). */
export interface AppRelaySettings {
  /** The app (`gateway`, `delivery-worker`...): its Kafka client id and the relay's sessions' names are `einvoice-<app>…`. */
  readonly app: string;
  readonly config: InfrastructureConfig;
  readonly log: Logger;
  /** A worker's relay stands in while no gateway's runs (relay-lease.ts). */
  readonly standIn: boolean;
}

/** An app's Kafka publisher: `x-area` from the registry, so a worker passes over other areas' events without decoding them. */
export function appPublisher({ app, config }: AppRelaySettings, registry: EventRegistry): KafkaEventPublisher {
  return new KafkaEventPublisher(createKafka({ ...config, kafkaClientId: `einvoice-${app}` }), { areaOf: (event) => registry.areaOf(event) });
}

/** An app's outbox relay: every app's with the same settings, on its main thread or on a thread of its own. */
export function appRelay(
  settings: AppRelaySettings,
  publisher: KafkaEventPublisher,
  dataSource: DataSource,
  onLeadChange?: (leads: boolean) => void,
  /** The name its process's outbox rows give it (OutboxRelay `textsHolder`): a relay on a thread is given it by its process. */
  textsHolder?: string,
): OutboxRelay {
  const { app, config, log, standIn } = settings;
  return new OutboxRelay({
    dataSource,
    databaseUrl: config.databaseUrl,
    publisher,
    topicPrefix: config.kafkaPrefix,
    log: (message, fields, level = 'warn') => log(level, message, fields),
    onLeadChange,
    textsHolder,
    standIn,
    app,
  });
}
