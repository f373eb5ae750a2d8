// The Peppol AS4 engine (engines/as4, phase4 from Maven Central; docs/peppol-as4.md), built and run
// like the Kafka broker (scripts/lib/kafka.mjs): one `mvn package` (jars cached in ~/.m2 after the
// first run), then a detached java process per engine, ready when GET /health answers.
// Plain Node ESM, no npm dependency.
//
// From another script (npm start with PEPPOL_MODE=live, a bench):
//   import { ensureAs4Engine, startAs4Engine } from './lib/as4-engine.mjs';
//   ensureAs4Engine({ root });
//   const engine = await startAs4Engine({ root, dataDir: `${root}/.run/as4-engine`, env: { AS4_ENGINE_SECRET, ... } });
//   ...; await engine.stop();
// From a shell or jest (which cannot import ESM): the engine's settings come from the environment:
//   node scripts/lib/as4-engine.mjs build
//   node scripts/lib/as4-engine.mjs start --data-dir /tmp/a [--log-file /tmp/a.log]   -> one JSON line
//   node scripts/lib/as4-engine.mjs stop --data-dir /tmp/a

import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, readFrom, readPidFile, runWhenMain, runs, sleep, stopPid as stopPidFile } from './pid-process.mjs';

const DEFAULT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const MAIN_CLASS = 'io.einvoice.as4.Main';
/** Main's exit status when it refuses its configuration (an expired certificate, a missing setting). */
const EXIT_REFUSED = 2;

/** Where `mvn package` leaves the engine: its jar and its classpath folder. */
export function as4EngineBuild(root = DEFAULT_ROOT) {
  const target = path.join(root, 'engines', 'as4', 'target');
  return { pom: path.join(root, 'engines', 'as4', 'pom.xml'), jar: path.join(target, 'as4-engine.jar'), libDir: path.join(target, 'lib') };
}

/**
 * Builds the engine when its jar is missing or older than its pom or any source file; otherwise
 * does nothing. The first build downloads phase4 and its dependencies from Maven Central.
 * @returns {{ jar: string, libDir: string, built: boolean, buildMs?: number }}
 */
export function ensureAs4Engine({ root = DEFAULT_ROOT } = {}) {
  const { pom, jar, libDir } = as4EngineBuild(root);
  if (existsSync(jar) && existsSync(libDir) && statSync(jar).mtimeMs >= newestSource(path.dirname(pom))) {
    return { jar, libDir, built: false };
  }
  const started = Date.now();
  // Maven's output goes to stderr: this script's stdout is its JSON answer alone (test/support/as4-engine.ts
  // reads it), and Maven prints colour resets even in batch mode.
  const result = spawnSync('mvn', ['-B', '-q', '-Dstyle.color=never', '-f', pom, 'package', '-DskipTests'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (result.error) throw new Error(`Could not run Maven for the AS4 engine: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`\`mvn -q -f engines/as4/pom.xml package\` failed with exit code ${result.status}`);
  if (!existsSync(jar)) throw new Error(`Maven finished but ${jar} is missing`);
  return { jar, libDir, built: true, buildMs: Date.now() - started };
}

function newestSource(dir) {
  let newest = statSync(path.join(dir, 'pom.xml')).mtimeMs;
  const walk = (d) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  walk(path.join(dir, 'src'));
  return newest;
}

/**
 * Starts one engine with `env` (its settings, docs/peppol-as4.md "Settings"; merged over
 * process.env) and waits until GET /health answers 200.
 * Returns `{ pid, url, health, startMs, logFile, stop }`; `stop()` sends SIGTERM and waits.
 * A refused configuration rejects with the engine's own sentence.
 */
export async function startAs4Engine({ root = DEFAULT_ROOT, dataDir, logFile, env = {}, heapMb = 256, timeoutMs = 60_000 } = {}) {
  if (!dataDir) throw new Error('startAs4Engine needs a dataDir (the engine keeps received MessageIds there)');
  dataDir = path.resolve(dataDir);
  logFile = path.resolve(logFile ?? path.join(dataDir, 'as4-engine.log'));
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(path.dirname(logFile), { recursive: true });
  const settings = { ...process.env, ...env, AS4_ENGINE_DATA_DIR: dataDir };
  const url = settings.AS4_ENGINE_URL ?? 'http://127.0.0.1:8480';
  const secret = settings.AS4_ENGINE_SECRET;

  const running = readPid(dataDir);
  if (running !== undefined && isEngineProcess(running)) {
    throw new Error(`An AS4 engine (pid ${running}) already runs on ${dataDir}; stop it (stopAs4Engine) first`);
  }

  const { jar, libDir } = ensureAs4Engine({ root });
  const logOffset = existsSync(logFile) ? statSync(logFile).size : 0;
  const out = openSync(logFile, 'a');
  const startedAt = Date.now();
  const child = spawn('java', [`-Xmx${heapMb}m`, '-Djava.awt.headless=true', '-cp', `${jar}${path.delimiter}${libDir}${path.sep}*`, MAIN_CLASS], {
    env: settings,
    // Own process group, as the Kafka broker: a Ctrl-C for the parent does not kill it mid-receive.
    detached: true,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error('Could not spawn java for the AS4 engine');
  writeFileSync(pidFile(dataDir), `${pid}\n`);
  let exitCode;
  child.once('exit', (code, signal) => (exitCode = code ?? signal));
  const stop = () => stopPid(pid, dataDir);

  for (;;) {
    if (exitCode !== undefined) {
      rmSync(pidFile(dataDir), { force: true });
      const why = exitCode === EXIT_REFUSED ? 'refused to start' : `exited (${exitCode}) during start-up`;
      throw new Error(`AS4 engine ${why}. Log (${logFile}):\n${readFrom(logFile, logOffset).trimEnd().split('\n').slice(-15).join('\n')}`);
    }
    const health = await getHealth(url, secret);
    if (health) return { pid, url, health, startMs: Date.now() - startedAt, logFile, stop };
    if (Date.now() - startedAt > timeoutMs) {
      await stop();
      throw new Error(`AS4 engine not ready at ${url} after ${timeoutMs} ms. Log (${logFile}):\n${readFrom(logFile, logOffset).slice(-3000)}`);
    }
    await sleep(250);
  }
}

/** Stops the engine whose pid is in dataDir: SIGTERM (it closes its MessageId store), SIGKILL after `timeoutMs`. */
export async function stopAs4Engine({ dataDir, timeoutMs = 15_000 }) {
  const pid = readPid(path.resolve(dataDir));
  if (pid === undefined || !isEngineProcess(pid)) {
    rmSync(pidFile(dataDir), { force: true });
    return { stopped: false };
  }
  await stopPid(pid, path.resolve(dataDir), timeoutMs);
  return { stopped: true, pid };
}

/** GET /health's JSON when the engine answers 200, else undefined. */
function getHealth(url, secret) {
  return new Promise((resolve) => {
    const request = http.get(new URL('/health', url), { headers: { 'x-engine-secret': secret ?? '' }, timeout: 2_000 }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => {
        try {
          resolve(response.statusCode === 200 ? JSON.parse(body) : undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(undefined));
  });
}

const stopPid = (pid, dataDir, timeoutMs = 15_000) => stopPidFile(pid, pidFile(dataDir), timeoutMs);

const pidFile = (dataDir) => path.join(dataDir, 'as4-engine.pid');

const readPid = (dataDir) => readPidFile(pidFile(dataDir));

/** Guards against a stale pid file whose pid now belongs to some other process. */
const isEngineProcess = (pid) => runs(pid, MAIN_CLASS);

async function main([command, ...rest]) {
  const options = parseArgs(rest);
  if (command === 'build') return ensureAs4Engine(options);
  if (command === 'start') {
    const { stop: _stop, ...result } = await startAs4Engine(options);
    return result;
  }
  if (command === 'stop') return stopAs4Engine(options);
  throw new Error('usage: as4-engine.mjs build | start --data-dir D [--log-file L] [--heap-mb M] | stop --data-dir D');
}

runWhenMain(import.meta.url, main);
