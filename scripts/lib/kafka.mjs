// A single-node Apache Kafka 3.9.1 broker (KRaft, combined broker + controller) run from the
// Maven Central jars, for machines without Docker (shared/notes/kafka-without-docker.md).
// Plain Node ESM, no npm dependency: it runs before and around `npm install`.
//
// From another script:
//   import { ensureKafkaJars, startKafka } from './lib/kafka.mjs';
//   ensureKafkaJars({ root });
//   const kafka = await startKafka({ root, port: 9092, dataDir: `${root}/.run/kafka` });
//   ...; if (kafka.started) await kafka.stop();
// From a shell or another runtime (jest cannot import ESM without --experimental-vm-modules):
//   node scripts/lib/kafka.mjs start --port 0 --data-dir /tmp/k   -> one JSON line on stdout
//   node scripts/lib/kafka.mjs stop --data-dir /tmp/k

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs, readFrom, readPidFile, runWhenMain, runs, sleep, stopPid as stopPidFile } from './pid-process.mjs';

const HOST = '127.0.0.1'; // not `localhost`: Node 20 may resolve it to ::1 first (notes, "Single-node KRaft").
const READY_LINE = 'Kafka Server started';
const DEFAULT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Folder that `mvn package` in infra/kafka fills with the broker's classpath. */
export function kafkaLibsDir(root = DEFAULT_ROOT) {
  return path.join(root, 'infra', 'kafka', 'libs');
}

/**
 * Makes sure infra/kafka/libs holds the broker jars; runs `mvn -B -q package` in infra/kafka
 * when the kafka jar or the logging backend is missing (Maven Central the first time, ~/.m2 after).
 * @returns {{ libsDir: string, fetched: boolean }}
 */
export function ensureKafkaJars({ root = DEFAULT_ROOT } = {}) {
  const libsDir = kafkaLibsDir(root);
  if (hasJars(libsDir)) return { libsDir, fetched: false };
  const result = spawnSync('mvn', ['-B', '-q', 'package'], { cwd: path.join(root, 'infra', 'kafka'), stdio: 'inherit' });
  if (result.error) throw new Error(`Could not run Maven for the Kafka jars: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`\`mvn -B -q package\` in infra/kafka failed with exit code ${result.status}`);
  if (!hasJars(libsDir)) throw new Error(`Maven finished but ${libsDir} still lacks the Kafka jars`);
  return { libsDir, fetched: true };
}

function hasJars(libsDir) {
  if (!existsSync(libsDir)) return false;
  const jars = readdirSync(libsDir);
  // The reload4j binding is checked too: without it the broker has no logging backend (notes, "Trap").
  return jars.some((f) => /^kafka_2\.13-.*\.jar$/.test(f)) && jars.some((f) => f.startsWith('slf4j-reload4j-'));
}

/** True when something accepts TCP connections on 127.0.0.1:port. */
export function isPortOpen(port, host = HOST, timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A port nobody listens on right now (the OS picks it). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a broker unless one already answers on 127.0.0.1:port.
 * `port: 0` picks free ports. Returns `{ started: false, port, brokers }` when reusing, else
 * `{ started: true, pid, port, brokers, dataDir, logFile, stop }`; `stop()` sends SIGTERM and waits.
 */
export async function startKafka({
  root = DEFAULT_ROOT,
  port = 9092,
  controllerPort,
  dataDir,
  logFile,
  heapMb = 512,
  timeoutMs = 90_000,
} = {}) {
  const pickPorts = port === 0;
  if (pickPorts) port = await freePort();
  const brokers = `${HOST}:${port}`;
  if (await isPortOpen(port)) return { started: false, port, brokers };
  dataDir = path.resolve(dataDir ?? path.join(os.tmpdir(), `einvoice-kafka-${port}`));
  logFile = path.resolve(logFile ?? path.join(dataDir, 'kafka.log'));
  mkdirSync(dataDir, { recursive: true });
  mkdirSync(path.dirname(logFile), { recursive: true });

  const running = readPid(dataDir);
  if (running !== undefined && isKafkaProcess(running)) {
    // This folder's broker runs but does not answer on `port` (still starting, or another
    // port): a second one would only fail on the folder's lock.
    throw new Error(`A broker (pid ${running}) already runs on ${dataDir}; stop it (stopKafka) or use another dataDir`);
  }

  const { libsDir } = ensureKafkaJars({ root });
  const classpath = `${libsDir}${path.sep}*`;
  const chosenController = controllerPort !== undefined && controllerPort !== 0;
  if (!chosenController) controllerPort = await controllerPortOf(dataDir, port);
  const log4jFile = writeLog4jProperties(dataDir);
  const clusterId = clusterIdOf(dataDir);
  const logDir = path.join(dataDir, 'data');
  // StorageTool costs a JVM start (~1-2 s): skip it when the folder is already formatted.
  if (!existsSync(path.join(logDir, 'meta.properties'))) {
    const propsFile = writeServerProperties({ dataDir, port, controllerPort });
    const format = spawnSync(
      'java',
      [...loggingFlags(log4jFile, dataDir), '-cp', classpath, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', propsFile, '--ignore-formatted'],
      { encoding: 'utf8' },
    );
    if (format.status !== 0) {
      throw new Error(`Kafka StorageTool format failed (exit ${format.status}):\n${format.stdout}${format.stderr}`);
    }
  }

  for (let attempt = 1; ; attempt += 1) {
    const propsFile = writeServerProperties({ dataDir, port, controllerPort });
    try {
      const broker = await launch({ classpath, propsFile, log4jFile, dataDir, logFile, heapMb, timeoutMs, port });
      return { started: true, port, controllerPort, brokers, dataDir, logFile, ...broker };
    } catch (error) {
      // The controller port we picked was free when picked, but in the ephemeral range an
      // outgoing connection can take it before the JVM binds it: pick another and try again.
      if (chosenController || !error.bindFailed || attempt >= 3) throw error;
      controllerPort = await freePortOtherThan(port);
      writeFileSync(controllerPortFile(dataDir), `${controllerPort}\n`);
    }
  }
}

async function launch({ classpath, propsFile, log4jFile, dataDir, logFile, heapMb, timeoutMs, port }) {
  const logOffset = existsSync(logFile) ? statSync(logFile).size : 0;
  const out = openSync(logFile, 'a');
  const startedAt = Date.now();
  const child = spawn(
    'java',
    [
      `-Xmx${heapMb}m`,
      `-Xms${heapMb}m`,
      '-XX:+UseG1GC',
      '-XX:MaxGCPauseMillis=20',
      '-XX:InitiatingHeapOccupancyPercent=35',
      '-XX:+ExplicitGCInvokesConcurrent',
      '-XX:MaxInlineLevel=15',
      '-Djava.awt.headless=true',
      ...loggingFlags(log4jFile, dataDir),
      '-cp',
      classpath,
      'kafka.Kafka',
      propsFile,
    ],
    // Own process group: a Ctrl-C meant for the parent does not kill the broker mid-write;
    // the parent stops it through stop()/stopKafka() (or leaves it running for reuse).
    { detached: true, stdio: ['ignore', out, out] },
  );
  closeSync(out);
  child.unref();
  const pid = child.pid;
  if (pid === undefined) throw new Error('Could not spawn java for the Kafka broker');
  writeFileSync(pidFile(dataDir), `${pid}\n`);
  let exitCode;
  child.once('exit', (code, signal) => (exitCode = code ?? signal));

  const stop = () => stopPid(pid, dataDir);
  const deadline = startedAt + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) {
      rmSync(pidFile(dataDir), { force: true });
      const error = new Error(`Kafka broker exited (${exitCode}) during start-up. Log tail (${logFile}):\n${tail(logFile, logOffset)}`);
      error.bindFailed = /Unable to start acceptor|BindException|Address already in use/.test(readFrom(logFile, logOffset));
      throw error;
    }
    if (readFrom(logFile, logOffset).includes(READY_LINE) && (await isPortOpen(port))) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Kafka broker not ready on ${HOST}:${port} after ${timeoutMs} ms. Log tail (${logFile}):\n${tail(logFile, logOffset)}`);
    }
    await sleep(200);
  }
  return { pid, startMs: Date.now() - startedAt, stop };
}

/** The controller port this folder's broker used before (restarts keep it), else a free one. */
async function controllerPortOf(dataDir, port) {
  const file = controllerPortFile(dataDir);
  const kept = existsSync(file) ? Number(readFileSync(file, 'utf8').trim()) : NaN;
  if (Number.isInteger(kept) && kept > 0 && kept !== port) return kept;
  const picked = await freePortOtherThan(port);
  writeFileSync(file, `${picked}\n`);
  return picked;
}

const controllerPortFile = (dataDir) => path.join(dataDir, 'controller.port');

async function freePortOtherThan(port) {
  for (;;) {
    const picked = await freePort();
    if (picked !== port) return picked;
  }
}

/**
 * Stops the broker whose pid is in dataDir/kafka.pid: SIGTERM (Kafka's shutdown hook stops
 * cleanly), SIGKILL after `timeoutMs`. Returns `{ stopped: false }` when none was running.
 */
export async function stopKafka({ dataDir, timeoutMs = 30_000 }) {
  const pid = readPid(dataDir);
  if (pid === undefined || !isKafkaProcess(pid)) {
    rmSync(pidFile(dataDir), { force: true });
    return { stopped: false };
  }
  await stopPid(pid, dataDir, timeoutMs);
  return { stopped: true, pid };
}

const stopPid = (pid, dataDir, timeoutMs = 30_000) => stopPidFile(pid, pidFile(dataDir), timeoutMs);

function writeServerProperties({ dataDir, port, controllerPort }) {
  const file = path.join(dataDir, 'server.properties');
  const props = {
    'process.roles': 'broker,controller',
    'node.id': 1,
    'controller.quorum.voters': `1@${HOST}:${controllerPort}`,
    listeners: `PLAINTEXT://${HOST}:${port},CONTROLLER://${HOST}:${controllerPort}`,
    'advertised.listeners': `PLAINTEXT://${HOST}:${port}`,
    'inter.broker.listener.name': 'PLAINTEXT',
    'controller.listener.names': 'CONTROLLER',
    'listener.security.protocol.map': 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
    'log.dirs': path.join(dataDir, 'data'),
    // DESIGN.md "Kafka": workers scale with partitions; topics are created explicitly.
    'num.partitions': 6,
    'auto.create.topics.enable': false,
    // Defaults are 3: on one node the group coordinator never becomes available (kafkajs#1752).
    'offsets.topic.replication.factor': 1,
    'offsets.topic.num.partitions': 1,
    'transaction.state.log.replication.factor': 1,
    'transaction.state.log.min.isr': 1,
    'default.replication.factor': 1,
    'min.insync.replicas': 1,
    'group.initial.rebalance.delay.ms': 0,
    // Lets tests use short session timeouts so that rebalances are fast.
    'group.min.session.timeout.ms': 1000,
  };
  writeFileSync(file, Object.entries(props).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
  return file;
}

function writeLog4jProperties(dataDir) {
  const file = path.join(dataDir, 'log4j.properties');
  writeFileSync(
    file,
    [
      // stdout is redirected to the log file; INFO is needed for the "Kafka Server started" line.
      'log4j.rootLogger=INFO, stdout',
      'log4j.appender.stdout=org.apache.log4j.ConsoleAppender',
      'log4j.appender.stdout.layout=org.apache.log4j.PatternLayout',
      'log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n',
      // The chattiest loggers of a broker, as in Kafka's own config/log4j.properties.
      'log4j.logger.kafka.request.logger=WARN',
      'log4j.logger.state.change.logger=WARN',
      'log4j.logger.kafka.log.LogCleaner=WARN',
      'log4j.logger.org.apache.kafka.storage.internals.log=WARN',
      'log4j.logger.kafka.log=WARN',
      'log4j.logger.org.apache.kafka.clients=WARN',
      '',
    ].join('\n'),
  );
  return file;
}

function loggingFlags(log4jFile, dataDir) {
  return [`-Dlog4j.configuration=${pathToFileURL(log4jFile).href}`, `-Dkafka.logs.dir=${path.join(dataDir, 'logs')}`];
}

/** Kept in dataDir so that a restart finds the folder formatted with the same id. */
function clusterIdOf(dataDir) {
  const file = path.join(dataDir, 'cluster-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  // Kafka's Uuid.randomUuid(): 16 random bytes as unpadded base64url, never starting with '-'.
  let id;
  do id = randomBytes(16).toString('base64url');
  while (id.startsWith('-'));
  writeFileSync(file, `${id}\n`);
  return id;
}

const pidFile = (dataDir) => path.join(dataDir, 'kafka.pid');

const readPid = (dataDir) => readPidFile(pidFile(dataDir));

/** Guards against a stale pid file whose pid now belongs to some other process. */
const isKafkaProcess = (pid) => runs(pid, 'kafka.Kafka');

/** The first ERROR lines (the cause; a stack trace follows them) and the last lines of this run's log. */
function tail(file, offset, lines = 30) {
  const all = readFrom(file, offset).trimEnd().split('\n');
  const errors = all.filter((line) => / (ERROR|FATAL) /.test(line)).slice(0, 3);
  return [...errors, ...(errors.length ? ['...'] : []), ...all.slice(-lines)].join('\n');
}

async function main([command, ...rest]) {
  const options = parseArgs(rest);
  if (command === 'ensure-jars') return ensureKafkaJars(options);
  if (command === 'start') {
    const { stop: _stop, ...result } = await startKafka(options);
    return result;
  }
  if (command === 'stop') return stopKafka(options);
  throw new Error('usage: kafka.mjs ensure-jars | start [--port N] [--data-dir D] [--heap-mb M] | stop --data-dir D');
}

runWhenMain(import.meta.url, main);
