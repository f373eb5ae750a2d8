/**
 * #47 the OpenAPI document clients generate code from: built from the code without a running stack
 * (`cli openapi`), valid OpenAPI 3.1 by a maintained validator (@apidevtools/swagger-parser), no
 * reference to a schema it does not define, and a TypeScript client generated from it by
 * openapi-typescript (types) + openapi-fetch (calls) that compiles.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openApiDocumentOffline } from '../../apps/gateway/src/http/openapi-offline';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

jest.setTimeout(180_000);

/** Every `$ref` in the document, with where it stands. */
function references(node: unknown, at = '#', found: Array<{ at: string; ref: string }> = []): Array<{ at: string; ref: string }> {
  if (Array.isArray(node)) node.forEach((child, i) => references(child, `${at}/${i}`, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push({ at, ref: value });
      else references(value, `${at}/${key}`, found);
    }
  }
  return found;
}

describe('#47 the OpenAPI document', () => {
  let document: Awaited<ReturnType<typeof openApiDocumentOffline>>;
  let dir: string;

  beforeAll(async () => {
    document = await openApiDocumentOffline();
    dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-client-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('is OpenAPI 3.1 and valid by swagger-parser', async () => {
    expect(document.openapi).toBe('3.1.0');
    const file = path.join(dir, 'validated.json');
    await writeFile(file, JSON.stringify(document));
    const { stdout } = await run(process.execPath, [path.join(ROOT, 'scripts', 'lib', 'openapi-validate.mjs'), file], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    expect(JSON.parse(stdout)).toEqual({ valid: true });
  });

  it('refers to nothing it does not define (no "Array", no "Object" schema)', () => {
    const components = (document.components ?? {}) as Record<string, Record<string, unknown> | undefined>;
    const defined = (ref: string) => {
      const [, kind, name] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(ref) ?? [];
      return kind !== undefined && name in (components[kind] ?? {});
    };
    expect(references(document).filter(({ ref }) => !defined(ref))).toEqual([]);
  });

  it('every operation has a summary and at least one answer', () => {
    const lacking = Object.entries(document.paths).flatMap(([route, item]) =>
      Object.entries(item as Record<string, { summary?: string; responses?: object }>)
        .filter(([, operation]) => !operation.summary || Object.keys(operation.responses ?? {}).length === 0)
        .map(([method]) => `${method.toUpperCase()} ${route}`));
    expect(lacking).toEqual([]);
  });

  it('every operation documents the answers the gateway gives around any route, in the one error shape', () => {
    const lacking: string[] = [];
    for (const [route, item] of Object.entries(document.paths)) {
      if (route === '/v1/oauth/token') continue;
      for (const [method, operation] of Object.entries(item as Record<string, { security?: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>)) {
        const secured = !(Array.isArray(operation.security) && operation.security.length === 0);
        const expected = ['400', '503', ...(secured ? ['401', '429'] : []), ...(operation.requestBody ? ['413', '415'] : [])];
        const missing = expected.filter((status) => !(status in operation.responses));
        if (missing.length) lacking.push(`${method.toUpperCase()} ${route}: ${missing.join(', ')}`);
      }
    }
    expect(lacking).toEqual([]);
  });

  it('generates a TypeScript client (openapi-typescript + openapi-fetch) that compiles', async () => {
    await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(document));
    await run(bin('openapi-typescript'), [path.join(dir, 'openapi.json'), '-o', path.join(dir, 'api.d.ts')], { cwd: ROOT });
    // A call a Belgian integrator writes first: typed path, headers and body.
    await writeFile(path.join(dir, 'client.ts'), `
import createClient from 'openapi-fetch';
import type { paths } from './api';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000', headers: { 'x-svc-auth-key': 'sk_test' } });
export async function firstInvoice(supplier: string) {
  const { data, error } = await client.POST('/be/einvoice/generate/invoice', {
    params: { header: { supplier_uuid: supplier } as never },
    body: { ID: 'INV-1', DocumentType: '380', IssueDate: '2026-03-15' } as never,
  });
  return { data, error };
}
`);
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', skipLibCheck: true, typeRoots: [], types: [], baseUrl: ROOT, paths: { 'openapi-fetch': [path.join(ROOT, 'node_modules', 'openapi-fetch')] } },
      files: ['client.ts'],
    }));
    await expect(run(bin('tsc'), ['-p', path.join(dir, 'tsconfig.json')], { cwd: dir }).then(() => 'compiled', (e: { stdout: string }) => e.stdout)).resolves.toBe('compiled');
  });
});
