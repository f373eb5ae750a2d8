// Jest processes for `npm test` (scripts/test.mjs): each one a "lane" running its files in band, started
// without blocking, its output either on the terminal or kept in a file to be shown once every lane is
// done (two lanes writing to one terminal at once would interleave their reports line by line).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Starts `jest --ci --runInBand <args>` as lane `name`. `output`: a file for its output (else the
 * terminal); `json`: where jest writes its results (`--json --outputFile`: each file's time, read by
 * laneSummary); `nice`: at nice 10, so that the kernel serves the other lanes first when both want
 * the CPU and gives it this one's whenever they wait. Resolves `done` with its exit status and seconds.
 */
export function startLane({ root, name, args, env, output, json, nice = false }) {
  const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
  const jestArgs = [jest, '--ci', '--runInBand', ...args, ...(json ? ['--json', `--outputFile=${json}`] : [])];
  const fd = output ? openSync(output, 'w') : undefined;
  const began = Date.now();
  // `nice` execs node in its place: the lane's pid is node's, and the kill below reaches jest itself.
  const stdio = fd === undefined ? 'inherit' : ['ignore', fd, fd];
  const child = nice ? spawn('nice', ['-n', '10', process.execPath, ...jestArgs], { cwd: root, env, stdio }) : spawn(process.execPath, jestArgs, { cwd: root, env, stdio });
  if (fd !== undefined) closeSync(fd);
  const done = new Promise((resolve) => {
    child.once('error', (error) => resolve({ name, status: 1, seconds: (Date.now() - began) / 1000, error }));
    child.once('exit', (code, signal) => resolve({ name, status: code ?? 1, signal, seconds: (Date.now() - began) / 1000 }));
  });
  return { name, output, json, child, done };
}

/** Stops a lane (an `npm test` whose set-up failed must not leave jest running) and waits for it. */
export async function stopLane(lane) {
  if (lane.child.exitCode === null && lane.child.signalCode === null) lane.child.kill('SIGTERM');
  await lane.done;
}

/** What jest's results file says of a lane: its files and tests, and each file's seconds. */
export function laneResults(json) {
  if (!json || !existsSync(json)) return undefined;
  try {
    const results = JSON.parse(readFileSync(json, 'utf8'));
    return {
      files: results.numTotalTestSuites,
      failedFiles: results.numFailedTestSuites,
      tests: results.numTotalTests,
      failedTests: results.numFailedTests,
      durations: results.testResults.map((file) => ({ file: file.name, seconds: (file.endTime - file.startTime) / 1000 })),
    };
  } catch {
    // A jest that crashed before writing all of it: the summary line says so, its status fails the run.
    return undefined;
  }
}
