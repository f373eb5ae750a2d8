// Brings up what the stack needs on this machine: npm packages, PostgreSQL, Redis, the compiled
// apps and the database schema. Plain Node ESM so that it runs before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isPortOpen } from './kafka.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export function say(message) {
  process.stderr.write(`[stack] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: ROOT, ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  return result;
}

/**
 * Installs npm packages when node_modules is missing or was installed for another lock file
 * (a stamp holds the lock's hash). `npm install`, not `npm ci`: the lock names optional
 * platform builds (darwin, win32) that a registry mirror may not serve, which `npm ci` refuses.
 */
export function ensureNodeModules() {
  const stamp = path.join(ROOT, 'node_modules', '.einvoice-lock-sha256');
  const lockHash = createHash('sha256').update(readFileSync(path.join(ROOT, 'package-lock.json'))).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === lockHash) return;
  say('installing npm packages');
  run('npm', ['install', '--no-audit', '--no-fund'], { stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(stamp, `${lockHash}\n`);
}

/**
 * Installs the Debian packages whose commands the tests run (`{command: package}`) when a command is
 * missing: xmlsec1, the independent XMLDSig verifier of the signed SMP's test; chromium, the browser
 * that opens the API reference (/docs) in its test, driven by puppeteer-core. apt-get as the
 * machine's root (the CI user here); elsewhere the message says what to install.
 */
export function ensureDebianCommands(commands) {
  // Present when it runs at all: poppler's tools answer `--version` with status 1 (they know `-v`).
  const missing = Object.entries(commands).filter(([command]) => spawnSync(command, ['--version'], { stdio: 'ignore' }).error !== undefined);
  if (!missing.length) return;
  const packages = [...new Set(missing.map(([, pkg]) => pkg))];
  say(`installing ${packages.join(', ')} (apt-get)`);
  const result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`apt-get install ${packages.join(' ')} failed: install them and run again`);
}

async function waitForPort(port, seconds) {
  for (let i = 0; i < seconds * 4; i += 1) {
    if (await isPortOpen(port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** Starts the machine's PostgreSQL cluster when nothing listens on 5432 (commands from the env entry). */
export async function ensurePostgres() {
  if (await isPortOpen(5432)) return;
  say('starting PostgreSQL');
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (no /etc/postgresql); install it or set DATABASE_URL.');
  run('pg_ctlcluster', ['--skip-systemctl-redirect', versions[0], 'main', 'start']);
  if (!(await waitForPort(5432, 30))) throw new Error('PostgreSQL did not start on 127.0.0.1:5432');
}

/** Starts Redis without persistence when nothing listens on 6379. */
export async function ensureRedis() {
  if (await isPortOpen(6379)) return;
  say('starting Redis');
  run('redis-server', [
    '--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no',
    '--dir', '/var/lib/redis', '--logfile', '/var/log/redis/ci.log',
  ]);
  if (!(await waitForPort(6379, 15))) throw new Error('Redis did not start on 127.0.0.1:6379');
}

/**
 * Compiles apps and libs into dist/ (incremental), unless no input changed since the last build.
 * tsc's own incremental check still reads and hashes every source and type file: ~20 s of CPU for
 * nothing on this 2-core host, paid by every `npm start` (twice in `npm test`: the supervision and
 * live-engine e2e run it) and every `npm run cli`. The stamp's time is the start of the build that
 * succeeded, so that a file saved during a build is seen as newer. Then the web console (#50,
 * apps/console): Vite builds it into dist/console when its sources are newer than its own stamp.
 */
export function build() {
  const stale = staleBuilds();
  if (stale.apps) {
    const startedAt = new Date();
    run(process.execPath, TSC_BUILD, { stdio: ['ignore', 2, 'inherit'] });
    stamp(BUILD_STAMP, startedAt);
  }
  if (stale.console) {
    const startedAt = new Date();
    run(process.execPath, VITE_BUILD, { stdio: ['ignore', 2, 'inherit'] });
    stamp(CONSOLE_STAMP, startedAt);
  }
}

/**
 * The builds of build() without blocking the event loop (`npm test` starts its Kafka broker
 * meanwhile), for what `stale` names: the caller asks staleBuilds() first, as that check blocks
 * (a timer of what runs meanwhile, such as a port probe's, would expire during it).
 */
export async function buildAsync(stale = { apps: true, console: true }) {
  const build = async (args, stampFile) => {
    const startedAt = new Date();
    await runAsync(process.execPath, args, { stdio: ['ignore', 2, 'inherit'] });
    stamp(stampFile, startedAt);
  };
  // One after the other: two compilers at once on a 2-core host only make both slower.
  if (stale.apps) await build(TSC_BUILD, BUILD_STAMP);
  if (stale.console) await build(VITE_BUILD, CONSOLE_STAMP);
}

const TSC_BUILD = [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'];
const VITE_BUILD = [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', path.join(ROOT, 'apps', 'console', 'vite.config.mjs')];

function stamp(file, startedAt) {
  writeFileSync(file, `${path.relative(ROOT, path.dirname(file))}/ built from the inputs older than this file (scripts/lib/services.mjs build())\n`);
  utimesSync(file, startedAt, startedAt);
}

const BUILD_STAMP = path.join(ROOT, 'dist', '.build-stamp');
/** In dist/console itself: Vite empties that folder at each build, so a failed build leaves no stamp. */
const CONSOLE_STAMP = path.join(ROOT, 'dist', 'console', '.build-stamp');
const CONSOLE_SOURCES = path.join('apps', 'console');
/** What the console imports from outside its folder: the domain's state and event-type lists (apps/console/src/model.ts). */
const CONSOLE_SHARED = [path.join('libs', 'domain', 'src', 'account')];
/** The files both builds read besides their sources: the compiler's settings, the lock and the install stamp (the compilers and the packages' types). */
const COMMON_INPUTS = ['tsconfig.base.json', 'package-lock.json', path.join('node_modules', '.einvoice-lock-sha256')];

/** True when dist/ holds every app and the console, each built after its inputs last changed. */
export function buildIsCurrent() {
  const stale = staleBuilds();
  return !stale.apps && !stale.console;
}

/**
 * Which builds are out of date: `apps` when dist/ lacks an app or something tsc reads is newer than its
 * last start (the sources under apps/ and libs/, folders too: a deleted or renamed file changes its
 * folder's time; the tsconfig files, the lock and install stamp); `console` the same for the console's
 * folder, what it imports from libs/, and dist/console.
 */
export function staleBuilds() {
  const newerThan = (builtAt) => {
    const newer = (folder, skip = []) => {
      if (statSync(folder).mtimeMs >= builtAt) return true;
      return readdirSync(folder, { withFileTypes: true }).some((entry) => {
        const file = path.join(folder, entry.name);
        if (skip.includes(file)) return false;
        return entry.isDirectory() ? newer(file) : statSync(file).mtimeMs >= builtAt;
      });
    };
    return { newer, file: (file) => existsSync(path.join(ROOT, file)) && statSync(path.join(ROOT, file)).mtimeMs >= builtAt };
  };
  const appsStale = () => {
    if (!existsSync(BUILD_STAMP)) return true;
    if (!APPS.every((app) => existsSync(path.join(ROOT, 'dist', 'apps', app, 'src', 'main.js')))) return true;
    const { newer, file } = newerThan(statSync(BUILD_STAMP).mtimeMs);
    if ([...COMMON_INPUTS, 'tsconfig.json', 'tsconfig.build.json'].some(file)) return true;
    // The console is not tsc's (tsconfig.build.json leaves it out): a change there rebuilds the console only.
    return ['apps', 'libs'].some((top) => newer(path.join(ROOT, top), [path.join(ROOT, CONSOLE_SOURCES)]));
  };
  const consoleStale = () => {
    if (!existsSync(CONSOLE_STAMP) || !existsSync(path.join(ROOT, 'dist', 'console', 'index.html'))) return true;
    const { newer, file } = newerThan(statSync(CONSOLE_STAMP).mtimeMs);
    if (COMMON_INPUTS.some(file)) return true;
    return [CONSOLE_SOURCES, ...CONSOLE_SHARED].some((folder) => newer(path.join(ROOT, folder)));
  };
  return { apps: appsStale(), console: consoleStale() };
}

/**
 * V8's young generation for the apps: 64 MiB semi-spaces instead of 16. Each request leaves its JSON,
 * DTO, UBL and statement behind; under the bench's accept load the gateway spent 9.1% of its samples in
 * the garbage collector with the default and 5.5% with these (issue 11). And never under 16 MiB: V8
 * starts a heap's at 1 MiB and shrinks it again after an idle spell, and a thread woken by a burst then
 * promotes what a larger one would have let die. The gateway's outbox relay thread, idle ~40 s before the
 * bench's accept phase (the reference and bare-route phases), spent ~250 ms of every second of it in its
 * garbage collector, ~50 with this floor, as when it had been idle ~20 s (BENCH_CPU_PROF=gateway); the
 * same flags in the Dockerfile and docker-compose.yml. Every thread of a process has them.
 */
const APP_NODE_FLAGS = ['--max-semi-space-size=64', '--min-semi-space-size=16'];

/** Node arguments that run a compiled app with the path aliases resolved. */
export function appEntry(app) {
  return [...APP_NODE_FLAGS, ...registerPaths(), path.join(ROOT, 'dist', 'apps', app, 'src', 'main.js')];
}

function registerPaths() {
  return ['-r', path.join(ROOT, 'scripts', 'register-paths.cjs')];
}

/** Runs a function of the compiled tooling module (migrations, tenants, topics) in a child process. */
export function tool(command, args, env = process.env) {
  const result = spawnSync(process.execPath, [...registerPaths(), path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'cli.js'), command, ...args], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`cli ${command} failed with ${result.status}`);
  return result.stdout.trim();
}

/** tool() without blocking the event loop, for commands that do not wait for each other (migrate, topics). */
export async function toolAsync(command, args, env = process.env) {
  const { stdout } = await runAsync(process.execPath, [...registerPaths(), path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'cli.js'), command, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return stdout.trim();
}

/** run() as a promise: resolves with the stdout it piped, rejects on a non-zero exit. */
function runAsync(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: ROOT, ...options });
    let stdout = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve({ stdout });
      else reject(new Error(`${path.basename(command)} ${args.join(' ')} exited with ${code ?? signal}`));
    });
  });
}

export const APPS = ['gateway', 'delivery-worker', 'reporting-worker', 'webhook-dispatcher'];

/**
 * The key that seals secrets at rest (SECRETS_KEY, 32 bytes base64) for local runs: generated
 * once into .run/secrets-key (mode 600) and reused, so stored webhook secrets stay readable.
 * Production provides its own; the apps refuse to start there without one.
 */
export function developmentSecretsKey() {
  const file = path.join(ROOT, '.run', 'secrets-key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32).toString('base64');
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another script wrote it first: use that one.
    if (error.code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  return key;
}
