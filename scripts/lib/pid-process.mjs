// A service of the stack run as a process of its own (the Kafka broker, the AS4 engine): its pid kept in
// a file of its data dir so a later run finds it again, checked against what it runs (a stale pid file
// may name some other process by now), stopped with SIGTERM then SIGKILL. Plain Node ESM, as the
// scripts that use it run before `npm install`.
import { closeSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The pid the file holds, if it holds one. */
export function readPidFile(file) {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive and runs `marker` (a main class, a jar): a stale pid file's pid may be another process's now. */
export function runs(pid, marker) {
  if (!isAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return true; // no /proc (macOS): trust the pid file
  }
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // An exited child that nobody has reaped yet still answers kill(0).
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

export function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

/** SIGTERM, SIGKILL after `timeoutMs`; the pid file removed when it still names this pid. */
export async function stopPid(pid, file, timeoutMs) {
  signal(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) {
    signal(pid, 'SIGKILL');
    while (isAlive(pid)) await sleep(50);
  }
  if (readPidFile(file) === pid) rmSync(file, { force: true });
}

/** What a log file holds past `offset` (this run's lines), '' when nothing or no file. */
export function readFrom(file, offset) {
  try {
    const size = statSync(file).size;
    if (size <= offset) return '';
    const buffer = Buffer.alloc(size - offset);
    const fd = openSync(file, 'r');
    try {
      readSync(fd, buffer, 0, buffer.length, offset);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  } catch {
    return '';
  }
}

/** `--data-dir D --heap-mb 512` → `{dataDir: 'D', heapMb: 512}`. */
export function parseArgs(argv) {
  const options = {};
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, '').replace(/-(\w)/g, (_, c) => c.toUpperCase());
    const value = argv[i + 1];
    options[key] = /^\d+$/.test(value) ? Number(value) : value;
  }
  return options;
}

/** Runs `main(argv)` when `moduleUrl` is the script node was started with: its result as JSON on stdout, an error's message on stderr and exit 1. */
export function runWhenMain(moduleUrl, main) {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  main(process.argv.slice(2)).then(
    (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
    (error) => {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  );
}
