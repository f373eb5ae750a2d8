import { Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { EventStore, KafkaEventPublisher, OutboxRelay, createDataSource, eventStoreOptions, platformEventRegistry, stopTracing } from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { GATEWAY_CONFIG, GatewayConfig, loadGatewayConfig } from '../config';
import { gatewayPublisher, gatewayRelay } from './gateway-relay';
import { RelayThread, type RelayRunner, relayThreadEntry } from './relay-on-thread';
import { createLogger } from '@einvoice/domain';

const log = createLogger('gateway');

/** Opens and closes the connections in order: PostgreSQL, Kafka producer, relay, Redis. */
@Injectable()
export class Connections implements OnModuleInit, OnApplicationShutdown {
  readonly dataSource: DataSource;
  readonly store: EventStore;
  /** Publishes when the relay runs in-process; /health's Kafka probe in any case. */
  readonly publisher: KafkaEventPublisher;
  /** The outbox's backlog and parked rows for /health; the publishing relay too when it runs in-process. */
  readonly relay: OutboxRelay;
  /** What publishes the outbox (config `outboxRelay`): this relay, a RelayThread, or none. */
  private readonly relaying?: RelayRunner;
  readonly redis: Redis;

  constructor(@Inject(GATEWAY_CONFIG) readonly config: GatewayConfig) {
    this.dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 20, applicationName: 'einvoice-gateway' });
    // Built before anything connects: a registry with a missing piece fails the start.
    const registry = platformEventRegistry(areaEventPlugins());
    const threadEntry = config.outboxRelay === 'thread' ? relayThreadEntry() : undefined;
    this.store = new EventStore(this.dataSource, {
      ...eventStoreOptions(registry, config.kafkaPrefix),
      // With its own relay leading, the gateway wakes it in-process; otherwise the leading relay needs the NOTIFY.
      wakeRelay: config.outboxRelay !== 'off'
        ? { afterCommit: () => this.relaying?.wakeIfLeading() ?? false, texts: { keepTexts: (texts) => this.relaying?.keepTexts(texts), textsHandedTo: () => this.relaying?.textsHandedTo() } }
        : 'notify',
    });
    this.publisher = gatewayPublisher(config, registry);
    this.relay = gatewayRelay(config, this.publisher, this.dataSource);
    const onLeadChange = (leads: boolean) => log('info', leads ? 'the outbox relay on its thread leads the stack\'s publishing' : 'the outbox relay on its thread no longer leads');
    if (config.outboxRelay !== 'off') this.relaying = threadEntry ? new RelayThread(threadEntry, { onLeadChange }) : this.relay;
    this.redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined);
  }

  async onModuleInit(): Promise<void> {
    await this.dataSource.initialize();
    await this.redis.connect().catch((error) => log('warn', 'redis unavailable at start', { error: String(error) }));
    // Kafka may be down: requests still succeed and the outbox drains when it returns. A relay
    // on its thread has a producer of its own: this one's only probes the brokers for /health.
    if (this.relaying === this.relay) await this.publisher.connect().catch((error) => log('warn', 'kafka unavailable at start', { error: String(error) }));
    await this.relaying?.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relaying?.stop();
    await this.publisher.disconnect().catch(() => undefined);
    this.redis.disconnect();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    // The spans still buffered (the relay's last publishes included).
    await stopTracing();
  }
}

@Global()
@Module({
  providers: [{ provide: GATEWAY_CONFIG, useFactory: () => loadGatewayConfig() }, Connections],
  exports: [GATEWAY_CONFIG, Connections],
})
export class InfrastructureModule {}
