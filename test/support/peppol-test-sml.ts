/**
 * The SML's part in discovery, for tests with several installations on one machine (#46): which SMP
 * serves a participant. Peppol's SML answers that by DNS (a NAPTR record per participant naming its
 * SMP); the AS4 engine reads it that way in production and from a fixed SMP URL in tests
 * (PEPPOL_SMP_URL). With one engine per installation and an SMP in each, the fixed URL is this router:
 * it asks each SMP in turn and passes on, byte for byte, the first answer that is not a 404, so the
 * engine verifies the signature the installation's own SMP made.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export class TestSmlRouter {
  private server!: http.Server;
  /** The participants each lookup was for, as requested (percent-encoded path). */
  readonly lookups: string[] = [];

  /** @param smpBaseUrls each installation's SMP, e.g. `http://127.0.0.1:3001/smp` */
  constructor(private readonly smpBaseUrls: readonly string[]) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.lookups.push(req.url ?? '');
      void this.route(req.url ?? '/').then(
        (answer) => {
          res.statusCode = answer.status;
          if (answer.contentType) res.setHeader('content-type', answer.contentType);
          res.end(answer.body);
        },
        (error: Error) => {
          res.statusCode = 502;
          res.end(error.message);
        },
      );
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  /** PEPPOL_SMP_URL for the engines. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async route(path: string): Promise<{ status: number; contentType?: string; body: Buffer }> {
    for (const base of this.smpBaseUrls) {
      const response = await fetch(`${base}${path}`);
      if (response.status === 404) continue;
      return { status: response.status, contentType: response.headers.get('content-type') ?? undefined, body: Buffer.from(await response.arrayBuffer()) };
    }
    return { status: 404, body: Buffer.alloc(0) };
  }
}
