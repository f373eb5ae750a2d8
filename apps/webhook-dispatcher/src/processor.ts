import { Job, type MinimalJob, UnrecoverableError, Worker } from 'bullmq';
import { type Logger, type SecretBox, type WebhookConfig, retryDelayMs } from '@einvoice/domain';
import {
  type AttemptRecord,
  type DeliveryToSend,
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
  /** How an attempt reads its delivery (default: loadDelivery; first attempts read theirs together, first-attempts.ts). */
  readonly load?: (deliveryId: string) => Promise<DeliveryToSend | undefined>;
  /** How an attempt is recorded (default: recordAttempt; first attempts record theirs together, first-attempts.ts). */
  readonly record?: (attempt: AttemptRecord) => Promise<number | undefined>;
  readonly secrets: SecretBox;
  readonly config: WebhookConfig;
  readonly log: Logger;
}

/**
 * Runs a job: one attempt of its delivery (attemptDelivery). A failure that leaves attempts is thrown
 * for BullMQ to try again after the schedule's backoff; the last one, and a deleted subscription,
 * end the job.
 */
export function createWebhookProcessor(deps: ProcessorDependencies): (job: Job) => Promise<void> {
  return async (job) => {
    const typed = job as unknown as WebhookJob & Job;
    switch (typed.name) {
      case 'deliver': {
        const prior = typed.data.priorAttempts ?? 0;
        const outcome = await attemptDelivery(deps, typed.data.deliveryId, prior + job.attemptsMade, prior + (job.opts.attempts ?? 1), typed.data.traceparent);
        if (outcome.kind === 'subscription deleted') throw new UnrecoverableError('the subscription was deleted');
        if (outcome.kind === 'failed' || outcome.kind === 'given up') throw new Error(outcome.error);
        return;
      }
      default: {
        const _: never = typed.name;
        throw new UnrecoverableError(`unknown job ${String(_)}`);
      }
    }
  };
}

/** What one attempt came to. */
export type AttemptOutcome =
  | { readonly kind: 'delivered' | 'not pending' | 'subscription deleted' }
  | { readonly kind: 'failed' | 'given up'; readonly error: string };

/**
 * Sends one delivery attempt: POST, record the attempt, `delivered` on 2xx, `failed` on the last
 * attempt (the delivery is dead-lettered in PostgreSQL and can be re-sent through the API). A
 * delivery that is no longer pending is left alone, so a duplicate job never sends an acknowledged
 * delivery again. `before`: attempts made before this one; `attempts`: in all.
 */
export function attemptDelivery(deps: ProcessorDependencies, deliveryId: string, before: number, attempts: number, traceparent?: string): Promise<AttemptOutcome> {
  return inSpan('webhook POST', { kind: SpanKind.CLIENT, parent: traceparent, attributes: { 'einvoice.webhook.delivery_id': deliveryId, 'einvoice.attempt': before + 1 } }, async () => {
    const delivery = await (deps.load ? deps.load(deliveryId) : loadDelivery(deps.db, deliveryId));
    if (!delivery || delivery.status !== 'pending') return { kind: 'not pending' };
    if (delivery.subscription_deleted) {
      await failDelivery(deps.db, deliveryId);
      return { kind: 'subscription deleted' };
    }
    const result = await sendWebhook({
      url: delivery.url,
      secret: deps.secrets.open(delivery.secret_sealed),
      id: delivery.event_id,
      body: delivery.payload,
      policy: { allowLoopback: deps.config.allowLoopback },
      timeoutMs: deps.config.timeoutMs,
    });
    const final = !result.acknowledged && before + 1 >= attempts;
    const attempt = await (deps.record ? deps.record({ deliveryId, result, final }) : recordAttempt(deps.db, deliveryId, result, final));
    const fields = { deliveryId, attempt, statusCode: result.statusCode, durationMs: result.durationMs };
    metrics.webhookDeliveries.inc({ outcome: result.acknowledged ? 'delivered' : final ? 'given_up' : 'failed', attempt: String(Math.min(before + 1, 10)) });
    if (result.acknowledged) {
      deps.log('info', 'webhook delivered', fields);
      return { kind: 'delivered' };
    }
    deps.log(final ? 'warn' : 'info', final ? 'webhook failed for good' : 'webhook attempt failed', { ...fields, error: result.error });
    return { kind: final ? 'given up' : 'failed', error: result.error ?? 'not acknowledged' };
  });
}

/** The queue's one worker, with the jittered exponential backoff of the retry schedule. */
export function createWebhookWorker(queueName: string, redisUrl: string, deps: ProcessorDependencies): Worker {
  return new Worker(queueName, createWebhookProcessor(deps), {
    connection: bullConnection(redisUrl),
    concurrency: deps.config.concurrency,
    settings: {
      // The job's failures so far, after those made before it was added (its `priorAttempts`).
      backoffStrategy: (attemptsMade: number, type?: string, _error?: Error, job?: MinimalJob) => {
        if (type !== WEBHOOK_BACKOFF) return 0;
        return retryDelayMs(attemptsMade + ((job?.data as WebhookJob['data'] | undefined)?.priorAttempts ?? 0), deps.config.schedule);
      },
    },
  });
}
