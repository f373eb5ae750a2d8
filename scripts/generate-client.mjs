// `npm run client`: the OpenAPI document (as /docs-json serves it) and the TypeScript client's types
// generated from it by openapi-typescript, into clients/typescript/. Both are committed: a client is
// used from the repository without a running stack, and test/unit/openapi-document.unit.spec.ts fails
// when they no longer match the code (run this, then commit).
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { ROOT, say } from './lib/services.mjs';

const out = path.join(ROOT, 'clients', 'typescript');
// Straight into the file: the CLI exits when done, which may cut a pipe's last unread chunks.
const file = openSync(path.join(out, 'openapi.json'), 'w');
const document = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'cli.mjs'), 'openapi'], { cwd: ROOT, stdio: ['ignore', file, 'inherit'] });
closeSync(file);
if (document.status !== 0) process.exit(document.status ?? 1);
const types = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'openapi-typescript'), [path.join(out, 'openapi.json'), '-o', path.join(out, 'schema.d.ts')], { cwd: ROOT, stdio: 'inherit' });
if (types.status !== 0) process.exit(types.status ?? 1);
say(`wrote ${path.relative(ROOT, out)}/openapi.json and schema.d.ts`);
