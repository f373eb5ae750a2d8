import type { Queue } from 'bullmq';
import type { Logger, RetrySchedule } from '@einvoice/domain';
import { type Sql, enqueueDeliveries, stalePendingDeliveries } from '@einvoice/domain/infrastructure';

/** First attempts sent without the queue (first-attempts.ts), which the sweeper must not take for lost. */
export interface InFlightAttempts {
  has(deliveryId: string): boolean;
  readonly longestAttemptMs: number;
}

/**
 * Re-enqueues `pending` deliveries whose job is missing (a crash between commit and enqueue or
 * during a first attempt, Redis flushed). Adding an existing jobId is a no-op, so a sweep that races
 * the normal path is harmless; the processor skips a delivery that is no longer pending. With first
 * attempts, a delivery counts as lost only once it was quiet for longer than one can take, whichever
 * process sends it.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Sql,
    private readonly queue: Queue,
    private readonly schedule: RetrySchedule,
    private readonly intervalMs: number,
    private readonly log: Logger,
    private readonly firstAttempts?: InFlightAttempts,
    /** The failing lane's queue (endpoint-gate.ts): a delivery with a job there is not lost either. */
    private readonly otherQueues: readonly Queue[] = [],
  ) {}

  /** One pass; returns how many deliveries were re-enqueued. */
  async sweep(): Promise<number> {
    const quietMs = Math.max(Math.min(this.intervalMs, 5_000), this.firstAttempts ? this.firstAttempts.longestAttemptMs + 1_000 : 0);
    const candidates = await stalePendingDeliveries(this.db, quietMs);
    const missing: string[] = [];
    for (const id of candidates) if (!this.firstAttempts?.has(id) && !(await this.hasJob(id))) missing.push(id);
    await enqueueDeliveries(this.queue, missing, this.schedule);
    if (missing.length > 0) this.log('info', 'pending webhook deliveries re-enqueued', { count: missing.length });
    return missing.length;
  }

  private async hasJob(id: string): Promise<boolean> {
    for (const queue of [this.queue, ...this.otherQueues]) if (await queue.getJob(id)) return true;
    return false;
  }

  start(): void {
    const tick = () => {
      this.running = this.sweep()
        .then(() => undefined)
        .catch((error) => this.log('warn', 'webhook sweep failed', { error: String(error) }))
        .finally(() => {
          if (this.timer !== undefined) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
