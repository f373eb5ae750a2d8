// The reference every figure is divided by (issue 11): reference-server.mjs, a bare Fastify POST
// doing one INSERT, in its own process, loaded with the same bodies and connections.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from '../lib/services.mjs';

export async function startReference(databaseUrl) {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'bench', 'reference-server.mjs'), databaseUrl], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the reference server exited (${code}) before listening`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
