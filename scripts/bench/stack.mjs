// The benchmark's own stack: its own database, Kafka broker, topic prefix and gateway port, so a
// developer's `npm start` stack (port 3000, broker 9092, database einvoice) is never touched.
// PostgreSQL and Redis are the machine's shared servers (started if down, as `npm start` does).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { ensureKafkaJars, freePort, startKafka } from '../lib/kafka.mjs';
import { warmUpBroker } from './kafka-warmup.mjs';
import { APPS, ROOT, appEntry, build, ensureNodeModules, ensurePostgres, ensureRedis, say, tool } from '../lib/services.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** `postgres://.../einvoice_bench` -> { name, adminUrl } (the maintenance database `postgres`). */
function databaseOf(databaseUrl) {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  // The database is dropped on every run: never one whose name does not say it is the bench's.
  if (!/_bench$/.test(name)) throw new Error(`refusing to drop ${name}: the bench database name must end in _bench`);
  url.pathname = '/postgres';
  return { name, adminUrl: url.toString() };
}

async function dropDatabase(databaseUrl) {
  const { default: pg } = await import('pg');
  const { name, adminUrl } = databaseOf(databaseUrl);
  const client = new pg.Client({ connectionString: adminUrl, application_name: 'einvoice-bench' });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** Last lines of a file (app logs on failure). */
export function tailOf(file, lines = 25) {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Brings the whole stack up and returns a handle; `stop()` is idempotent and safe to call at any
 * point (after a failed start too), so the caller can call it from `finally` and signal handlers.
 * The options beyond `databaseUrl` and `runId` make a second installation beside the bench's own (the
 * as4 phase's two access points): `brokers` an existing broker's address (then none is started or
 * warmed up here), `apps` the apps it runs (default all), `port` its gateway's port (known before it
 * starts: its AS4 engine calls it back), `topicPrefix` (default `bench<runId>`), `env` added to its apps'.
 */
export function createStack({ databaseUrl, runId, brokers, apps = APPS, port: fixedPort, topicPrefix = `bench${runId}`, env: extraEnv = {} }) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'einvoice-bench-'));
  const children = [];
  const logs = {};
  let broker = { started: false };
  let stopping = false;
  let stopped;
  let failure;

  const stack = {
    tmp,
    logs,
    env: undefined,
    /** Each worker's metrics endpoint. */
    metricsUrls: {},
    /** The gateway's operator port (its /metrics: not probed during a load, it counts the whole database). */
    operatorUrl: undefined,
    url: undefined,
    apiKey: undefined,
    /** BODY_LIMIT_BYTES of the bench gateway (the bench prints it). */
    bodyLimitBytes: Number(process.env.BODY_LIMIT_BYTES ?? 8 * 1024 * 1024),
    /** Set when an app exited by itself: the run cannot be trusted any more. */
    get failure() {
      return failure;
    },
    assertAlive() {
      if (stopping) throw new Error('the stack is stopping');
      if (failure) throw new Error(failure);
    },
    /** { gateway: pid, ..., kafka: pid } of what the bench started. */
    pids() {
      const pids = Object.fromEntries(children.map(({ app, child }) => [app, child.pid]));
      if (broker.started) pids.kafka = broker.pid;
      return pids;
    },

    /**
     * One more process of `app` (the scale phase): same environment, so a worker joins its
     * consumer group; a gateway gets a port of its own. Resolves with its URL (gateways) once it answers.
     */
    async startAnother(app) {
      const name = `${app}#${children.filter((c) => c.app === app || c.app.startsWith(`${app}#`)).length + 1}`;
      const port = app === 'gateway' ? await freePort() : undefined;
      const env = port ? { ...stack.env, PORT: String(port) } : stack.env;
      const logFile = path.join(tmp, `${name.replace('#', '-')}.log`);
      logs[name] = logFile;
      const out = openSync(logFile, 'a');
      const child = spawn(process.execPath, appEntry(app), { cwd: ROOT, env, stdio: ['ignore', out, out], detached: true });
      closeSync(out);
      const entry = { app: name, child, extra: true, stopped: false };
      child.on('exit', (code, signal) => {
        if (stopping || entry.stopped) return;
        failure ??= `${name} exited on its own (${signal ?? `code ${code}`}); last lines of its log:\n${tailOf(logFile)}`;
        say(failure);
      });
      children.push(entry);
      if (!port) return undefined;
      const url = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      for (;;) {
        stack.assertAlive();
        const ok = await fetch(`${url}/health/live`).then((r) => r.status === 200, () => false);
        if (ok) return url;
        if (Date.now() > deadline) throw new Error(`${name} did not answer within 60 s:\n${tailOf(logFile)}`);
        await sleep(250);
      }
    },

    /**
     * Stops what startAnother added (SIGTERM, then waits for the exit), so that the phases after the
     * scale phase meet the stack as it was: the extra processes' pools held connections the reference's
     * second run then lacked ("too many clients already", 1,232 of its requests a 500).
     */
    async stopOthers() {
      const extras = children.filter((c) => c.extra && !c.stopped);
      await Promise.all(extras.map((entry) => {
        const { child } = entry;
        entry.stopped = true;
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        return new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGTERM');
        });
      }));
    },

    /** SIGSTOP / SIGCONT the workers (the accept-path phase measures the gateway with them paused). */
    pauseWorkers(paused) {
      for (const { app, child } of children) {
        if (app.startsWith('gateway') || child.exitCode !== null || child.signalCode !== null) continue;
        child.kill(paused ? 'SIGSTOP' : 'SIGCONT');
      }
    },

    async start() {
      ensureNodeModules();
      ensureKafkaJars({ root: ROOT });
      await ensurePostgres();
      await ensureRedis();

      let kafkaBrokers = brokers;
      if (!kafkaBrokers) {
        const kafkaPort = await freePort();
        say(`starting the bench's Kafka broker on 127.0.0.1:${kafkaPort} (data in ${tmp})`);
        broker = await startKafka({ root: ROOT, port: kafkaPort, dataDir: path.join(tmp, 'kafka'), logFile: path.join(tmp, 'kafka.log') });
        if (!broker.started) throw new Error(`something already answers on 127.0.0.1:${kafkaPort}; not the bench's broker`);
        // Before anything is measured (kafka-warmup.mjs says why).
        await warmUpBroker({ root: ROOT, brokers: broker.brokers, seconds: Number(process.env.BENCH_KAFKA_WARMUP_S ?? 30), say });
        kafkaBrokers = broker.brokers;
      }

      const port = fixedPort ?? (await freePort());
      const env = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        KAFKA_BROKERS: kafkaBrokers,
        KAFKA_TOPIC_PREFIX: topicPrefix,
        KAFKAJS_NO_PARTITIONER_WARNING: '1',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        // Webhooks to the bench's own receiver on 127.0.0.1; a throwaway key for secrets at rest.
        WEBHOOK_ALLOW_LOOPBACK: 'true',
        // The webhooks phase's dead endpoints time out after 5 s (#48 "Speed").
        WEBHOOK_TIMEOUT_MS: process.env.WEBHOOK_TIMEOUT_MS ?? '5000',
        SECRETS_KEY: process.env.SECRETS_KEY ?? randomBytes(32).toString('base64'),
        // 100-document MyInvois bulks can pass the default 1 MB body limit (MyInvois allows 5 MB).
        BODY_LIMIT_BYTES: String(stack.bodyLimitBytes),
        MYINVOIS_MODE: 'sandbox',
        // Spain: the sandbox AEAT's TiempoEsperaEnvio (60 s at the AEAT) short enough that every record is answered within the phase.
        VERIFACTU_SANDBOX_WAIT_S: '1',
        // Poland: KSeF's per-second send limit per NIP (10/s), its per-minute and per-hour ones raised so the phase drains in minutes.
        KSEF_SANDBOX_LIMITS: '10/600/36000',
        // Jordan: the sandbox JoFotara's time to answer (BENCH_JO_LATENCY_MS).
        JOFOTARA_SANDBOX_DELAY_MS: process.env.BENCH_JO_LATENCY_MS ?? '50',
        // Nigeria: the sandbox FIRS's time to answer a signing (BENCH_NG_LATENCY_MS).
        FIRS_SANDBOX_DELAY_MS: process.env.BENCH_NG_LATENCY_MS ?? '50',
        // The bench measures capacity with one tenant: its per-tenant allowance must not be the ceiling.
        TENANT_RATE_LIMIT_PER_S: '0',
        ...extraEnv,
      };
      stack.env = env;
      stack.url = `http://127.0.0.1:${port}`;

      say('building (tsc -p tsconfig.build.json)');
      build();
      say(`recreating database ${databaseOf(databaseUrl).name}`);
      await dropDatabase(databaseUrl);
      tool('migrate', [], env);
      tool('topics', [], env);
      stack.apiKey = tool('tenants', ['create', 'bench'], env);
      if (!stack.apiKey) throw new Error('cli tenants create printed no API key');

      for (const app of apps) {
        const logFile = path.join(tmp, `${app}.log`);
        logs[app] = logFile;
        const out = openSync(logFile, 'a');
        // Each worker's Prometheus metrics on a port of its own: the phases print its handlers' times.
        // The gateway's operator port (its /metrics counts the whole database at each scrape: not probed)
        // is a free one too: never 9463, which a running stack may hold.
        const port = await freePort();
        if (app !== 'gateway') stack.metricsUrls[app] = `http://127.0.0.1:${port}/metrics`;
        // The views phase reads the gateway's heap there, outside its loads.
        else stack.operatorUrl = `http://127.0.0.1:${port}`;
        const appEnv = app === 'gateway' ? { ...env, OPERATOR_PORT: String(port) } : { ...env, METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' };
        // Own process group: a Ctrl-C reaches only this script, which then stops each app once.
        const child = spawn(process.execPath, [...profileArgs(app), ...appEntry(app)], { cwd: ROOT, env: appEnv, stdio: ['ignore', out, out], detached: true });
        closeSync(out);
        child.on('exit', (code, signal) => {
          if (stopping) return;
          failure ??= `${app} exited on its own (${signal ?? `code ${code}`}); last lines of its log:\n${tailOf(logFile)}`;
          say(failure);
        });
        children.push({ app, child });
      }

      say(`waiting for ${stack.url}/health/live`);
      const deadline = Date.now() + 60_000;
      for (;;) {
        stack.assertAlive();
        try {
          const response = await fetch(`${stack.url}/health/live`);
          if (response.status === 200) break;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`the gateway did not answer ${stack.url}/health/live within 60 s:\n${tailOf(logs.gateway)}`);
        await sleep(250);
      }
      // The workers log nothing at LOG_LEVEL=warn when they are ready: wait until their consumer
      // groups have joined, or the first documents would wait for a rebalance and skew the figures.
      await waitForConsumerGroups(env.KAFKA_TOPIC_PREFIX, kafkaBrokers, apps, stack);
    },

    /** Drops the bench's database (after stop(): it is recreated on every run anyway; a phase's fixture fills GBs). */
    dropDatabase: () => dropDatabase(databaseUrl),

    /** SIGTERM to every app (SIGKILL after 15 s), then the broker, then the temp folder. */
    stop() {
      stopped ??= (async () => {
        stopping = true;
        const running = children.filter(({ child }) => child.exitCode === null && child.signalCode === null);
        for (const { child } of running) {
          try {
            child.kill('SIGTERM');
          } catch {
            // already gone
          }
        }
        await Promise.all(
          running.map(
            ({ app, child }) =>
              new Promise((resolve) => {
                if (child.exitCode !== null || child.signalCode !== null) return resolve();
                const timer = setTimeout(() => {
                  say(`${app} did not stop within 15 s; SIGKILL`);
                  child.kill('SIGKILL');
                }, 15_000);
                child.once('exit', () => {
                  clearTimeout(timer);
                  resolve();
                });
              }),
          ),
        );
        if (broker.started) {
          say('stopping the bench Kafka broker');
          await broker.stop().catch((error) => say(`broker stop failed: ${error.message}`));
        }
        if (process.env.BENCH_KEEP_TMP === '1') say(`kept ${tmp} (BENCH_KEEP_TMP=1)`);
        else rmSync(tmp, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
  return stack;
}

/**
 * BENCH_CPU_PROF=gateway,delivery-worker (or `all`): those apps run under `node --cpu-prof`; each
 * writes its .cpuprofile files into a folder of its own under BENCH_CPU_PROF_DIR (default
 * ./.run/profiles/<app>-<time>/) when it stops, one per thread, Node's names: `CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile`,
 * thread 0 the main one (the gateway's outbox relay runs on a thread of its own, which a fixed file
 * name would make both threads write).
 */
function profileArgs(app) {
  const wanted = (process.env.BENCH_CPU_PROF ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted.includes(app) && !wanted.includes('all')) return [];
  const dir = path.resolve(process.env.BENCH_CPU_PROF_DIR ?? path.join(ROOT, '.run', 'profiles'));
  return ['--cpu-prof', `--cpu-prof-dir=${path.join(dir, `${app}-${Date.now()}`)}`];
}

/** Waits until each worker's consumer group (`<prefix>.<app>`) is Stable with members. */
async function waitForConsumerGroups(prefix, brokers, apps, stack) {
  const { Kafka, logLevel } = createRequire(path.join(ROOT, 'package.json'))('kafkajs');
  const admin = new Kafka({ clientId: 'einvoice-bench', brokers: [brokers], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const groups = apps.filter((app) => app !== 'gateway').map((app) => `${prefix}.${app}`);
    const deadline = Date.now() + 60_000;
    for (;;) {
      stack.assertAlive();
      const { groups: described } = await admin.describeGroups(groups).catch(() => ({ groups: [] }));
      const waiting = groups.filter((g) => {
        const d = described.find((x) => x.groupId === g);
        return !d || d.state !== 'Stable' || d.members.length === 0;
      });
      if (waiting.length === 0) return;
      if (Date.now() > deadline) {
        // Not every app may consume (a worker with another group name): warn, do not fail.
        say(`consumer groups not stable after 60 s: ${waiting.join(', ')}; going on`);
        return;
      }
      await sleep(500);
    }
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
