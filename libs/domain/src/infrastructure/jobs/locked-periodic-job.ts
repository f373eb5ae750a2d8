import type { DataSource } from 'typeorm';
import type { Logger } from '../../log';
import { withTriedAdvisoryLock } from './advisory-lock';

export interface LockedPeriodicJobOptions {
  readonly dataSource: DataSource;
  /** Advisory lock class: one per kind of job. */
  readonly lockKey: number;
  /** The stack's topic prefix: the lock is per stack (as the outbox relay's). */
  readonly lockName: string;
  readonly intervalMs: number;
  readonly log: Logger;
  /** What a failed round is called in the log. */
  readonly description: string;
}

/**
 * A job a worker runs every `intervalMs`, in one worker of the stack at a time (PostgreSQL
 * advisory lock, tried, never waited for: the others skip the round). A failed round is logged
 * and the next one retries; `stop()` waits for a running round. A job implements `round`, which
 * gets a function telling whether the job is stopping, to leave a long round early. `wake()` brings
 * the next round forward when the worker learns of work that should not wait for the interval.
 */
export abstract class LockedPeriodicJob {
  private timer?: NodeJS.Timeout;
  private running = false;
  private stopping = false;
  private inRound = false;
  /** A wake came during a round: the next round follows it at once. */
  private wokenDuringRound = false;
  private current?: Promise<void>;
  /** The wake-up wakeIn set, and when it fires. */
  private dueTimer?: NodeJS.Timeout;
  private dueTimerAt = Number.POSITIVE_INFINITY;

  constructor(private readonly job: LockedPeriodicJobOptions) {}

  protected abstract round(stopping: () => boolean): Promise<void>;

  /** Makes a round running `whileInFlight` look for work again (started work ended, or a wake came). */
  private lookAgain: () => void = () => undefined;

  /**
   * The body of a round that goes on while it has work in flight (the report sweeps): `startDue` is
   * called at once, whenever started work ends and on every wake during the round, and starts what is
   * due and has a place with `start`. The round ends when nothing is in flight after a look, or, once
   * stopping, when what is in flight has ended. Started work should not throw (a failure is logged).
   */
  protected async whileInFlight(stopping: () => boolean, startDue: (start: (work: Promise<unknown>) => void) => Promise<void>): Promise<void> {
    const running = new Set<Promise<void>>();
    const start = (work: Promise<unknown>) => {
      const tracked: Promise<void> = work
        .then(
          () => undefined,
          (error) => this.job.log('warn', `${this.job.description}: work failed`, { error: String(error) }),
        )
        .finally(() => {
          running.delete(tracked);
          this.lookAgain();
        });
      running.add(tracked);
    };
    for (;;) {
      const signalled = new Promise<void>((resolve) => (this.lookAgain = resolve));
      if (!stopping()) await startDue(start);
      if (!running.size) return;
      if (stopping()) {
        await Promise.all(running);
        return;
      }
      await signalled;
    }
  }

  start(): void {
    this.running = true;
    this.schedule(this.job.intervalMs);
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current;
  }

  /**
   * Runs the next round now instead of at the end of the interval; never alongside a running round
   * (a wake during one runs another right after it, so what woke it is not missed by a round that
   * had read its work already). Many wakes before a round starts make one round. Nothing when stopped.
   */
  wake(): void {
    if (!this.running) return;
    if (this.inRound) {
      this.wokenDuringRound = true;
      this.lookAgain();
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.schedule(0);
  }

  /**
   * Wakes the job in `ms` (work that falls due then: a batch's wait, a report's next poll) rather than at
   * the next interval; the earliest of several such calls wins. Nothing for `ms` of zero or less (due
   * work is looked for when a place frees up) or at or past the interval.
   */
  protected wakeIn(ms: number): void {
    if (!(ms > 0) || ms >= this.job.intervalMs) return;
    const at = Date.now() + ms;
    if (this.dueTimer && at >= this.dueTimerAt) return;
    clearTimeout(this.dueTimer);
    this.dueTimerAt = at;
    this.dueTimer = setTimeout(() => {
      this.dueTimer = undefined;
      this.dueTimerAt = Number.POSITIVE_INFINITY;
      this.wake();
    }, Math.ceil(ms));
    // Never what keeps a stopping process alive (a stopped job ignores wakes).
    this.dueTimer.unref();
  }

  /** One round under the lock; false when another worker holds it. */
  runOnce(): Promise<boolean> {
    const { dataSource, lockKey, lockName } = this.job;
    return withTriedAdvisoryLock(dataSource, lockKey, lockName, () => this.round(() => this.stopping));
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.inRound = true;
      this.current = this.runOnce()
        .then(() => undefined)
        .catch((error) => this.job.log('warn', `${this.job.description} failed; next round retries`, { error: String(error) }))
        .finally(() => {
          this.inRound = false;
          const woken = this.wokenDuringRound;
          this.wokenDuringRound = false;
          this.schedule(woken ? 0 : this.job.intervalMs);
        });
    }, delayMs);
  }
}
