// The release as the image holds it (Dockerfile): production dependencies only (`npm ci --omit=dev`)
// in a fresh folder with the compiled dist/ and the path-alias hook, and nothing else: no sources, no
// devDependencies, no `../shared` beside it. Its apps are started with the exact commands the
// Dockerfile and docker-compose.yml give them, with the environment docker-compose.yml sets (its
// hosts pointed at this machine's test PostgreSQL, Redis and Kafka).
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { ownDatabaseUrl } from './own-database';
import { freePort } from './stack';
import { eventually } from './wait';

const ROOT = path.resolve(__dirname, '..', '..');

interface ComposeService {
  readonly command?: string | readonly string[];
  readonly environment?: Record<string, string | number>;
}
interface ComposeFile {
  readonly 'x-app-environment': Record<string, string | number>;
  readonly services: Record<string, ComposeService>;
}

export const RELEASE_APPS = ['gateway', 'delivery-worker', 'reporting-worker', 'webhook-dispatcher'] as const;
export type ReleaseApp = (typeof RELEASE_APPS)[number];

export function composeFile(): ComposeFile {
  return parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8')) as ComposeFile;
}

/** The Dockerfile's `CMD [...]` (the gateway's command in the image). */
export function dockerfileCommand(): string[] {
  const line = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').split('\n').find((l) => l.startsWith('CMD '));
  if (!line) throw new Error('the Dockerfile has no CMD');
  return JSON.parse(line.slice('CMD '.length)) as string[];
}

/** The Dockerfile's runtime stage `ENV` settings (NODE_ENV, NODE_OPTIONS, HOST, PORT). */
export function dockerfileEnvironment(): Record<string, string> {
  const text = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const runtime = text.slice(text.lastIndexOf('FROM '));
  const block = /^ENV ((?:.*\\\n)*.*)$/m.exec(runtime)?.[1] ?? '';
  return Object.fromEntries([...block.replace(/\\\n/g, ' ').matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]]));
}

/** A compose value with its `${VAR:-default}` resolved to the default; `${VAR:?message}` must be given. */
function composeValue(name: string, value: string | number, given: Record<string, string>): string {
  if (name in given) return given[name];
  return String(value).replace(/\$\{(\w+)(:?[-?])([^}]*)\}/g, (_all, variable: string, kind: string, rest: string) => {
    if (variable in given) return given[variable];
    if (kind.endsWith('?')) throw new Error(`docker-compose.yml requires ${variable} (${rest}) and the release test gives none`);
    return rest;
  });
}

export interface ReleaseInfrastructure {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly kafkaBrokers: string;
  readonly topicPrefix: string;
  /** Settings added to docker-compose.yml's for every app (the sandboxes' pace in a test). */
  readonly settings?: Readonly<Record<string, string>>;
}

export class ReleaseStack {
  readonly children: ChildProcess[] = [];
  /** What each app wrote (stdout and stderr), by the name it was started under. */
  readonly outputs = new Map<string, string>();
  gatewayUrl = '';
  /** The gateway's operator endpoints (detailed /health, /metrics). */
  operatorUrl = '';

  private constructor(
    readonly folder: string,
    private readonly infrastructure: ReleaseInfrastructure,
  ) {}

  /**
   * The image's /app, built as the Dockerfile builds it: package.json and the lock, `npm ci
   * --omit=dev`, dist/ without the build's incremental state, scripts/register-paths.cjs.
   */
  static prepare(infrastructure: ReleaseInfrastructure): ReleaseStack {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'einvoice-release-'));
    const folder = path.join(parent, 'app');
    mkdirSync(path.join(folder, 'scripts'), { recursive: true });
    for (const file of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, file), path.join(folder, file));
    const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (install.status !== 0) throw new Error(`npm ci --omit=dev failed:\n${install.stderr}`);
    // Not the build's own state (incremental info, scripts/lib/services.mjs's up-to-date stamp): the image has neither.
    cpSync(path.join(ROOT, 'dist'), path.join(folder, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.tsbuildinfo') && !source.endsWith('.build-stamp') });
    cpSync(path.join(ROOT, 'scripts', 'register-paths.cjs'), path.join(folder, 'scripts', 'register-paths.cjs'));
    return new ReleaseStack(folder, infrastructure);
  }

  /** The environment docker-compose.yml gives an app, on this machine's services; plus the image's ENV. */
  environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const { databaseUrl, redisUrl, kafkaBrokers, topicPrefix } = this.infrastructure;
    const given: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      KAFKA_BROKERS: kafkaBrokers,
      KAFKA_TOPIC_PREFIX: topicPrefix,
      // No collector here: no traces exported.
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      ...extra,
    };
    const compose = composeFile()['x-app-environment'];
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(compose)) env[name] = composeValue(name, value, given);
    return {
      // Only what a container has: a PATH whose `node` is the one running this test (the pinned Node 24), a HOME.
      PATH: `${path.dirname(process.execPath)}${path.delimiter}/usr/bin:/bin`,
      HOME: this.folder,
      ...dockerfileEnvironment(),
      ...env,
      ...this.infrastructure.settings,
      ...extra,
    };
  }

  /** Runs a compose service's command (or the Dockerfile's CMD) in the release folder. */
  start(name: string, command: readonly string[], extra: Record<string, string> = {}): ChildProcess {
    const child = spawn(command[0], command.slice(1), { cwd: this.folder, env: this.environment(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    const logFile = process.env.TEST_LOG_DIR && path.join(process.env.TEST_LOG_DIR, `release-${name}-${child.pid}.log`);
    const log = logFile ? createWriteStream(logFile, { flags: 'a' }) : undefined;
    // Kept, and in the test log folder (`npm test` checks those for secrets), not echoed: at the
    // compose file's info level the four apps say much.
    this.outputs.set(name, '');
    for (const stream of [child.stdout, child.stderr]) {
      stream?.on('data', (chunk: Buffer) => {
        this.outputs.set(name, this.outputs.get(name) + chunk.toString('utf8'));
        log?.write(chunk);
      });
    }
    child.once('exit', () => log?.end());
    this.children.push(child);
    return child;
  }

  /** The compose file's one-shot `migrate` (schema, then topics); resolves with its exit code. */
  async migrate(): Promise<number | null> {
    const child = this.start('migrate', commandOf('migrate'));
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** The four apps, each with its compose command (the gateway's is also the Dockerfile's CMD). */
  async startApps(): Promise<void> {
    const port = await freePort();
    const operatorPort = await freePort();
    for (const app of RELEASE_APPS) {
      // Each container has its own metrics port 9464; on one host each app takes a free one.
      const extra: Record<string, string> = { METRICS_PORT: String(await freePort()) };
      if (app === 'gateway') Object.assign(extra, { HOST: '127.0.0.1', PORT: String(port), OPERATOR_HOST: '127.0.0.1', OPERATOR_PORT: String(operatorPort) });
      this.start(app, commandOf(app), extra);
    }
    this.gatewayUrl = `http://127.0.0.1:${port}`;
    this.operatorUrl = `http://127.0.0.1:${operatorPort}`;
    await eventually('every release app ready (the detailed GET /health: the gateway and every worker)', async () => {
      for (const [i, child] of this.children.slice(1).entries()) {
        if (child.exitCode !== null) throw new Error(`${RELEASE_APPS[i]} exited with ${child.exitCode}:\n${this.outputs.get(RELEASE_APPS[i])?.slice(-4000)}`);
      }
      const health = await fetch(`${this.operatorUrl}/health`).then((r) => (r.ok ? r.json() : undefined)).catch(() => undefined) as
        | { workers?: Array<{ group: string; ready: boolean }> }
        | undefined;
      const ready = (app: string) => health?.workers?.some((w) => w.group.endsWith(`.${app}`) && w.ready) ?? false;
      return RELEASE_APPS.filter((a) => a !== 'gateway').every(ready) ? true : undefined;
    }, 120_000);
  }

  /** The operator CLI as docker-compose.yml's header runs it (`docker compose run --rm migrate node … cli.js …`). */
  cli(args: readonly string[]): string {
    const result = spawnSync('node', ['-r', './scripts/register-paths.cjs', 'dist/apps/gateway/src/cli.js', ...args], {
      cwd: this.folder,
      env: this.environment(),
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${result.stderr}`);
    return result.stdout.trim();
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    rmSync(path.dirname(this.folder), { recursive: true, force: true });
  }
}

/** A compose service's command as an argument list (`sh -c …` for a string). */
export function commandOf(service: string): string[] {
  const command = composeFile().services[service]?.command;
  if (!command) throw new Error(`docker-compose.yml has no command for ${service}`);
  return typeof command === 'string' ? ['sh', '-c', command] : [...command];
}

/**
 * The release test's own database (its name ends in _test: the CLI's reset-test-database drops it), named
 * after the run's (`einvoice_test`: `einvoice_release_test`): a fixed name would be dropped by another run's
 * release test while this one's apps use it.
 */
export function releaseDatabaseUrl(base: string): string {
  return ownDatabaseUrl(base, 'release');
}

export const releaseFolderHasNoShared = (stack: ReleaseStack): boolean => !existsSync(path.join(stack.folder, '..', 'shared'));
