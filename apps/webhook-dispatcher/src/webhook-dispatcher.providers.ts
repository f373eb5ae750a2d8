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
import { WORKER_RUNTIME, type WorkerRuntime, createWebhookQueue, pooledSql, webhookQueueName } from '@einvoice/domain/infrastructure';
import { FirstAttempts } from './first-attempts';
import { createWebhookWorker } from './processor';
import { Sweeper } from './sweeper';

export const log = createLogger('webhook-dispatcher');

/** Settings and the secrets key, read at start-up: production without SECRETS_KEY fails before consuming anything. */
@Injectable()
export class WebhookSettings {
  readonly config: WebhookConfig = loadWebhookConfig();
  readonly secrets: SecretBox = SecretBox.fromEnv();
}

/** The BullMQ queue of deliveries (filled by the consumer and the sweeper); closed after both. */
@Injectable()
export class WebhookQueue implements OnApplicationShutdown {
  readonly queue: Queue;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime) {
    this.queue = createWebhookQueue(runtime.config.redisUrl, webhookQueueName(runtime.config.kafkaPrefix));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
  }
}

/** The queue's one worker, which sends the deliveries; stopped first, finishing its active jobs. */
@Injectable()
export class WebhookSender implements OnModuleDestroy {
  private readonly worker: Worker;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, settings: WebhookSettings) {
    const { config, secrets } = settings;
    const queueName = webhookQueueName(runtime.config.kafkaPrefix);
    this.worker = createWebhookWorker(queueName, runtime.config.redisUrl, { db: pooledSql(runtime.dataSource), secrets, config, log });
    this.worker.on('error', (error) => log('warn', 'webhook worker error', { error: String(error) }));
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
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
    this.attempts = new FirstAttempts({ db: pooledSql(runtime.dataSource), secrets, config, log, queue: queue.queue, schedule: config.schedule, maxInFlight: config.firstAttemptsInFlight });
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
    this.sweeper = new Sweeper(runtime.dataSource, queue.queue, schedule, sweepIntervalMs, log, firstAttempts.attempts);
  }

  onApplicationBootstrap(): void {
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
  }
}
