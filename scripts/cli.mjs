// `npm run --silent cli -- tenants create <name>` prints a new API key and nothing else.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, build, ensureNodeModules, ensurePostgres } from './lib/services.mjs';
import { runOnPinnedNode } from './lib/node-runtime.mjs';

// The image's Node (24 LTS) also where this machine's own is another release.
await runOnPinnedNode();

ensureNodeModules();
await ensurePostgres();
build();
const result = spawnSync(
  process.execPath,
  ['-r', path.join(ROOT, 'scripts', 'register-paths.cjs'), path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'cli.js'), ...process.argv.slice(2)],
  { stdio: 'inherit', cwd: ROOT },
);
process.exit(result.status ?? 1);
