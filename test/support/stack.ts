// Runs the compiled apps as child processes for e2e tests, against the test database and broker
// that `npm test` prepared (DATABASE_URL, KAFKA_BROKERS, KAFKA_TOPIC_PREFIX in the environment).
import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { eventually } from './wait';

export { eventually };

const ROOT = path.resolve(__dirname, '..', '..');

export type AppName = 'gateway' | 'delivery-worker' | 'reporting-worker' | 'webhook-dispatcher';

/** Compiles once when dist/ is missing (a direct `jest` run; `npm test` has built already). */
export function ensureBuilt(): void {
  if (existsSync(path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js'))) return;
  const result = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('tsc failed');
}

/** Builds the web console once when dist/console is missing (a direct `jest` run; `npm test` has built it). */
export function ensureConsoleBuilt(): void {
  if (existsSync(path.join(ROOT, 'dist', 'console', 'index.html'))) return;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(ROOT, 'apps', 'console', 'vite.config.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('vite build of the console failed');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Whether a process still runs (signal 0 tests, sends nothing): what a crash test waits on after a
 * kill -9. scripts/lib/pid-process.mjs has the scripts' own, which Jest cannot import (ESM).
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // An exited process nobody has reaped yet (its parent gone, init not done yet) still answers kill(0):
    // the same check as scripts/lib/pid-process.mjs, which Jest cannot import (ESM).
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** One running app. */
export class AppProcess {
  private exited: Promise<void>;

  constructor(
    readonly name: AppName,
    readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
  }

  /** SIGTERM: the app finishes what it is doing and leaves its consumer group. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    await this.exited;
  }

  /** kill -9: no clean-up at all, as a crash. */
  async crash(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

export const testEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  // A crashed worker's partitions move to its replacement after this long.
  KAFKA_SESSION_TIMEOUT_MS: '8000',
  KAFKA_HEARTBEAT_INTERVAL_MS: '1000',
  // Suites send bursts no client would; the limit itself has its own e2e (tenant-rate-limit).
  TENANT_RATE_LIMIT_PER_S: '1000',
  TENANT_RATE_BURST: '2000',
  // The gateway's operator endpoints on any free port: never 9463, which a running stack may hold.
  OPERATOR_PORT: '0',
  ...extra,
});

export function startApp(name: AppName, env: NodeJS.ProcessEnv = testEnv()): AppProcess {
  ensureBuilt();
  const child = spawn(
    process.execPath,
    ['-r', path.join(ROOT, 'scripts', 'register-paths.cjs'), path.join(ROOT, 'dist', 'apps', name, 'src', 'main.js')],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Shown as before, and kept per app under TEST_LOG_DIR: `npm test` checks them for secrets afterwards.
  const logFile = process.env.TEST_LOG_DIR && path.join(process.env.TEST_LOG_DIR, `${name}-${child.pid}.log`);
  const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
  child.stdout?.on('data', (chunk: Buffer) => {
    process.stdout.write(chunk);
    log?.write(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    log?.write(chunk);
  });
  child.once('exit', () => log?.end());
  return new AppProcess(name, child);
}

/** A started gateway: its API (`url`) and its operator endpoints (`operatorUrl`: detailed /health, /metrics). */
export interface StartedGateway {
  readonly app: AppProcess;
  readonly url: string;
  readonly operatorUrl: string;
}

/** The gateway on a free port (or on `extra.PORT`, when others must know it first), ready to answer. */
export async function startGateway(extra: Record<string, string> = {}): Promise<StartedGateway> {
  const port = extra.PORT ? Number(extra.PORT) : await freePort();
  const operatorPort = Number(extra.OPERATOR_PORT ?? 0) || (await freePort());
  const app = startApp('gateway', testEnv({ PORT: String(port), ...extra, OPERATOR_PORT: String(operatorPort) }));
  const url = `http://127.0.0.1:${port}`;
  const operatorUrl = `http://127.0.0.1:${operatorPort}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (app.child.exitCode !== null) throw new Error('the gateway exited during start-up');
    try {
      // The operator listener opens after the API's (any answer will do: it serves no `/`).
      if ((await fetch(`${url}/health/live`)).ok && (await fetch(`${operatorUrl}/`))) return { app, url, operatorUrl };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      // Not left running: an orphan would keep jest (and the test broker) waiting after the suite.
      await app.stop();
      throw new Error('the gateway did not answer within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Resolves once each named worker's consumer group holds its partitions, as the gateway's detailed
 * `GET /health` on its operator port reports it (`workers[]`): a request sent before that waits for a group join.
 */
export async function untilWorkersReady(gateway: { readonly operatorUrl: string }, ...apps: AppName[]): Promise<void> {
  await eventually(`${apps.join(', ')} ready`, async () => {
    const health = (await (await fetch(`${gateway.operatorUrl}/health`)).json().catch(() => ({}))) as {
      workers?: Array<{ group: string; ready: boolean }> | null;
    };
    const ready = (app: AppName) => health.workers?.some((w) => w.group.endsWith(`.${app}`) && w.ready) ?? false;
    return apps.every(ready) ? true : undefined;
  });
}


export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const cliArgs = (args: string[]) => ['-r', path.join(ROOT, 'scripts', 'register-paths.cjs'), path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'cli.js'), ...args];

/** Runs the operator CLI (`migrate`, `topics`, `tenants create`) with the given environment. */
export function runCli(args: string[], env: NodeJS.ProcessEnv = testEnv()): CliResult {
  ensureBuilt();
  const result = spawnSync(process.execPath, cliArgs(args), { cwd: ROOT, env, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** runCli without blocking the test's event loop: what else the test started (an AS4 engine, another installation) goes on meanwhile. */
export function runCliAsync(args: string[], env: NodeJS.ProcessEnv = testEnv()): Promise<CliResult> {
  ensureBuilt();
  return new Promise((resolve) => {
    execFile(process.execPath, cliArgs(args), { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ status, stdout, stderr });
    });
  });
}
