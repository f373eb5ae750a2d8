/**
 * Wakes the outbox relays of other processes (`pg_notify('outbox')`, which they LISTEN to) after
 * this process committed appends: at most once per `everyMs`, and always after the last commit of
 * a burst (a poke while one is scheduled is covered by it). A notification lost to a crash right
 * after a commit only delays the rows until the relay's next poll (every second).
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
