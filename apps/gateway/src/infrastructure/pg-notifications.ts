import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { createLogger } from '@einvoice/domain';
import { type ChannelSubscriber, PgListener } from '@einvoice/domain/infrastructure';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

export type { ChannelSubscriber };

/**
 * The gateway's ONE `LISTEN` connection to PostgreSQL (PgListener), shared by everything that waits
 * on a NOTIFY (document outcomes, revoked API keys); subscribers subscribe before the module starts.
 */
@Injectable()
export class PgNotifications implements OnModuleInit, OnApplicationShutdown {
  private readonly listener: PgListener;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.listener = new PgListener({ connectionString: config.databaseUrl, applicationName: 'einvoice-gateway-listener', log: createLogger('gateway') });
  }

  /** Subscribes to `channel` (a constant identifier); call before the module initialises. */
  subscribe(channel: string, subscriber: ChannelSubscriber): void {
    this.listener.subscribe(channel, subscriber);
  }

  onModuleInit(): Promise<void> {
    return this.listener.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.listener.stop();
  }
}
