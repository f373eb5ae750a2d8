// `npm start`: the whole stack on this machine. Installs what is missing, starts PostgreSQL,
// Redis and a single-node Kafka broker, migrates, creates the topics, then runs the four apps.
// Ctrl-C stops the apps and the broker this script started. Running it twice does no harm.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureKafkaJars, isPortOpen, startKafka } from './lib/kafka.mjs';
import { APPS, ROOT, appEntry, build, developmentSecretsKey, ensureNodeModules, ensurePostgres, ensureRedis, say, tool } from './lib/services.mjs';

const port = Number(process.env.PORT ?? 3000);
const url = `http://127.0.0.1:${port}`;
const runDir = path.join(ROOT, '.run');
const keyFile = path.join(runDir, 'dev-api-key');
mkdirSync(runDir, { recursive: true });

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
tool('migrate', []);
tool('topics', []);

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

const children = APPS.map((app) => {
  const child = spawn(process.execPath, appEntry(app), { cwd: ROOT, env: process.env, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (!stopping) say(`${app} exited (${signal ?? code}); stopping the stack`);
    void stop(code ?? 1);
  });
  return child;
});

let stopping = false;
async function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)));
  if (broker.started) {
    say('stopping the Kafka broker');
    await broker.stop();
  }
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

for (let i = 0; i < 120 && !(await isPortOpen(port)); i += 1) await new Promise((r) => setTimeout(r, 250));
const apiKey = await developmentKey();
process.stdout.write(`\nGateway: ${url}  (OpenAPI: ${url}/docs)\nAPI key (development tenant): ${apiKey}\nCtrl-C stops the stack.\n\n`);
