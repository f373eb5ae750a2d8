import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../log';
import type { EventText, EventTextsHolder } from '../eventstore';
import type { FromRelayThread, RelayThreadData, ToRelayThread } from './relay-thread-messages';

/** What an app runs to publish its outbox: an OutboxRelay on its own thread, or a RelayThread. */
export interface RelayRunner extends EventTextsHolder {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Wakes the relay after this process's commits if it leads, and says so (EventStore's `wakeRelay`). */
  wakeIfLeading(): boolean;
}

/**
 * An app's compiled thread entry (`<dir>/<name>.js`, which calls runRelayThread), or undefined when
 * the app runs from its TypeScript sources (ts-jest's in-process tests): a thread cannot load those,
 * the relay then runs on the main thread.
 */
export function compiledThreadEntry(dir: string, name: string): string | undefined {
  const entry = path.join(dir, `${name}.js`);
  return existsSync(entry) ? entry : undefined;
}

const WAKE: ToRelayThread = { type: 'wake' };
const STOP: ToRelayThread = { type: 'stop' };

export interface RelayThreadOptions {
  /** The app's log (the thread's deaths and restarts). */
  readonly log: Logger;
  /** Whether its relay stands in (a worker's) or leads first (a gateway's): relay-lease.ts. */
  readonly standIn?: boolean;
  /** The thread's Node options; default the process's (`-r scripts/register-paths.cjs` resolves the path aliases). */
  readonly execArgv?: string[];
  /** The thread's environment, which its config is read from; default the process's. */
  readonly env?: NodeJS.ProcessEnv;
  /** How long a stop may take before the thread is terminated (default 15 s: a publish's timeout). */
  readonly stopTimeoutMs?: number;
  /** Longest wait before restarting a thread that died (default 30 s; from 1 s, doubling). */
  readonly maxRestartDelayMs?: number;
  /** Told when the thread's relay starts or stops leading the stack's publishing (a thread that ended stops). */
  readonly onLeadChange?: (leads: boolean) => void;
}

/**
 * The outbox relay on a worker thread (relay-thread-main.ts), with its own PostgreSQL session, LISTEN
 * connection and Kafka producer. The app's thread keeps what it answers requests with; it only
 * posts a wake after its commits while the relay leads (the thread tells it when that changes:
 * before it knows, a commit's NOTIFY wakes the relay instead). A thread that dies (an uncaught
 * error) is restarted with backoff; meanwhile the rows wait in the outbox, as when Kafka is down.
 */
export class RelayThread implements RelayRunner {
  private worker?: Worker;
  private leading = false;
  private running = false;
  private wakeQueued = false;
  /** The texts of this turn of the event loop's commits: they go in one message. */
  private queuedTexts?: EventText[];
  private restarts = 0;
  private restartTimer?: NodeJS.Timeout;
  /** Its relay's `textsHolder`, the same for every thread it starts: a restarted relay finds its texts gone and reads them from the events. */
  private readonly textsHolder = randomUUID();

  constructor(
    private readonly entry: string,
    private readonly options: RelayThreadOptions,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    await this.spawn();
  }

  wakeIfLeading(): boolean {
    if (!this.leading || this.worker === undefined) return false;
    // The commits of one turn of the event loop wake it once.
    if (!this.wakeQueued) {
      this.wakeQueued = true;
      setImmediate(() => {
        this.wakeQueued = false;
        this.worker?.postMessage(WAKE);
      });
    }
    return true;
  }

  textsHandedTo(): string | undefined {
    return this.leading && this.worker !== undefined ? this.textsHolder : undefined;
  }

  keepTexts(texts: readonly EventText[]): void {
    if (!this.leading || this.worker === undefined) return;
    if (this.queuedTexts) {
      this.queuedTexts.push(...texts);
      return;
    }
    const queued = [...texts];
    this.queuedTexts = queued;
    // Posted before the commits' answers come (a later turn): the port keeps the order, texts before their wake.
    setImmediate(() => {
      this.queuedTexts = undefined;
      const message: ToRelayThread = { type: 'texts', texts: queued };
      this.worker?.postMessage(message);
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.restartTimer);
    const worker = this.worker;
    this.worker = undefined;
    this.setLeading(false);
    if (worker === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    // The relay finishes its batch (what it published is marked), then closes its connections.
    const stopped = new Promise<void>((resolve) => {
      worker.on('message', (message: FromRelayThread) => message.type === 'stopped' && resolve());
      worker.once('exit', () => resolve());
      timer = setTimeout(resolve, this.options.stopTimeoutMs ?? 15_000);
    });
    worker.postMessage(STOP);
    await stopped;
    clearTimeout(timer);
    await worker.terminate();
  }

  /** Resolves when the thread's relay has started; rejects (and ends the thread) when it could not. */
  private spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      const data: RelayThreadData = { textsHolder: this.textsHolder, standIn: this.options.standIn ?? false };
      const worker = new Worker(this.entry, { execArgv: this.options.execArgv, env: this.options.env ?? process.env, workerData: data });
      this.worker = worker;
      let started = false;
      worker.on('message', (message: FromRelayThread) => {
        if (message.type === 'leads') {
          if (this.worker === worker) this.setLeading(message.leads);
        } else if (message.type === 'started') {
          started = true;
          this.restarts = 0;
          resolve();
        } else if (message.type === 'failed') {
          if (this.worker === worker) this.worker = undefined;
          reject(new Error(`the outbox relay's thread could not start: ${message.error}`));
          void worker.terminate();
        }
      });
      worker.on('error', (error) => this.options.log('error', 'the outbox relay\'s thread failed', { error: String(error?.stack ?? error) }));
      worker.on('exit', (code) => {
        if (this.worker !== worker) return;
        this.worker = undefined;
        this.setLeading(false);
        if (!started) reject(new Error(`the outbox relay's thread exited (${code}) before it started`));
        else if (this.running) this.restartLater();
      });
    });
  }

  private setLeading(leads: boolean): void {
    if (this.leading === leads) return;
    this.leading = leads;
    this.options.onLeadChange?.(leads);
  }

  private restartLater(): void {
    const delayMs = Math.min(this.options.maxRestartDelayMs ?? 30_000, 1000 * 2 ** this.restarts);
    this.restarts += 1;
    this.options.log('error', 'the outbox relay\'s thread ended; restarting it', { delayMs, restarts: this.restarts });
    this.restartTimer = setTimeout(() => {
      if (!this.running) return;
      this.spawn().catch((error) => {
        this.options.log('error', 'the outbox relay\'s thread did not restart', { error: String(error) });
        if (this.running) this.restartLater();
      });
    }, delayMs);
    this.restartTimer.unref();
  }
}
