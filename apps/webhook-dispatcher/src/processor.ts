import { DelayedError, Job, type MinimalJob, type Queue, UnrecoverableError, Worker } from 'bullmq';
import { type Logger, type SecretBox, type WebhookConfig, retryDelayMs } from '@einvoice/domain';
import type { Admission, EndpointGate, Lane } from './endpoint-gate';
import {
  type AttemptRecord,
  type DeliveryToSend,
  type Sql,
  WEBHOOK_BACKOFF,
  type WebhookJob,
  bullConnection,
  enqueueDeliveries,
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
  /** Whether the delivery's endpoint takes an attempt now (endpoint-gate.ts); none: always. */
  readonly admit?: (delivery: DeliveryToSend) => Admission;
}

/** The lanes of a dispatcher (endpoint-gate.ts): which one a worker serves, and where the failing endpoints' deliveries go. */
export interface LaneOptions {
  readonly lane: Lane;
  readonly gate: EndpointGate;
  /** The failing lane's queue: where the fast lane moves a failing endpoint's delivery. */
  readonly failingQueue: Queue;
  readonly concurrency: number;
}

/** A failed attempt's error, with the wait before the next one (the schedule's, jittered once: also the delivery's `next_attempt_at`). */
class RetryLater extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/**
 * Runs a job: one attempt of its delivery (attemptDelivery). A failure that leaves attempts is thrown
 * for BullMQ to try again after the schedule's backoff; the last one, and a deleted subscription,
 * end the job. With lanes: the fast lane hands a failing endpoint's delivery to the failing lane (the
 * attempts made so far go with it), and a job of an endpoint with its attempts in flight at the lane's
 * limit waits a moment (DelayedError: not an attempt).
 */
export function createWebhookProcessor(deps: ProcessorDependencies, lanes?: LaneOptions): (job: Job, token?: string) => Promise<void> {
  const attemptDeps: ProcessorDependencies = lanes ? { ...deps, admit: (delivery) => lanes.gate.admit(delivery.subscription_id, lanes.lane) } : deps;
  return async (job, token) => {
    const typed = job as unknown as WebhookJob & Job;
    switch (typed.name) {
      case 'deliver': {
        const prior = typed.data.priorAttempts ?? 0;
        const before = prior + job.attemptsMade;
        const outcome = await attemptDelivery(attemptDeps, typed.data.deliveryId, before, prior + (job.opts.attempts ?? 1), typed.data.traceparent);
        if (outcome.kind === 'subscription deleted') throw new UnrecoverableError('the subscription was deleted');
        if (outcome.kind === 'failed') throw new RetryLater(outcome.error, outcome.retryInMs);
        if (outcome.kind === 'given up') throw new Error(outcome.error);
        if (outcome.kind === 'deferred' && lanes) {
          if (outcome.reason === 'failing') {
            await enqueueDeliveries(lanes.failingQueue, [typed.data.deliveryId], deps.config.schedule, { priorAttempts: before, delayMs: 0 });
            return;
          }
          await job.moveToDelayed(Date.now() + lanes.gate.waitMs(outcome.endpoint, lanes.lane, deps.config.timeoutMs), token);
          throw new DelayedError();
        }
        return;
      }
      default: {
        const _: never = typed.name;
        throw new UnrecoverableError(`unknown job ${String(_)}`);
      }
    }
  };
}

/** What one attempt came to; `deferred`: not sent, the endpoint's gate said no (endpoint-gate.ts). */
export type AttemptOutcome =
  | { readonly kind: 'delivered' | 'not pending' | 'subscription deleted' }
  | { readonly kind: 'failed'; readonly error: string; readonly retryInMs: number }
  | { readonly kind: 'given up'; readonly error: string }
  | { readonly kind: 'deferred'; readonly reason: 'failing' | 'busy'; readonly endpoint: string };

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
    const admission = deps.admit?.(delivery);
    if (admission && !admission.admitted) return { kind: 'deferred', reason: admission.reason, endpoint: delivery.subscription_id };
    // During a secret rotation, the new secret and the previous one both sign (#48).
    const secrets = [delivery.secret_sealed, ...(delivery.previous_secret_sealed ? [delivery.previous_secret_sealed] : [])].map((sealed) => deps.secrets.open(sealed));
    const result = await sendWebhook({
      url: delivery.url,
      secrets,
      id: delivery.event_id,
      body: delivery.payload,
      policy: { allowLoopback: deps.config.allowLoopback },
      timeoutMs: deps.config.timeoutMs,
    });
    admission?.done(result.acknowledged);
    const final = !result.acknowledged && before + 1 >= attempts;
    // The wait before the next attempt, drawn once: BullMQ waits it (RetryLater) and the delivery shows it (next_attempt_at).
    const retryInMs = result.acknowledged || final ? undefined : retryDelayMs(before + 1, deps.config.schedule);
    const record: AttemptRecord = { deliveryId, result, final, retryInMs };
    const attempt = await (deps.record ? deps.record(record) : recordAttempt(deps.db, deliveryId, result, final, retryInMs));
    const fields = { deliveryId, attempt, statusCode: result.statusCode, durationMs: result.durationMs };
    metrics.webhookDeliveries.inc({ outcome: result.acknowledged ? 'delivered' : final ? 'given_up' : 'failed', attempt: String(Math.min(before + 1, 10)) });
    if (result.acknowledged) {
      deps.log('info', 'webhook delivered', fields);
      return { kind: 'delivered' };
    }
    deps.log(final ? 'warn' : 'info', final ? 'webhook failed for good' : 'webhook attempt failed', { ...fields, error: result.error });
    const error = result.error ?? 'not acknowledged';
    return retryInMs === undefined ? { kind: 'given up', error } : { kind: 'failed', error, retryInMs };
  });
}

/**
 * A queue's worker (without `lanes`: the one worker of the queue, as before #48; with: the fast or the failing
 * lane's), with the jittered exponential backoff of the retry schedule.
 */
export function createWebhookWorker(queueName: string, redisUrl: string, deps: ProcessorDependencies, lanes?: LaneOptions): Worker {
  return new Worker(queueName, createWebhookProcessor(deps, lanes), {
    connection: bullConnection(redisUrl),
    concurrency: lanes?.concurrency ?? deps.config.concurrency,
    settings: {
      // The wait the attempt drew (and recorded as next_attempt_at); else from the job's failures so far,
      // after those made before it was added (its `priorAttempts`).
      backoffStrategy: (attemptsMade: number, type?: string, error?: Error, job?: MinimalJob) => {
        if (type !== WEBHOOK_BACKOFF) return 0;
        if (error instanceof RetryLater) return error.delayMs;
        return retryDelayMs(attemptsMade + ((job?.data as WebhookJob['data'] | undefined)?.priorAttempts ?? 0), deps.config.schedule);
      },
    },
  });
}
