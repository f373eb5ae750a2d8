// Requests no HTTP client library would send (a fragment in the request target, a body that never
// ends), written byte for byte on a TCP socket, and the first answer read back.
import { connect } from 'node:net';

/** The first answer on the connection: its status, its JSON body (undefined when not JSON) and the text as received. */
export interface RawAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/** How long to wait for an answer before failing: a safety net for a test that would otherwise hang, never a timed assertion. */
const GIVE_UP_MS = 30_000;

/**
 * Writes `request` as it is and resolves with the first complete answer (its Content-Length read
 * whole). The socket is left open after writing: a request whose body is unfinished stays unfinished.
 */
export function rawHttp(baseUrl: string, request: string | Buffer): Promise<RawAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let received = Buffer.alloc(0);
    const giveUp = setTimeout(() => finish(new Error(`no answer within ${GIVE_UP_MS} ms`)), GIVE_UP_MS);
    const finish = (error?: Error) => {
      clearTimeout(giveUp);
      socket.destroy();
      const answer = parsed(received);
      if (answer) resolve(answer);
      else reject(error ?? new Error(`the connection closed without an answer: ${JSON.stringify(received.toString('utf8'))}`));
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (parsed(received)) finish();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish());
    socket.on('connect', () => socket.write(request));
  });
}

/** The answer in `bytes` once its head and its Content-Length of body are there. */
function parsed(bytes: Buffer): RawAnswer | undefined {
  const headEnd = bytes.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = bytes.subarray(0, headEnd).toString('latin1');
  const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
  if (bytes.length < headEnd + 4 + length) return undefined;
  const text = bytes.subarray(0, headEnd + 4 + length).toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  let body: unknown;
  try {
    body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
  } catch {
    body = undefined;
  }
  return { status, body, text };
}
