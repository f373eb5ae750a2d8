/**
 * A worker's metrics: `GET /metrics` on its own port (`METRICS_PORT`; none when unset, so several
 * workers of one kind on one host choose theirs). The gateway serves its own on its HTTP port.
 */
import http from 'node:http';
import { metricsRegistry } from './metrics';

export function serveMetrics(port: number, host = process.env.METRICS_HOST ?? '0.0.0.0'): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metricsRegistry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
