// The built apps as the image holds them (dist/, scripts/register-paths.cjs, package.json and the
// installed node_modules), in a temporary folder with nothing beside it: no repository, no `../shared`.
// For the tests of what the running service reads (issue 44).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppProcess, type AppName, ensureBuilt, freePort } from './stack';

const ROOT = path.resolve(__dirname, '..', '..');

/** A fresh copy of the built apps (the Dockerfile's runtime layout); returns its folder. */
export function appsAlone(): string {
  ensureBuilt();
  const folder = path.join(mkdtempSync(path.join(os.tmpdir(), 'einvoice-alone-')), 'app');
  mkdirSync(path.join(folder, 'scripts'), { recursive: true });
  cpSync(path.join(ROOT, 'dist'), path.join(folder, 'dist'), { recursive: true });
  cpSync(path.join(ROOT, 'package.json'), path.join(folder, 'package.json'));
  cpSync(path.join(ROOT, 'scripts', 'register-paths.cjs'), path.join(folder, 'scripts', 'register-paths.cjs'));
  symlinkSync(realpathSync(path.join(ROOT, 'node_modules')), path.join(folder, 'node_modules'), 'dir');
  return folder;
}

/** One app started from `folder` as the image starts it; its log lines are kept in `output()` too. */
export function startAppIn(folder: string, name: AppName, env: NodeJS.ProcessEnv): AppProcess & { output(): string } {
  const child = spawn(process.execPath, ['-r', './scripts/register-paths.cjs', `dist/apps/${name}/src/main.js`], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const keep = (out: NodeJS.WriteStream) => (chunk: Buffer) => {
    text += chunk.toString('utf8');
    out.write(chunk);
  };
  child.stdout?.on('data', keep(process.stdout));
  child.stderr?.on('data', keep(process.stderr));
  return Object.assign(new AppProcess(name, child), { output: () => text });
}

/** The gateway from `folder` on a free port, ready to answer. */
export async function startGatewayIn(folder: string, env: NodeJS.ProcessEnv): Promise<{ app: AppProcess & { output(): string }; url: string }> {
  const port = await freePort();
  const app = startAppIn(folder, 'gateway', { ...env, PORT: String(port) });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (app.child.exitCode !== null) throw new Error(`the gateway exited during start-up:\n${app.output()}`);
    try {
      if ((await fetch(`${url}/health/live`)).ok) return { app, url };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the gateway did not answer within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Resolves with the exit code once the app has exited by itself. */
export function exitOf(app: AppProcess): Promise<number | null> {
  if (app.child.exitCode !== null) return Promise.resolve(app.child.exitCode);
  return new Promise((resolve) => app.child.once('exit', (code) => resolve(code)));
}
