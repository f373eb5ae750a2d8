import { Global, Inject, Injectable, Module, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import {
  EventStore,
  KafkaEventPublisher,
  OutboxPublishing,
  OutboxRelay,
  compiledThreadEntry,
  createDataSource,
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
  /** The gateway's outbox relay, on a thread of its own unless OUTBOX_RELAY says otherwise (OutboxPublishing). */
  private readonly publishing: OutboxPublishing;
  /** /health's Kafka probe. */
  readonly publisher: KafkaEventPublisher;
  /** The outbox's backlog and parked rows for /health. */
  readonly relay: OutboxRelay;
  readonly redis: Redis;

  constructor(@Inject(GATEWAY_CONFIG) readonly config: GatewayConfig) {
    this.dataSource = createDataSource({ databaseUrl: config.databaseUrl, poolSize: 20, applicationName: 'einvoice-gateway' });
    // Built before anything connects: a registry with a missing piece fails the start.
    const registry = platformEventRegistry(areaEventPlugins());
    // A gateway's relay leads the stack's publishing first (a worker's stands in while none runs): relay-lease.ts.
    this.publishing = new OutboxPublishing({
      app: 'gateway',
      config,
      registry,
      dataSource: this.dataSource,
      log,
      standIn: false,
      threadEntry: compiledThreadEntry(__dirname, 'relay-thread'),
    });
    this.store = new EventStore(this.dataSource, { ...eventStoreOptions(registry, config.kafkaPrefix), wakeRelay: this.publishing.wakeRelay });
    this.publisher = this.publishing.publisher;
    this.relay = this.publishing.relay;
    this.redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.redis.on('error', () => undefined);
  }

  async onModuleInit(): Promise<void> {
    await this.dataSource.initialize();
    await this.redis.connect().catch((error) => log('warn', 'redis unavailable at start', { error: String(error) }));
    await this.publishing.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.publishing.stop();
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
