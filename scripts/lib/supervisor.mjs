// Runs the stack's apps as child processes and keeps them running (#9): an app that exits on its
// own is restarted, alone, after a backoff (1 s, doubling up to 30 s; back to 1 s once it has run
// for a minute), with a log line each time; the others keep serving. `stop()` sends SIGTERM to
// every app, waits for all of them to exit (SIGKILL after a grace period) and restarts nothing.
import { spawn } from 'node:child_process';

const FIRST_BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;
/** Running this long resets the backoff: it was a crash, not a crash loop. */
const HEALTHY_AFTER_MS = 60_000;
const STOP_GRACE_MS = 20_000;

export class Supervisor {
  /**
   * @param {{ name: string, command: string, args: string[], options?: import('node:child_process').SpawnOptions }[]} apps
   * @param {(message: string) => void} log
   */
  constructor(apps, log) {
    this.log = log;
    this.stopping = false;
    this.apps = apps.map((app) => ({ ...app, child: undefined, exited: Promise.resolve(), backoffMs: FIRST_BACKOFF_MS, startedAt: 0, timer: undefined, restarts: 0 }));
  }

  start() {
    for (const app of this.apps) this.launch(app);
  }

  /** How often each app was restarted. */
  restarts() {
    return Object.fromEntries(this.apps.map((a) => [a.name, a.restarts]));
  }

  launch(app) {
    app.startedAt = Date.now();
    const child = spawn(app.command, app.args, { stdio: ['ignore', 'inherit', 'inherit'], ...app.options });
    app.child = child;
    app.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    void app.exited.then(({ code, signal }) => {
      if (this.stopping) return;
      if (Date.now() - app.startedAt >= HEALTHY_AFTER_MS) app.backoffMs = FIRST_BACKOFF_MS;
      const delay = app.backoffMs;
      app.backoffMs = Math.min(MAX_BACKOFF_MS, app.backoffMs * 2);
      this.log(`${app.name} exited (${signal ?? `code ${code}`}); restarting it in ${delay / 1000} s, the other apps keep running`);
      app.timer = setTimeout(() => {
        if (this.stopping) return;
        app.restarts += 1;
        this.launch(app);
      }, delay);
    });
  }

  /** Stops every app (SIGTERM, then SIGKILL after the grace period) and waits until all exited. */
  async stop() {
    this.stopping = true;
    for (const app of this.apps) clearTimeout(app.timer);
    await Promise.all(
      this.apps.map(async (app) => {
        const child = app.child;
        if (!child || child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        await app.exited;
        clearTimeout(killer);
      }),
    );
  }
}
