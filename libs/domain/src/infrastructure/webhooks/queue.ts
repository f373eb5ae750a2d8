import { Queue } from 'bullmq';
import type { RedisOptions } from 'ioredis';
import type { RetrySchedule } from '../../webhook';
import { traceparentOf } from '../tracing';

/**
 * The one job type of the webhook queue (STYLE.md: one processor per queue, switch on job.name).
 * `priorAttempts`: attempts made before the job was added (the dispatcher's first attempt, sent
 * without the queue): the job has that many fewer, and its backoff goes on from there.
 */
export type WebhookJob = { readonly name: 'deliver'; readonly data: { readonly deliveryId: string; readonly traceparent?: string; readonly priorAttempts?: number } };

/** Name of the custom backoff strategy the dispatcher's worker registers. */
export const WEBHOOK_BACKOFF = 'webhook';

/** Queue names follow the topic prefix, so stacks sharing one Redis never meet. */
export const webhookQueueName = (prefix: string): string => `${prefix}.webhooks`;

/**
 * The dispatcher's second lane (#48, apps/webhook-dispatcher/README.md "Lanes"): the deliveries of endpoints
 * failing or slow right now, with a worker of their own, so they never take the places of the others'.
 */
export const failingWebhookQueueName = (prefix: string): string => `${prefix}.webhooks-failing`;

/**
 * Connection options (not an instance, so BullMQ owns and closes its connections) from a
 * `redis://[user:password@]host:port/db` URL; no per-request retry limit, as BullMQ requires.
 */
export function bullConnection(redisUrl: string): RedisOptions {
  const url = new URL(redisUrl);
  return {
    host: url.hostname || '127.0.0.1',
    port: Number(url.port || 6379),
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: Number(url.pathname.slice(1) || 0),
    tls: url.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
}

export function createWebhookQueue(redisUrl: string, name: string): Queue {
  return new Queue(name, { connection: bullConnection(redisUrl) });
}

/**
 * One job per delivery, jobId = delivery id: adding a job that exists is a no-op, so the
 * dispatcher, its sweeper and a re-send may all add it safely. Finished jobs are removed (the
 * record of truth is PostgreSQL), which lets a re-send add the same id again.
 */
export async function enqueueDeliveries(
  queue: Queue,
  deliveryIds: readonly string[],
  schedule: RetrySchedule,
  after?: { readonly priorAttempts: number; readonly delayMs: number },
): Promise<void> {
  if (deliveryIds.length === 0) return;
  // The span that enqueues (the dispatcher's handling of the event) is the POSTs' parent.
  const traceparent = traceparentOf();
  const prior = after?.priorAttempts ?? 0;
  await queue.addBulk(
    deliveryIds.map((deliveryId) => ({
      name: 'deliver',
      data: { deliveryId, ...(traceparent ? { traceparent } : {}), ...(prior ? { priorAttempts: prior } : {}) },
      opts: {
        jobId: deliveryId,
        attempts: Math.max(1, schedule.attempts - prior),
        backoff: { type: WEBHOOK_BACKOFF },
        ...(after?.delayMs ? { delay: after.delayMs } : {}),
        removeOnComplete: true,
        removeOnFail: true,
      },
    })),
  );
}
