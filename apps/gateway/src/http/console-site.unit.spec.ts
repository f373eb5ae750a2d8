import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { CONSOLE_CSP, registerConsole } from './console-site';

/** #50 the console's routes: the page for itself and every client route, its files, a 404 for a missing file or an unbuilt console. */
describe('console-site', () => {
  let dir: string;
  const servers: FastifyInstance[] = [];
  const serve = (root: string) => {
    const fastify = Fastify();
    registerConsole(fastify, root);
    servers.push(fastify);
    return fastify;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'console-site-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
    writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(path.join(dir, '.build-stamp'), 'stamp');
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the page with the strict CSP at /console and every client route, never cached', async () => {
    const fastify = serve(dir);
    for (const url of ['/console', '/console/', '/console/documents/1', '/console/index.html?x=1']) {
      const answer = await fastify.inject({ method: 'GET', url });
      expect({ url, status: answer.statusCode, type: answer.headers['content-type'], csp: answer.headers['content-security-policy'], cache: answer.headers['cache-control'] })
        .toEqual({ url, status: 200, type: 'text/html; charset=utf-8', csp: CONSOLE_CSP, cache: 'no-store' });
      expect(answer.body).toContain('<div id="app"></div>');
    }
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('answers a hashed asset with its type, cached for good; a missing one is a 404, not the page; the build stamp is not served', async () => {
    const fastify = serve(dir);
    const asset = await fastify.inject({ method: 'GET', url: '/console/assets/index-abc.js' });
    expect([asset.statusCode, asset.headers['content-type'], asset.headers['cache-control'], asset.body]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable', 'console.log(1)']);
    for (const url of ['/console/assets/gone.js', '/console/assets/index-abc.js.map']) {
      const missing = await fastify.inject({ method: 'GET', url });
      expect({ url, status: missing.statusCode, code: missing.json().errors[0].code }).toEqual({ url, status: 404, code: 'CONSOLE.NOT_FOUND' });
    }
    expect((await fastify.inject({ method: 'GET', url: '/console/.build-stamp' })).body).toContain('<div id="app">');
  });

  it('says so when the console is not built', async () => {
    const answer = await serve(path.join(dir, 'nothing')).inject({ method: 'GET', url: '/console' });
    expect([answer.statusCode, answer.json().errors[0].code]).toEqual([404, 'CONSOLE.NOT_BUILT']);
  });
});
