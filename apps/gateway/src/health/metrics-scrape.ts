import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { type OperatorAnswer, createWebhookQueue, metrics, metricsAnswer, failingWebhookQueueName, webhookQueueName } from '@einvoice/domain/infrastructure';
import { Connections } from '../infrastructure/infrastructure.module';
import { WorkerReadinessProbe } from './worker-readiness';

const QUEUE_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

/**
 * Prometheus metrics of the gateway, served on the operator port (README "Operating it": counts across
 * all tenants are not the API's), and of the stack's shared state read at scrape: documents by area and state, reports waiting to be sent again after a 429, the outbox backlog, its parked rows and the age of its
 * oldest row, disabled webhook subscriptions, each worker group's lag per partition, the webhook queue's depth. A source that does not answer leaves its
 * gauges as they were (the scrape still succeeds).
 */
@Injectable()
export class MetricsScrape implements OnApplicationShutdown {
  /** The webhook queues: the fast lane and the lane of failing or slow endpoints (apps/webhook-dispatcher/README.md "Lanes"). */
  private queues?: Queue[];

  constructor(
    private readonly connections: Connections,
    private readonly workers: WorkerReadinessProbe,
  ) {}

  /** The text exposition: HTTP, documents, outbox, consumer lag, authority calls, webhooks, queue depth. */
  async scrape(): Promise<OperatorAnswer> {
    await Promise.all([this.documents(), this.resends(), this.outbox(), this.disabledWebhooks(), this.lag(), this.queueDepth()]);
    return metricsAnswer();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all((this.queues ?? []).map((queue) => queue.close().catch(() => undefined)));
  }

  private async documents() {
    const rows = await this.connections.dataSource
      .query(`SELECT area, state, count(*)::int AS n FROM documents GROUP BY 1, 2`)
      .catch(() => undefined);
    if (!rows) return;
    metrics.documents.reset();
    for (const r of rows as Array<{ area: string; state: string; n: number }>) metrics.documents.set({ area: r.area, state: r.state }, r.n);
  }

  /** Reports waiting for the resend sweep (a throttled supplier's backlog), on documents_resend_due. */
  private async resends() {
    const rows = await this.connections.dataSource
      .query(`SELECT area, count(*)::int AS n FROM documents WHERE report_state = 'pending' AND resend_at IS NOT NULL GROUP BY 1`)
      .catch(() => undefined);
    if (!rows) return;
    metrics.reportsAwaitingResend.reset();
    for (const r of rows as Array<{ area: string; n: number }>) metrics.reportsAwaitingResend.set({ area: r.area }, r.n);
  }

  /** Parked rows (`abandoned_at`, the broker refused them) are part of the backlog until released. */
  private async outbox() {
    const [row] = (await this.connections.dataSource
      .query(
        `SELECT count(*)::int AS n, (count(*) FILTER (WHERE abandoned_at IS NOT NULL))::int AS parked,
                coalesce(extract(epoch FROM now() - min(created_at)), 0)::float AS age
         FROM outbox WHERE processed_at IS NULL`,
      )
      .catch(() => [undefined])) as Array<{ n: number; parked: number; age: number } | undefined>;
    if (!row) return;
    metrics.outboxBacklog.set(row.n);
    metrics.outboxParked.set(row.parked);
    metrics.outboxOldestAge.set(row.age);
  }

  /** Subscriptions the dispatcher disabled (webhooks/store.ts): their events are not sent until a 2xx ping. */
  private async disabledWebhooks() {
    const [row] = (await this.connections.dataSource
      .query(`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE disabled_at IS NOT NULL AND deleted_at IS NULL`)
      .catch(() => [undefined])) as Array<{ n: number } | undefined>;
    if (row) metrics.webhooksDisabled.set(row.n);
  }

  private async lag() {
    const rows = await this.workers.partitionLags().catch(() => undefined);
    if (!rows) return;
    metrics.consumerLag.reset();
    for (const r of rows) metrics.consumerLag.set({ group: r.group, topic: r.topic, partition: String(r.partition) }, r.lag);
  }

  private async queueDepth() {
    const { redisUrl, kafkaPrefix } = this.connections.config;
    this.queues ??= [webhookQueueName(kafkaPrefix), failingWebhookQueueName(kafkaPrefix)].map((name) => createWebhookQueue(redisUrl, name));
    await Promise.all(this.queues.map(async (queue) => {
      const counts = await queue.getJobCounts(...QUEUE_STATES).catch(() => undefined);
      if (!counts) return;
      for (const state of QUEUE_STATES) metrics.queueJobs.set({ queue: queue.name, state }, counts[state] ?? 0);
    }));
  }
}
