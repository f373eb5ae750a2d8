// `npm test`: the whole suite (unit, integration, e2e) against real PostgreSQL, Redis and Kafka.
// It installs and starts what it needs like `npm start`, but on its own database and its own
// broker (port 19092, data in .run/kafka-test), so it never touches a running development stack.
// In each jest process test files run one at a time (--runInBand): e2e files share the broker and a database. (Unit files
// on two jest workers were slower on this shared 2-core host, not faster: 380 and 544 s against 193 and
// 287 s in band for the unit files of libs/domain and apps, runs alternated, #48.)
// Extra arguments go to jest: `npm test -- --selectProjects unit`.
//
// TEST_LANES=2 (the whole suite only, no argument): two jest processes at once, each in band
// (scripts/lib/jest-lanes.mjs): the unit files in one, started at once (they need no database and no
// broker: they run while the broker starts, tsc compiles and the schema is migrated), the int and e2e
// files in the other, which mostly waits (on the apps' starts, the pipeline, Kafka's rebalances, timers)
// and leaves the CPU to the unit files meanwhile. The unit lane runs at nice 10 so that the kernel serves
// the int/e2e lane first when both want the CPU: e2e set-ups have bounded waits (a gateway must answer
// within 60 s). TEST_LANES=3 and up split the int/e2e files further (jest --shard=k/n), each such lane on
// a database (`<database>_lane<k>_test`) and topic prefix (`<prefix>l<k>`) of its own: the BullMQ queues and
// Redis keys are named after the prefix, ports are free ones, and databases a test makes for itself are
// named after its lane's. A lane's output other than the first int/e2e lane's is kept in a file and
// shown after it; the run fails if any lane fails; a summary gives each lane's time and the slowest
// files (jest's --json results, kept in .run/test-logs/<prefix>/jest-*.json).
// The default is 3 (TEST_LANES=1 for one jest process): on a clean clone of main with nothing else running
// (2026-12-03, `CI=true TEST_LANES=3 bash .ci/run`) the whole suite took 770 s, every lane passed (unit 170 s,
// int+e2e 710 and 737 s), where CI's last one-process run took 1,678 s. Two lanes alone do not pay: the
// int/e2e files in band are the critical path (docs/testing.md "How long the suite takes").
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { secretsInLogs } from './lib/log-secrets.mjs';
import { ensureKafkaJars, startKafka } from './lib/kafka.mjs';
import { laneResults, startLane, stopLane } from './lib/jest-lanes.mjs';
import { ROOT, buildAsync, staleBuilds, developmentSecretsKey, ensureDebianCommands, ensureNodeModules, ensurePostgres, ensureRedis, say, toolAsync } from './lib/services.mjs';
import { runOnPinnedNode } from './lib/node-runtime.mjs';

// The image's Node (24 LTS) also where this machine's own is another release.
await runOnPinnedNode();
const startedAt = Date.now();

const args = process.argv.slice(2);
/** The projects named after --selectProjects (up to the next flag); none named: all of them. */
const selected = args.includes('--selectProjects') ? args.slice(args.indexOf('--selectProjects') + 1).filter((_, i, rest) => !rest.slice(0, i + 1).some((a) => a.startsWith('-'))) : [];
// Only unit files: no broker, no database (`--selectProjects unit e2e` names e2e too, whatever the order).
const unitOnly = selected.length > 0 && selected.every((project) => project === 'unit');
/** A whole-suite run's jest processes unless TEST_LANES says otherwise: the unit files and two int/e2e shards. */
const DEFAULT_LANES = 3;
/** The jest processes of a whole-suite run (TEST_LANES, above): 1, as with any argument, is one jest process. */
const laneCount = args.length === 0 ? Math.max(1, Math.floor(Number(process.env.TEST_LANES ?? DEFAULT_LANES)) || 1) : 1;
const inLanes = laneCount > 1;

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

/** The int/e2e lanes: each a jest --shard=k/n on a database and topic prefix of its own. */
const intLanes = Math.max(1, laneCount - 1);
/** Each int/e2e lane's environment: the first on the run's database and prefix, the k-th on `<database>_lane<k>_test`, `<prefix>l<k>`. */
const intEnvs = () => Array.from({ length: intLanes }, (_, i) => (i === 0 ? env : {
  ...env,
  DATABASE_URL: env.DATABASE_URL.replace(/(_test)?$/, `_lane${i + 1}_test`),
  KAFKA_TOPIC_PREFIX: `${env.KAFKA_TOPIC_PREFIX}l${i + 1}`,
}));

const lanes = [];
if (inLanes) {
  say('running the unit files (jest, in band, nice 10) while the rest is set up; their report comes after the others\'');
  lanes.push(startLane({
    root: ROOT,
    name: 'unit',
    args: ['--selectProjects', 'unit'],
    env: { ...env },
    output: path.join(logDir, 'jest-unit.txt'),
    json: path.join(logDir, 'jest-unit.json'),
    nice: true,
  }));
}

let broker = { started: false };
try {
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
    if (started.status === 'rejected' || built.status === 'rejected') throw started.status === 'rejected' ? started.reason : built.reason;
    env.KAFKA_BROKERS = `127.0.0.1:${kafkaPort}`;
    // A fresh schema per run: tests never depend on what an earlier run left. The topics (the broker)
    // are made while the schema is (PostgreSQL).
    await Promise.all(intEnvs().map(async (each) => {
      await toolAsync('reset-test-database', [], each);
      await Promise.all([toolAsync('migrate', [], each), toolAsync('topics', [], each)]);
    }));
  }
} catch (error) {
  await Promise.all(lanes.map(stopLane));
  if (broker.started) await broker.stop();
  throw error;
}

say(`running jest (topic prefix ${env.KAFKA_TOPIC_PREFIX})`);
if (inLanes) {
  for (const [i, laneEnv] of intEnvs().entries()) {
    const shard = intLanes > 1 ? `${i + 1}/${intLanes}` : undefined;
    const name = shard ? `int+e2e ${shard}` : 'int+e2e';
    const file = shard ? `int-e2e-${i + 1}` : 'int-e2e';
    lanes.push(startLane({
      root: ROOT,
      name,
      args: ['--selectProjects', 'int', 'e2e', ...(shard ? [`--shard=${shard}`] : [])],
      env: laneEnv,
      // The first on the terminal, the others' shown after it.
      output: i > 0 ? path.join(logDir, `jest-${file}.txt`) : undefined,
      json: path.join(logDir, `jest-${file}.json`),
    }));
  }
  for (const lane of lanes) {
    void lane.done.then(({ name, seconds }) => {
      const running = lanes.filter((other) => other.child.exitCode === null && other.child.signalCode === null && other !== lane);
      if (running.length) say(`${name} files done in ${seconds.toFixed(0)} s; waiting for the ${running.map((other) => other.name).join(', ')} files`);
    });
  }
} else {
  lanes.push(startLane({ root: ROOT, name: 'jest', args, env }));
}
const results = await Promise.all(lanes.map((lane) => lane.done));
if (broker.started) await broker.stop();

if (inLanes) {
  for (const lane of lanes.filter((each) => each.output)) {
    say(`the ${lane.name} files' report (ran beside the others; kept in ${path.relative(ROOT, lane.output)}):`);
    process.stderr.write(readFileSync(lane.output, 'utf8'));
  }
  say(`the whole suite in ${((Date.now() - startedAt) / 1000).toFixed(0)} s, set-up included; its lanes, at once:`);
  const durations = [];
  for (const [i, lane] of lanes.entries()) {
    const { status, seconds } = results[i];
    const counts = laneResults(lane.json);
    durations.push(...(counts?.durations.map((each) => ({ ...each, lane: lane.name })) ?? []));
    const what = counts ? `${counts.files} files (${counts.failedFiles} failed), ${counts.tests} tests (${counts.failedTests} failed)` : 'no results file';
    say(`  ${lane.name}: ${seconds.toFixed(0)} s, ${what}, exit ${status}`);
  }
  if (durations.length) say('the slowest files (each one\'s time in its lane, while the other lanes ran):');
  for (const { file, seconds, lane } of durations.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    say(`  ${seconds.toFixed(1).padStart(6)} s  ${path.relative(ROOT, file)} (${lane})`);
  }
}

const leaks = secretsInLogs(logDir, env.TEST_SECRETS_FILE);
if (leaks.length) {
  say(`${leaks.length} log line(s) hold a secret:`);
  for (const leak of leaks.slice(0, 50)) process.stderr.write(`  ${leak.file}:${leak.line} ${leak.leaked}: ${leak.text}\n`);
  process.exit(1);
}
say('no secret in any app log line');
process.exit(results.find((result) => result.status !== 0)?.status ?? 0);
