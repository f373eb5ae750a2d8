// `npm test`: the whole suite (unit, integration, e2e) against real PostgreSQL, Redis and Kafka.
// It installs and starts what it needs like `npm start`, but on its own database and its own
// broker (port 19092, data in .run/kafka-test), so it never touches a running development stack.
// Test files run one at a time (--runInBand): e2e files share the broker and the database. (Unit files
// on two jest workers were slower on this shared 2-core host, not faster: 380 and 544 s against 193 and
// 287 s in band for the unit files of libs/domain and apps, runs alternated, #48.)
// Extra arguments go to jest: `npm test -- --selectProjects unit`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { secretsInLogs } from './lib/log-secrets.mjs';
import { ensureKafkaJars, startKafka } from './lib/kafka.mjs';
import { ROOT, buildAsync, staleBuilds, developmentSecretsKey, ensureDebianCommands, ensureNodeModules, ensurePostgres, ensureRedis, say, tool, toolAsync } from './lib/services.mjs';
import { runOnPinnedNode } from './lib/node-runtime.mjs';

// The image's Node (24 LTS) also where this machine's own is another release.
await runOnPinnedNode();

const args = process.argv.slice(2);
/** The projects named after --selectProjects (up to the next flag); none named: all of them. */
const selected = args.includes('--selectProjects') ? args.slice(args.indexOf('--selectProjects') + 1).filter((_, i, rest) => !rest.slice(0, i + 1).some((a) => a.startsWith('-'))) : [];
// Only unit files: no broker, no database (`--selectProjects unit e2e` names e2e too, whatever the order).
const unitOnly = selected.length > 0 && selected.every((project) => project === 'unit');

ensureNodeModules();
ensureDebianCommands({ xmlsec1: 'xmlsec1', chromium: 'chromium', pdftotext: 'poppler-utils', zbarimg: 'zbar-tools' });
const env = {
  ...process.env,
  DATABASE_URL: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/einvoice_test',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  KAFKA_TOPIC_PREFIX: `test${Date.now().toString(36)}`,
  KAFKAJS_NO_PARTITIONER_WARNING: '1',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  SECRETS_KEY: process.env.SECRETS_KEY ?? developmentSecretsKey(),
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  // The test suite's own areas (libs/areas registry `testOnly`): the toy area of docs/adding-an-area.md.
  EINVOICE_TEST_AREAS: '1',
};
// The apps' log lines and the secrets the tests used, checked against each other after the run.
const logDir = path.join(ROOT, '.run', 'test-logs', env.KAFKA_TOPIC_PREFIX);
rmSync(path.join(ROOT, '.run', 'test-logs'), { recursive: true, force: true });
mkdirSync(logDir, { recursive: true });
env.TEST_LOG_DIR = logDir;
env.TEST_SECRETS_FILE = path.join(logDir, 'secrets.jsonl');

let broker = { started: false };
if (!unitOnly) {
  ensureKafkaJars({ root: ROOT });
  await ensurePostgres();
  await ensureRedis();
  const kafkaPort = Number(process.env.TEST_KAFKA_PORT ?? 19092);
  // The broker's JVM starts while tsc compiles (a clean clone's first build is the longer of the two).
  const stale = staleBuilds();
  const compile = stale.apps || stale.console;
  const [started, built] = await Promise.allSettled([
    startKafka({
      root: ROOT,
      port: kafkaPort,
      dataDir: path.join(ROOT, '.run', 'kafka-test'),
      logFile: path.join(ROOT, '.run', 'kafka-test.log'),
    }),
    compile ? buildAsync(stale) : undefined,
  ]);
  if (started.status === 'fulfilled') broker = started.value;
  if (started.status === 'rejected' || built.status === 'rejected') {
    if (broker.started) await broker.stop();
    throw started.status === 'rejected' ? started.reason : built.reason;
  }
  env.KAFKA_BROKERS = `127.0.0.1:${kafkaPort}`;
  // A fresh schema per run: tests never depend on what an earlier run left. The topics (the broker)
  // are made while the schema is (PostgreSQL).
  tool('reset-test-database', [], env);
  await Promise.all([toolAsync('migrate', [], env), toolAsync('topics', [], env)]);
}

say(`running jest (topic prefix ${env.KAFKA_TOPIC_PREFIX})`);
const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--ci', '--runInBand', ...args], {
  cwd: ROOT,
  env,
  stdio: 'inherit',
});
if (broker.started) await broker.stop();
const leaks = secretsInLogs(logDir, env.TEST_SECRETS_FILE);
if (leaks.length) {
  say(`${leaks.length} log line(s) hold a secret:`);
  for (const leak of leaks.slice(0, 50)) process.stderr.write(`  ${leak.file}:${leak.line} ${leak.leaked}: ${leak.text}\n`);
  process.exit(1);
}
say('no secret in any app log line');
process.exit(result.status ?? 1);
