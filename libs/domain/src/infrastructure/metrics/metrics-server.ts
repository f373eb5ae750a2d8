/**
 * Operator endpoints on a port of their own, never the API's: a worker's `GET /metrics`
 * (`METRICS_PORT`; none when unset, so several workers of one kind on one host choose theirs), and
 * the gateway's `GET /metrics` and detailed `GET /health` (`OPERATOR_PORT`, README "Operating it").
 */
import http from 'node:http';
import { metricsRegistry } from './metrics';

/** What an operator endpoint answers. */
export interface OperatorAnswer {
  readonly statusCode: number;
  readonly contentType: string;
  readonly body: string;
}

/** An endpoint: `GET <path>` answered by a function. */
export type OperatorRoutes = Readonly<Record<string, () => Promise<OperatorAnswer>>>;

/** This process's Prometheus registry in the text exposition format. */
export async function metricsAnswer(): Promise<OperatorAnswer> {
  return { statusCode: 200, contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** Serves `routes` (GET only; anything else a bare 404) on `host:port`; resolves once listening. */
export function serveOperatorRoutes(port: number, host: string, routes: OperatorRoutes): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = req.url?.split('?')[0] ?? '';
    const route = req.method === 'GET' && Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    route().then(
      (answer) => res.writeHead(answer.statusCode, { 'content-type': answer.contentType }).end(answer.body),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  // Fastify's default, not Node's 5 s: a client that reuses a kept-alive connection after a pause (a
  // scraper, a test whose event loop was blocked) would race the server's close and get a reset.
  server.keepAliveTimeout = 72_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

export function serveMetrics(port: number, host = process.env.METRICS_HOST ?? '0.0.0.0'): Promise<http.Server> {
  return serveOperatorRoutes(port, host, { '/metrics': metricsAnswer });
}
