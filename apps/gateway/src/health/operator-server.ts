import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serveOperatorRoutes } from '@einvoice/domain/infrastructure';
import { HealthReport } from './health-report';
import { MetricsScrape } from './metrics-scrape';

/**
 * The gateway's operator endpoints, on a listener of their own (OPERATOR_HOST:OPERATOR_PORT, loopback
 * by default; README "Operating it"): `GET /health` in detail and `GET /metrics` show every tenant's
 * counts and the parked outbox rows' errors, which the public API port must not. No credential: who
 * reaches the port is the operator (Prometheus in the same network), as for the workers' METRICS_PORT.
 */
@Injectable()
export class OperatorServer implements OnApplicationShutdown {
  private server?: Server;

  constructor(
    private readonly health: HealthReport,
    private readonly metrics: MetricsScrape,
  ) {}

  /** Listens (port 0: any free one); resolves with the URL it serves. */
  async listen(port: number, host: string): Promise<string> {
    this.server = await serveOperatorRoutes(port, host, { '/health': () => this.health.detailed(), '/metrics': () => this.metrics.scrape() });
    const address = this.server.address() as AddressInfo;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // A scraper's kept-alive connection would hold the close until it times out.
    server.closeAllConnections();
    await closed;
  }
}
