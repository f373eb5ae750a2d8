/**
 * #47 the OpenAPI document clients generate code from: built from the code without a running stack
 * (`cli openapi`), valid OpenAPI 3.1 by a maintained validator (@apidevtools/swagger-parser), no
 * reference to a schema it does not define, and a TypeScript client generated from it by
 * openapi-typescript (types) + openapi-fetch (calls), committed in clients/typescript, that compiles
 * with the e2e's first documents written against it; nothing left undescribed; the README's first
 * documents are its operations and its examples named `first`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openApiGaps } from '../../apps/gateway/src/http/openapi-coverage';
import { readmeBodyDifferences, readmeExamples, readmeRequests } from '../support/readme-examples';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);
const CLIENT = path.join(ROOT, 'clients', 'typescript');

interface Operation {
  parameters?: Array<{ in: string; name: string }>;
  requestBody?: { content?: Record<string, { examples?: Record<string, { value: unknown }> }> };
}

/** The operation a README request calls: its path's `{}` (a shell variable) stands for a parameter, a literal segment may fill one. */
function operationOf(document: { paths: object }, method: string, readmePath: string): Operation | undefined {
  const segments = readmePath.split('/');
  const candidates = Object.entries(document.paths as Record<string, Record<string, Operation>>)
    .filter(([route, item]) => item[method.toLowerCase()] && route.split('/').length === segments.length)
    .map(([route, item]) => ({ route: route.split('/'), operation: item[method.toLowerCase()] }))
    .filter(({ route }) => route.every((part, i) => part === segments[i] || (part.startsWith('{') && segments[i] !== '')))
    // A literal route wins over a parameterised one (`/ar/einvoice/last-voucher` over `/ar/einvoice/{catalog}`).
    .sort((a, b) => a.route.filter((p) => p.startsWith('{')).length - b.route.filter((p) => p.startsWith('{')).length);
  return candidates[0]?.operation;
}

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
  let document: Awaited<ReturnType<typeof import('../../apps/gateway/src/http/openapi-offline').openApiDocumentOffline>>;
  let dir: string;

  beforeAll(async () => {
    // The document of a deployment: without the test suite's own areas, which `npm test` lists
    // (EINVOICE_TEST_AREAS=1) and the area list reads when first loaded, here.
    const testAreas = process.env.EINVOICE_TEST_AREAS;
    delete process.env.EINVOICE_TEST_AREAS;
    try {
      const { openApiDocumentOffline } = await import('../../apps/gateway/src/http/openapi-offline');
      document = await openApiDocumentOffline();
    } finally {
      if (testAreas !== undefined) process.env.EINVOICE_TEST_AREAS = testAreas;
    }
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

  it('is the document the committed client was generated from (clients/typescript; `npm run client` regenerates it)', async () => {
    const committed = JSON.parse(await readFile(path.join(CLIENT, 'openapi.json'), 'utf8')) as unknown;
    expect(committed).toEqual(JSON.parse(JSON.stringify(document)));
    await run(bin('openapi-typescript'), [path.join(CLIENT, 'openapi.json'), '-o', path.join(dir, 'schema.d.ts')], { cwd: ROOT });
    expect(await readFile(path.join(dir, 'schema.d.ts'), 'utf8')).toBe(await readFile(path.join(CLIENT, 'schema.d.ts'), 'utf8'));
  });

  it('the generated client (openapi-typescript + openapi-fetch) compiles, with every area\'s first document and the README\'s examples written against it', async () => {
    // test/support/first-documents.ts: the e2e's calls, typed by the generated paths (a route, header or
    // parameter the document lacks does not compile).
    // And the README's TypeScript examples (```ts blocks), as a reader pastes them at the repository's root.
    const readmeBlocks = [...(await readFile(path.join(ROOT, 'README.md'), 'utf8')).matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => code);
    expect(readmeBlocks.length).toBeGreaterThan(0);
    const readmeFiles = await Promise.all(readmeBlocks.map(async (code, i) => {
      const file = path.join(dir, `readme-${i}.mts`);
      await writeFile(file, `declare const process: { env: Record<string, string | undefined> };\n${code.replaceAll("from './clients/typescript'", `from '${path.join(CLIENT, 'index.ts')}'`)}\nexport {};\n`);
      return file;
    }));
    await writeFile(path.join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022', 'dom'], skipLibCheck: true, types: [], allowImportingTsExtensions: true },
      files: [path.join(CLIENT, 'index.ts'), path.join(ROOT, 'test', 'support', 'first-documents.ts'), ...readmeFiles],
    }));
    await expect(run(bin('tsc'), ['-p', path.join(dir, 'tsconfig.json')], { cwd: dir }).then(() => 'compiled', (e: { stdout: string }) => e.stdout)).resolves.toBe('compiled');
  });

  it('describes every operation, parameter, field, body and success answer (cli openapi --gaps)', () => {
    const gaps = openApiGaps(document as unknown as Record<string, unknown>);
    expect(Object.fromEntries(Object.entries(gaps).filter(([, list]) => list.length > 0))).toEqual({});
  });

  it('has each README first-document request, its headers, and its body as the example named first', async () => {
    const readme = readmeExamples(await readFile(path.join(ROOT, 'README.md'), 'utf8'));
    const disagreements: string[] = [];
    for (const { area, script } of readme) {
      for (const request of readmeRequests(script)) {
        const name = `${area}: ${request.method} ${request.path}`;
        const operation = operationOf(document, request.method, request.path);
        if (!operation) {
          disagreements.push(`${name}: no such operation`);
          continue;
        }
        const headers = new Set((operation.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()));
        for (const header of Object.keys(request.headers).filter((h) => !['x-svc-auth-key', 'content-type'].includes(h))) {
          if (!headers.has(header)) disagreements.push(`${name}: header ${header} is not a parameter`);
        }
        if (request.body === undefined) continue;
        if (request.method === 'GET' && !operation.requestBody) {
          // A GET whose fields the seed sends as a JSON body (Argentina's reads) documents them as its query.
          const query = new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
          for (const field of Object.keys(request.body as object)) if (!query.has(field)) disagreements.push(`${name}: body field ${field} is not a query parameter`);
          continue;
        }
        const example = operation.requestBody?.content?.['application/json']?.examples?.first;
        if (!example) disagreements.push(`${name}: no request-body example named first`);
        else disagreements.push(...readmeBodyDifferences(request.body, example.value).map((difference) => `${name}: ${difference}`));
      }
    }
    expect(disagreements).toEqual([]);
  });
});
