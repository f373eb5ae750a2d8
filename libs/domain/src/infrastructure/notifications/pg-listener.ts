import { Client } from 'pg';
import type { Logger } from '../../log';

/** What a subscriber of a channel is told: a notification, or that some may have been missed. */
export interface ChannelSubscriber {
  notified(payload: string): void;
  /** The connection was (re)opened: notifications sent while it was down are lost. */
  resubscribed(): void;
}

export interface PgListenerOptions {
  readonly connectionString: string;
  /** `application_name` of the connection (pg_stat_activity). */
  readonly applicationName: string;
  readonly log: Logger;
}

/**
 * A process's ONE `LISTEN` connection to PostgreSQL, shared by everything in it that waits on a
 * NOTIFY (the gateway: document outcomes, revoked API keys; the reporting worker: reports requested).
 * Re-opened with backoff when it drops; each subscriber is told when it is back, since what was
 * notified meanwhile is lost (every listener has its fallback: a deadline read, a periodic round).
 */
export class PgListener {
  private client?: Client;
  private running = false;
  private readonly subscribers = new Map<string, ChannelSubscriber[]>();

  constructor(private readonly options: PgListenerOptions) {}

  /** Subscribes to `channel` (a constant identifier); call before `start`. */
  subscribe(channel: string, subscriber: ChannelSubscriber): void {
    if (!/^[a-z_]+$/.test(channel)) throw new RangeError(`Not a channel name: ${channel}`);
    this.subscribers.set(channel, [...(this.subscribers.get(channel) ?? []), subscriber]);
  }

  /** Opens the connection; a failure is retried in the background (never thrown). */
  async start(): Promise<void> {
    this.running = true;
    await this.listen().catch((error) => this.reconnect(1, error));
  }

  async stop(): Promise<void> {
    this.running = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.options.connectionString, application_name: this.options.applicationName });
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
    this.options.log('warn', 'notification listener down; re-opening it', { attempt, delayMs, error: String(error) });
    setTimeout(() => void this.listen().catch((next) => this.reconnect(attempt + 1, next)), delayMs).unref();
  }
}
