import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Client } from 'pg';
import { createLogger } from '@einvoice/domain';
import { DOCUMENT_OUTCOME_CHANNEL } from '@einvoice/domain/infrastructure';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

const log = createLogger('gateway');

/**
 * Waits for a document's outcome without polling PostgreSQL: ONE `LISTEN document_outcome`
 * connection per gateway; the reporting worker's projection NOTIFYs the document id from the
 * transaction that records the authority's answer (delivered at commit only). A waiter reads its row
 * once after registering (an answer committed before it registered), once per notification of its
 * id, and once at its deadline (a notification lost while the connection was down). The connection
 * is re-opened with backoff when it drops.
 */
@Injectable()
export class OutcomeWaiter implements OnModuleInit, OnApplicationShutdown {
  private client?: Client;
  private running = false;
  private readonly waiters = new Map<string, Set<() => void>>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

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

  /**
   * Reads until `done` holds for the row, waking on the notifications of `id`, for at most `waitMs`;
   * the last row read (or undefined) when time runs out.
   */
  async waitFor<R>(id: string, waitMs: number, read: () => Promise<R | undefined>, done: (row: R) => boolean): Promise<R | undefined> {
    const deadline = Date.now() + waitMs;
    let wake: () => void = () => undefined;
    let woken = new Promise<void>((resolve) => (wake = resolve));
    const waiter = () => wake();
    const set = this.waiters.get(id) ?? new Set();
    set.add(waiter);
    this.waiters.set(id, set);
    try {
      let row = await read();
      while (!(row !== undefined && done(row))) {
        const left = deadline - Date.now();
        if (left <= 0 || !(await notifiedWithin(woken, left))) return await read();
        woken = new Promise<void>((resolve) => (wake = resolve));
        row = await read();
      }
      return row;
    } finally {
      set.delete(waiter);
      if (set.size === 0) this.waiters.delete(id);
    }
  }

  private async listen(): Promise<void> {
    const client = new Client({ connectionString: this.config.databaseUrl, application_name: 'einvoice-outcome-listener' });
    client.on('notification', (message) => {
      for (const waiter of this.waiters.get(message.payload ?? '') ?? []) waiter();
    });
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.client !== client || !this.running) return;
      this.client = undefined;
      this.reconnect(1, new Error('connection ended'));
    });
    await client.connect();
    await client.query(`LISTEN ${DOCUMENT_OUTCOME_CHANNEL}`);
    if (!this.running) return void (await client.end());
    this.client = client;
  }

  private reconnect(attempt: number, error: unknown): void {
    if (!this.running) return;
    const delayMs = Math.min(30_000, 250 * 2 ** attempt);
    log('warn', 'outcome listener down; waiters read at their deadline until it is back', { attempt, delayMs, error: String(error) });
    setTimeout(() => void this.listen().catch((next) => this.reconnect(attempt + 1, next)), delayMs).unref();
  }
}

/** True when `woken` settles within `ms`. */
async function notifiedWithin(woken: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([woken.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
