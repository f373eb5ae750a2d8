import { Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import {
  EventStore,
  KafkaEventPublisher,
  OutboxRelay,
  createDataSource,
  createKafka,
  eventStoreOptions,
  platformEventRegistry,
  stopTracing,
} from '@einvoice/domain/infrastructure';
import { areaEventPlugins } from '@einvoice/areas';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { GATEWAY_CONFIG, GatewayConfig, loadGatewayConfig } from '../config';
import { createLogger } from '@einvoice/domain';

const log = createLogger('gateway');

/** Opens and closes the connections in order: PostgreSQL, Kafka producer, relay, Redis. */
@Injectable()
export class Connections implements OnModuleInit, OnApplicationShutdown {
  readonly dataSource: DataSource;
  readonly store: EventStore;
  readonly publisher: KafkaEventPublisher;
  readonly relay: OutboxRelay;
  readonly redis: Redis;

  constructor(@Inject(GATEWAY_CONFIG) readonly config: GatewayConfig) {
    this.dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 20, applicationName: 'einvoice-gateway' });
    // Built before anything connects: a registry with a missing piece fails the start.
    const registry = platformEventRegistry(areaEventPlugins());
    this.store = new EventStore(this.dataSource, {
      ...eventStoreOptions(registry, config.kafkaPrefix),
      // With its own relay leading, the gateway wakes it in-process; otherwise the leading relay needs the NOTIFY.
      wakeRelay: config.outboxRelay ? { afterCommit: () => this.relay.wakeIfLeading() } : 'notify',
    });
    // x-area from the registry: a worker passes over other areas' events without decoding them.
    this.publisher = new KafkaEventPublisher(createKafka({ ...config, kafkaClientId: 'einvoice-gateway' }), { areaOf: (event) => registry.areaOf(event) });
    this.relay = new OutboxRelay({
      dataSource: this.dataSource,
      databaseUrl: config.databaseUrl,
      publisher: this.publisher,
      topicPrefix: config.kafkaPrefix,
      log: (message, fields, level = 'warn') => log(level, message, fields),
    });
    this.redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined);
  }

  async onModuleInit(): Promise<void> {
    await this.dataSource.initialize();
    await this.redis.connect().catch((error) => log('warn', 'redis unavailable at start', { error: String(error) }));
    // Kafka may be down: requests still succeed and the outbox drains when it returns.
    await this.publisher.connect().catch((error) => log('warn', 'kafka unavailable at start', { error: String(error) }));
    if (this.config.outboxRelay) await this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
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
