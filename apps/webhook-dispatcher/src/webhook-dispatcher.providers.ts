// What the webhook dispatcher owns besides its consumer, as Nest providers, stopped on SIGTERM in
// the order of README "How it works": the BullMQ worker and the first attempts before the consumer
// (they finish what is in flight), then the sweeper, then the queue (a module of its own, so after the
// sweeper), then the pool.
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { Queue, Worker } from 'bullmq';
import { SecretBox, type WebhookConfig, createLogger, loadWebhookConfig } from '@einvoice/domain';
import {
  ACCOUNT_EVENTS_CHANNEL,
  WORKER_RUNTIME,
  type WorkerRuntime,
  PgListener,
  WEBHOOK_ENDPOINTS_CHANNEL,
  createWebhookQueue,
  enabledAccountEndpoints,
  failingWebhookQueueName,
  pooledSql,
  webhookQueueName,
} from '@einvoice/domain/infrastructure';
import { AccountEventsTail } from './account-events-tail';
import { EndpointCache } from './endpoint-cache';
import { EndpointGate, loadEndpointGateSettings } from './endpoint-gate';
import { FirstAttempts } from './first-attempts';
import { createWebhookWorker } from './processor';
import { Sweeper } from './sweeper';

export const log = createLogger('webhook-dispatcher');

/** Settings and the secrets key, read at start-up: production without SECRETS_KEY fails before consuming anything. */
@Injectable()
export class WebhookSettings {
  readonly config: WebhookConfig = loadWebhookConfig();
  readonly secrets: SecretBox = SecretBox.fromEnv();
  /** The process's per-endpoint isolation (endpoint-gate.ts), shared by its first attempts and both lanes. */
  readonly gate = new EndpointGate(loadEndpointGateSettings());
  /** Retries in flight in the failing lane (its worker's concurrency). */
  readonly failingConcurrency = Math.max(1, Math.floor(Number(process.env.WEBHOOK_FAILING_CONCURRENCY ?? 20)) || 20);
}

/** The BullMQ queues of deliveries, the fast lane's and the failing lane's (filled by the consumer, the tail and the sweeper); closed after them. */
@Injectable()
export class WebhookQueue implements OnApplicationShutdown {
  readonly queue: Queue;
  readonly failingQueue: Queue;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime) {
    this.queue = createWebhookQueue(runtime.config.redisUrl, webhookQueueName(runtime.config.kafkaPrefix));
    this.failingQueue = createWebhookQueue(runtime.config.redisUrl, failingWebhookQueueName(runtime.config.kafkaPrefix));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.failingQueue.close();
  }
}

/** The queues' workers, one per lane (README "Lanes"), which send the retries; stopped first, finishing their active jobs. */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly workers: Worker[];

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, settings: WebhookSettings, queues: WebhookQueue) {
    const { config, secrets, gate } = settings;
    const { redisUrl, kafkaPrefix } = runtime.config;
    const deps = { db: pooledSql(runtime.dataSource), secrets, config, log };
    const failingQueue = queues.failingQueue;
    this.workers = [
      createWebhookWorker(webhookQueueName(kafkaPrefix), redisUrl, deps, { lane: 'fast', gate, failingQueue, concurrency: config.concurrency }),
      createWebhookWorker(failingWebhookQueueName(kafkaPrefix), redisUrl, deps, {
        lane: 'failing', gate, failingQueue, concurrency: settings.failingConcurrency,
      }),
    ];
    for (const worker of this.workers) worker.on('error', (error) => log('warn', 'webhook worker error', { error: String(error) }));
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.close()));
  }
}

/**
 * The new deliveries' first attempts, sent without the queue (first-attempts.ts); on SIGTERM, with the
 * queue's worker, it sends no more and waits for those in flight.
 */
@Injectable()
export class WebhookFirstAttempts implements OnModuleDestroy {
  readonly attempts: FirstAttempts;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, queue: WebhookQueue, settings: WebhookSettings) {
    const { config, secrets } = settings;
    this.attempts = new FirstAttempts({
      db: pooledSql(runtime.dataSource), secrets, config, log, queue: queue.queue, schedule: config.schedule, maxInFlight: config.firstAttemptsInFlight,
      lanes: { gate: settings.gate, failingQueue: queue.failingQueue },
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.attempts.close();
  }
}

/** Re-enqueues what a crash left behind (sweeper.ts), from start-up until after the consumer stopped. */
@Injectable()
export class WebhookSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly sweeper: Sweeper;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, queue: WebhookQueue, settings: WebhookSettings, firstAttempts: WebhookFirstAttempts) {
    const { schedule, sweepIntervalMs } = settings.config;
    this.sweeper = new Sweeper(runtime.dataSource, queue.queue, schedule, sweepIntervalMs, log, firstAttempts.attempts, [queue.failingQueue]);
  }

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
  }
}

/**
 * Account-wide webhooks (#48, account-events-tail.ts): the tail of `account_events`, woken by its NOTIFY, with
 * the tenants' endpoints in memory (dropped on NOTIFY `webhook_endpoints`, or after WEBHOOK_ENDPOINTS_TTL_MS).
 * Started at bootstrap; stopped with the first attempts (its last batch's are sent or enqueued).
 */
@Injectable()
export class AccountWebhooks implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly listener: PgListener;
  readonly tail: AccountEventsTail;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, queue: WebhookQueue, settings: WebhookSettings, firstAttempts: WebhookFirstAttempts) {
    const env = process.env;
    const sql = pooledSql(runtime.dataSource);
    const endpoints = new EndpointCache((tenants) => enabledAccountEndpoints(sql, tenants), positiveOr(env.WEBHOOK_ENDPOINTS_TTL_MS, 10_000));
    this.tail = new AccountEventsTail({
      dataSource: runtime.dataSource,
      firstAttempts: firstAttempts.attempts,
      queue: queue.queue,
      schedule: settings.config.schedule,
      endpoints,
      reader: 'webhook-dispatcher',
      lockName: runtime.config.kafkaPrefix,
      batchSize: positiveOr(env.WEBHOOK_ACCOUNT_BATCH, 500),
      heldBackPollMs: positiveOr(env.WEBHOOK_ACCOUNT_HELD_BACK_MS, 50),
      intervalMs: positiveOr(env.WEBHOOK_ACCOUNT_INTERVAL_MS, 5_000),
      log,
    });
    this.listener = new PgListener({ connectionString: runtime.config.databaseUrl, applicationName: 'einvoice-webhook-dispatcher-listener', log });
    this.listener.subscribe(ACCOUNT_EVENTS_CHANNEL, { notified: () => this.tail.wake(), resubscribed: () => this.tail.wake() });
    this.listener.subscribe(WEBHOOK_ENDPOINTS_CHANNEL, {
      notified: (tenantId) => endpoints.invalidate(tenantId || undefined),
      // What changed while the connection was down is unknown: every tenant's endpoints are read again.
      resubscribed: () => endpoints.invalidate(),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.tail.start();
    await this.listener.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.listener.stop();
    await this.tail.stop();
  }
}

function positiveOr(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}
