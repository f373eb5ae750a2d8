import { Job, UnrecoverableError, Worker } from 'bullmq';
import { type Logger, type SecretBox, type WebhookConfig, retryDelayMs } from '@einvoice/domain';
import {
  type Sql,
  WEBHOOK_BACKOFF,
  type WebhookJob,
  bullConnection,
  failDelivery,
  SpanKind,
  inSpan,
  metrics,
  loadDelivery,
  recordAttempt,
  sendWebhook,
} from '@einvoice/domain/infrastructure';

export interface ProcessorDependencies {
  readonly db: Sql;
  readonly secrets: SecretBox;
  readonly config: WebhookConfig;
  readonly log: Logger;
}

/**
 * Sends one delivery attempt: POST, record the attempt, `delivered` on 2xx, `failed` on the last
 * attempt (then BullMQ drops the job: the delivery is dead-lettered in PostgreSQL and can be
 * re-sent through the API). A delivery that is no longer pending is left alone, so a duplicate
 * job never sends an acknowledged delivery again.
 */
export function createWebhookProcessor(deps: ProcessorDependencies): (job: Job) => Promise<void> {
  return async (job) => {
    const typed = job as unknown as WebhookJob & Job;
    switch (typed.name) {
      case 'deliver':
        return inSpan('webhook POST', { kind: SpanKind.CLIENT, parent: typed.data.traceparent, attributes: { 'einvoice.webhook.delivery_id': typed.data.deliveryId, 'einvoice.attempt': job.attemptsMade + 1 } }, () =>
          deliver(deps, job, typed.data.deliveryId));
      default: {
        const _: never = typed.name;
        throw new UnrecoverableError(`unknown job ${String(_)}`);
      }
    }
  };
}

async function deliver(deps: ProcessorDependencies, job: Job, deliveryId: string): Promise<void> {
  const delivery = await loadDelivery(deps.db, deliveryId);
  if (!delivery || delivery.status !== 'pending') return;
  if (delivery.subscription_deleted) {
    await failDelivery(deps.db, deliveryId);
    throw new UnrecoverableError('the subscription was deleted');
  }
  const result = await sendWebhook({
    url: delivery.url,
    secret: deps.secrets.open(delivery.secret_sealed),
    id: delivery.event_id,
    body: delivery.payload,
    policy: { allowLoopback: deps.config.allowLoopback },
    timeoutMs: deps.config.timeoutMs,
  });
  const final = !result.acknowledged && job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const attempt = await recordAttempt(deps.db, deliveryId, result, final);
  const fields = { deliveryId, attempt, statusCode: result.statusCode, durationMs: result.durationMs };
  metrics.webhookDeliveries.inc({ outcome: result.acknowledged ? 'delivered' : final ? 'given_up' : 'failed', attempt: String(Math.min(job.attemptsMade + 1, 10)) });
  if (result.acknowledged) return deps.log('info', 'webhook delivered', fields);
  deps.log(final ? 'warn' : 'info', final ? 'webhook failed for good' : 'webhook attempt failed', { ...fields, error: result.error });
  throw new Error(result.error ?? 'not acknowledged');
}

/** The queue's one worker, with the jittered exponential backoff of the retry schedule. */
export function createWebhookWorker(queueName: string, redisUrl: string, deps: ProcessorDependencies): Worker {
  return new Worker(queueName, createWebhookProcessor(deps), {
    connection: bullConnection(redisUrl),
    concurrency: deps.config.concurrency,
    settings: {
      backoffStrategy: (attemptsMade: number, type?: string) => {
        if (type !== WEBHOOK_BACKOFF) return 0;
        return retryDelayMs(attemptsMade, deps.config.schedule);
      },
    },
  });
}
