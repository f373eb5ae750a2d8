// `npm start`: the whole stack on this machine. Installs what is missing, starts PostgreSQL,
// Redis and a single-node Kafka broker, migrates, creates the topics, then runs the four apps and
// keeps them running: an app that exits is restarted on its own, with backoff, while the others
// keep serving (lib/supervisor.mjs). With PEPPOL_MODE=live it also runs the AS4 engine
// (lib/peppol-live.mjs). It prints the stack ready once the gateway answers and every worker holds
// its partitions (GET /health). Ctrl-C stops the apps, then the engine and the broker it started.
// Running it twice does no harm.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureKafkaJars, isPortOpen, startKafka } from './lib/kafka.mjs';
import { as4EngineEnv, startStackEngine } from './lib/peppol-live.mjs';
import { Supervisor } from './lib/supervisor.mjs';
import { APPS, ROOT, appEntry, build, developmentSecretsKey, ensureNodeModules, ensurePostgres, ensureRedis, say, tool, toolAsync } from './lib/services.mjs';
import { runOnPinnedNode } from './lib/node-runtime.mjs';

// The image's Node (24 LTS) also where this machine's own is another release.
await runOnPinnedNode();

const port = Number(process.env.PORT ?? 3000);
const url = `http://127.0.0.1:${port}`;
// The gateway's operator endpoints (detailed GET /health, GET /metrics): never on the API port (README "Operating it").
const operatorUrl = `http://127.0.0.1:${Number(process.env.OPERATOR_PORT || 9463)}`;
const runDir = path.join(ROOT, '.run');
// DEV_API_KEY_FILE: where the development tenant's key is kept (the test suite keeps its own).
const keyFile = process.env.DEV_API_KEY_FILE ?? path.join(runDir, 'dev-api-key');
mkdirSync(runDir, { recursive: true });

// Before anything starts: a live mode missing a setting is one line naming it.
let as4Plan;
try {
  as4Plan = as4EngineEnv(process.env, { gatewayPort: port, runDir });
} catch (error) {
  say(error.message);
  process.exit(1);
}

ensureNodeModules();
// Local development: a generated key for secrets at rest, and webhooks to http://127.0.0.1 allowed.
process.env.SECRETS_KEY ??= developmentSecretsKey();
process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
ensureKafkaJars({ root: ROOT });
await ensurePostgres();
await ensureRedis();
const kafkaPort = Number((process.env.KAFKA_BROKERS ?? '127.0.0.1:9092').split(',')[0].split(':')[1] ?? 9092);
const broker = await startKafka({ root: ROOT, port: kafkaPort, dataDir: path.join(runDir, 'kafka'), logFile: path.join(runDir, 'kafka.log') });
say(broker.started ? `Kafka broker started on 127.0.0.1:${kafkaPort}` : `Kafka broker already running on 127.0.0.1:${kafkaPort}`);
build();
// The schema (PostgreSQL) and the topics (the broker) do not wait for each other.
await Promise.all([toolAsync('migrate', []), toolAsync('topics', [])]);

/**
 * The development tenant's key is only known when created: it is kept in .run/ to print it
 * again. A key the gateway no longer accepts (the database was dropped) is replaced.
 */
async function developmentKey() {
  if (existsSync(keyFile)) {
    const key = readFileSync(keyFile, 'utf8').trim();
    const probe = await fetch(`${url}/be/einvoice/delivery-status/00000000-0000-4000-8000-000000000000`, {
      headers: { 'x-svc-auth-key': key },
    }).catch(() => undefined);
    if (probe && probe.status !== 401) return key;
  }
  const key = tool('tenants', ['create', 'development']);
  writeFileSync(keyFile, `${key}\n`, { mode: 0o600 });
  return key;
}

if (await isPortOpen(port)) {
  say(`the stack is already running; gateway: ${url}`);
  process.stdout.write(`Gateway: ${url}\nAPI key (development tenant): ${await developmentKey()}\n`);
  process.exit(0);
}

// No SMTP_URL: mail goes to a local capture mailbox (read it with `npm run --silent cli -- mail list`).
const captureMail = !process.env.SMTP_URL;
if (captureMail) process.env.SMTP_URL = `smtp://127.0.0.1:${process.env.MAIL_CAPTURE_PORT ?? 2525}`;
const mailCapture = {
  name: 'mail-capture',
  command: process.execPath,
  args: ['-r', path.join(ROOT, 'scripts', 'register-paths.cjs'), path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'mail', 'mail-capture.js')],
  options: { cwd: ROOT, env: process.env },
};
// Each worker's Prometheus metrics on its own port (README "Operating it"); the gateway's on its operator port.
const METRICS_PORTS = { 'delivery-worker': 9464, 'reporting-worker': 9465, 'webhook-dispatcher': 9466 };
function metricsPort(app) {
  const variable = `METRICS_PORT_${app.toUpperCase().replace(/-/g, '_')}`;
  const port = process.env[variable] ?? METRICS_PORTS[app];
  return port ? { METRICS_PORT: String(port) } : {};
}
// After the check above: a second `npm start` leaves the running stack's engine alone.
const engine = as4Plan.live
  ? await startStackEngine(as4Plan, { root: ROOT, say }).catch(async (error) => {
      say(error.message); // the engine's own refusal (a certificate, a setting), with its log's tail
      if (broker.started) await broker.stop();
      process.exit(1);
    })
  : undefined;
if (engine) say(`AS4 engine started at ${engine.url} (${engine.startMs} ms; log ${engine.logFile})`);
const supervisor = new Supervisor(
  [...(captureMail ? [mailCapture] : []), ...APPS.map((app) => ({ name: app, command: process.execPath, args: appEntry(app), options: { cwd: ROOT, env: { ...process.env, ...metricsPort(app) } } }))],
  say,
);
supervisor.start();

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  say('stopping the apps');
  await supervisor.stop();
  if (engine) {
    say('stopping the AS4 engine');
    await engine.stop();
  }
  if (broker.started) {
    say('stopping the Kafka broker');
    await broker.stop();
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

/** Every worker's consumer group is joined and holds its partitions (the gateway's detailed GET /health). */
async function workersReady() {
  const health = await fetch(`${operatorUrl}/health`).then((r) => r.json()).catch(() => undefined);
  return Array.isArray(health?.workers) && health.workers.length > 0 && health.workers.every((w) => w.ready);
}

for (let i = 0; i < 240 && !(await isPortOpen(port)); i += 1) await new Promise((r) => setTimeout(r, 250));
say('gateway answering; waiting for every worker to hold its partitions');
let ready = false;
for (let i = 0; i < 240 && !(ready = await workersReady()); i += 1) await new Promise((r) => setTimeout(r, 500));
if (!ready) say(`not every worker holds its partitions after 2 minutes: see GET ${operatorUrl}/health (workers); starting anyway`);
const apiKey = await developmentKey();
const engineLine = engine ? `AS4 engine: ${engine.url}  (AS4 endpoint ${process.env.AS4_PUBLIC_URL}, served on port ${process.env.AS4_ENGINE_INBOUND_PORT})\n` : '';
process.stdout.write(`\nReady. Gateway: ${url}  (OpenAPI: ${url}/docs)\nOperator: ${operatorUrl}/health, ${operatorUrl}/metrics\n${engineLine}API key (development tenant): ${apiKey}\nCtrl-C stops the stack.\n\n`);
