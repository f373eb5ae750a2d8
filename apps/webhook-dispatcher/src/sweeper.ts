import type { Queue } from 'bullmq';
import type { Logger, RetrySchedule } from '@einvoice/domain';
import { type Sql, enqueueDeliveries, stalePendingDeliveries } from '@einvoice/domain/infrastructure';

/**
 * Re-enqueues `pending` deliveries whose job is missing (a crash between commit and enqueue,
 * Redis flushed). Adding an existing jobId is a no-op, so a sweep that races the normal path is
 * harmless; the processor skips a delivery that is no longer pending.
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
  ) {}

  /** One pass; returns how many deliveries were re-enqueued. */
  async sweep(): Promise<number> {
    const candidates = await stalePendingDeliveries(this.db, Math.min(this.intervalMs, 5_000));
    const missing: string[] = [];
    for (const id of candidates) if (!(await this.queue.getJob(id))) missing.push(id);
    await enqueueDeliveries(this.queue, missing, this.schedule);
    if (missing.length > 0) this.log('info', 'pending webhook deliveries re-enqueued', { count: missing.length });
    return missing.length;
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
