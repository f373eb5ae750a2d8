import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { createLogger } from '@einvoice/domain';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

const log = createLogger('gateway');

/** What a subscriber of a channel is told: a notification, or that some may have been missed. */
export interface ChannelSubscriber {
  notified(payload: string): void;
  /** The connection was (re)opened: notifications sent while it was down are lost. */
  resubscribed(): void;
}

/**
 * The gateway's ONE `LISTEN` connection to PostgreSQL, shared by everything that waits on a
 * NOTIFY (document outcomes, revoked API keys). Re-opened with backoff when it drops; each
 * subscriber is told when it is back, since what was notified meanwhile is lost.
 */
@Injectable()
export class PgNotifications implements OnModuleInit, OnApplicationShutdown {
  private client?: Client;
  private running = false;
  private readonly subscribers = new Map<string, ChannelSubscriber[]>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** Subscribes to `channel` (a constant identifier); call before the module initialises. */
  subscribe(channel: string, subscriber: ChannelSubscriber): void {
    if (!/^[a-z_]+$/.test(channel)) throw new RangeError(`Not a channel name: ${channel}`);
    this.subscribers.set(channel, [...(this.subscribers.get(channel) ?? []), subscriber]);
  }

  async onModuleInit(): Promise<void> {
    this.running = true;
    await this.listen().catch((error) => this.reconnect(1, error));
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.config.databaseUrl, application_name: 'einvoice-gateway-listener' });
    client.on('notification', (message) => {
      for (const subscriber of this.subscribers.get(message.channel) ?? []) subscriber.notified(message.payload ?? '');
    });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.client !== client || !this.running) return;
      this.client = undefined;
      this.reconnect(1, new Error('connection ended'));
    });
    await client.connect();
    for (const channel of this.subscribers.keys()) await client.query(`LISTEN ${channel}`);
    if (!this.running) return void (await client.end());
    this.client = client;
    for (const subscribers of this.subscribers.values()) subscribers.forEach((s) => s.resubscribed());
  }

  private reconnect(attempt: number, error: unknown): void {
    if (!this.running) return;
    const delayMs = Math.min(30_000, 250 * 2 ** attempt);
    log('warn', 'notification listener down; re-opening it', { attempt, delayMs, error: String(error) });
    setTimeout(() => void this.listen().catch((next) => this.reconnect(attempt + 1, next)), delayMs).unref();
  }
}
