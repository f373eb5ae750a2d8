import { ThrottledSignal } from './throttled-signal';

describe('ThrottledSignal', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('sends one notification for a burst of commits, after the last of them, and at most one per interval', async () => {
    const sent: number[] = [];
    const notifier = new ThrottledSignal(async () => void sent.push(Date.now()), 5);
    const start = Date.now();
    notifier.poke();
    notifier.poke();
    notifier.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    // Commits right after: covered by one more, no sooner than the interval.
    notifier.poke();
    jest.advanceTimersByTime(2);
    notifier.poke();
    await jest.advanceTimersByTimeAsync(2);
    expect(sent).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(2);
    expect(sent[1] - sent[0]).toBeGreaterThanOrEqual(5);
    // Quiet, then one commit: sent at once.
    await jest.advanceTimersByTimeAsync(100);
    notifier.poke();
    await jest.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toBe(start);
  });

  it('a failed notification is not fatal: the relay polls', async () => {
    const notifier = new ThrottledSignal(() => Promise.reject(new Error('database away')), 5);
    notifier.poke();
    await jest.advanceTimersByTimeAsync(10);
    notifier.poke();
    await jest.advanceTimersByTimeAsync(10);
  });
});
