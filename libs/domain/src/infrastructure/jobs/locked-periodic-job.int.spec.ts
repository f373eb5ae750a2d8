// A periodic job woken early, on real PostgreSQL (its rounds run under the advisory lock): a wake runs
// the next round at once, and a wake during a round runs one more right after it, never alongside.
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import { LockedPeriodicJob } from './locked-periodic-job';

/** A job whose rounds wait for the test to let each one finish. */
class GatedJob extends LockedPeriodicJob {
  readonly started: number[] = [];
  concurrent = 0;
  mostConcurrent = 0;
  private opened: Array<() => void> = [];
  private onStart: Array<() => void> = [];

  /** Resolves once round `n` (from 1) has started. */
  roundStarted(n: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.started.length >= n) resolve();
      else this.onStart.push(() => this.started.length >= n && resolve());
    });
  }

  /** Lets the running round finish. */
  finishRound(): void {
    this.opened.shift()?.();
  }

  protected async round(): Promise<void> {
    this.concurrent += 1;
    this.mostConcurrent = Math.max(this.mostConcurrent, this.concurrent);
    const gate = new Promise<void>((resolve) => this.opened.push(resolve));
    this.started.push(Date.now());
    for (const notify of this.onStart) notify();
    await gate;
    this.concurrent -= 1;
  }
}

describe('LockedPeriodicJob.wake', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  const job = () => new GatedJob({ dataSource, lockKey: 4243, lockName: `wake-${Date.now()}-${Math.random()}`, intervalMs: 3_600_000, log: () => undefined, description: 'test job' });

  it('runs the next round at once instead of after the interval', async () => {
    const gated = job();
    gated.start();
    try {
      gated.wake();
      await gated.roundStarted(1);
      gated.finishRound();
    } finally {
      await gated.stop();
    }
  });

  it('a wake during a round runs one more round right after it, never alongside it', async () => {
    const gated = job();
    gated.start();
    try {
      gated.wake();
      await gated.roundStarted(1);
      gated.wake();
      gated.wake();
      expect(gated.started).toHaveLength(1);
      gated.finishRound();
      await gated.roundStarted(2);
      expect(gated.mostConcurrent).toBe(1);
      gated.finishRound();
    } finally {
      await gated.stop();
    }
  });

  it('schedules nothing once stopped', async () => {
    jest.useFakeTimers();
    try {
      const gated = job();
      gated.start();
      expect(jest.getTimerCount()).toBe(1);
      await gated.stop();
      gated.wake();
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
