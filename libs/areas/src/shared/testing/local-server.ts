/**
 * The tests' wire-format fakes of the authorities listen here: an HTTP server on 127.0.0.1, a free port;
 * and what every fake does with a call: reads its body whole, answers JSON.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalServer {
  readonly url: string;
  /** Closes the server and every connection it holds. */
  stop(): Promise<void>;
}

export async function listenLocally(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<LocalServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A request's whole body as UTF-8 text ('' when it has none). */
export async function requestText(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON answer with its status. */
export function answerJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
