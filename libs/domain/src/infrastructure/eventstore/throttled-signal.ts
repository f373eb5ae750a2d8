/**
 * Calls `send` after pokes: at most once per `everyMs`, and always after the last poke of a burst (a
 * poke while a send is scheduled is covered by it). What a process tells other processes after its
 * commits (PostCommitNotifications: the outbox relays' wake-up, document outcomes), so a burst of
 * commits costs one notifying statement. Best effort: a send that fails, or is lost to a crash right
 * after a commit, is not retried; every listener has its own fallback (the relay polls every second,
 * a waiter reads at its deadline).
 */
export class ThrottledSignal {
  private timer?: NodeJS.Timeout;
  private lastSentAt = 0;

  constructor(
    private readonly send: () => Promise<void>,
    private readonly everyMs = Number(process.env.RELAY_NOTIFY_EVERY_MS ?? 5),
  ) {}

  poke(): void {
    if (this.timer) return;
    const wait = Math.max(0, this.lastSentAt + this.everyMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.lastSentAt = Date.now();
      // Best effort: listeners have their own fallback.
      Promise.resolve()
        .then(() => this.send())
        .catch(() => undefined);
    }, wait);
    // Never what keeps a stopping process alive.
    this.timer.unref();
  }
}
