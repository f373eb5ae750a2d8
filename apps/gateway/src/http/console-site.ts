import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { notFound } from '@einvoice/domain';
import { toHttpError } from './error-response';
import { correlationIdOf } from './request-id';

/** Where the gateway serves the web console (#50, apps/console): its pages and its built assets. */
export const CONSOLE_PATH = '/console';

/**
 * The console's pages' policy: its own script and styles only (Vite emits no inline script or style), the
 * document's PDF inline from a blob: URL (frame and object: Chromium's viewer), never framed by another
 * site, no <base> to redirect its relative URLs, forms posting only here. The API is on this origin, so
 * `connect-src` follows `default-src 'self'`.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "frame-src 'self' blob:",
  "object-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The built console: dist/console next to dist/apps (this file runs as dist/apps/gateway/src/http/console-site.js). */
export const defaultConsoleDir = (): string => process.env.CONSOLE_DIR ?? path.resolve(__dirname, '..', '..', '..', '..', 'console');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};

interface Asset {
  readonly body: Buffer;
  readonly type: string;
}

/** Every file of the built console by its URL path (`/console/assets/index-3f2a.js`), read once: the console is a few dozen KiB. */
export function readConsoleAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  if (!existsSync(path.join(dir, 'index.html'))) return assets;
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const file = path.join(folder, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (!name.startsWith('.')) {
        const url = `${CONSOLE_PATH}/${path.relative(dir, file).split(path.sep).join('/')}`;
        assets.set(url, { body: readFileSync(file), type: TYPES[path.extname(name)] ?? 'application/octet-stream' });
      }
    }
  };
  walk(dir);
  return assets;
}

/**
 * Serves the console on the router itself, as /docs is: no API key (the pages hold none; every API call the
 * console makes carries the key the person typed, and meets the API's own guard). `/console` and any
 * `/console/...` that is not a file is the page (its client routes); a missing file under `assets/` is a 404,
 * not the page (a stale page asking for an old bundle must fail loudly). Hashed assets are cached for good;
 * the page never, so a new deployment's bundle is picked up at the next load. A gateway built without the
 * console (`dist/console` absent) answers 404 CONSOLE.NOT_BUILT.
 */
export function setupConsole(app: NestFastifyApplication, dir: string = defaultConsoleDir()): void {
  registerConsole(app.getHttpAdapter().getInstance(), dir);
}

/** The console's routes on a Fastify instance (setupConsole's, apart for its unit test). */
export function registerConsole(fastify: FastifyInstance, dir: string): void {
  const assets = readConsoleAssets(dir);
  const page = assets.get(`${CONSOLE_PATH}/index.html`);
  const send = (reply: FastifyReply, asset: Asset, cache: string) =>
    reply
      .header('content-type', asset.type)
      .header('cache-control', cache)
      .header('content-security-policy', CONSOLE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(asset.body);
  const handler = (url: string, reply: FastifyReply, requestId: string) => {
    const asset = assets.get(url);
    if (asset && url !== `${CONSOLE_PATH}/index.html`) return send(reply, asset, url.startsWith(`${CONSOLE_PATH}/assets/`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (page && !url.startsWith(`${CONSOLE_PATH}/assets/`)) return send(reply, page, 'no-store');
    const error = page ? notFound('CONSOLE.NOT_FOUND', `No file ${url} in the console.`) : notFound('CONSOLE.NOT_BUILT', 'The console is not built on this gateway (npm start builds it into dist/console).');
    const { statusCode, body } = toHttpError(error, requestId);
    return reply.status(statusCode).send(body);
  };
  fastify.get(CONSOLE_PATH, (request, reply) => handler(CONSOLE_PATH, reply, correlationIdOf(request)));
  fastify.get(`${CONSOLE_PATH}/*`, (request, reply) => handler(request.url.split('?')[0], reply, correlationIdOf(request)));
}
