// sendWebhook against a local HTTP server: POSTs to one receiver share a kept-alive connection, and one
// the receiver closed meanwhile is sent again on a new connection instead of failing the attempt.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook } from './send';

describe('sendWebhook (local receiver)', () => {
  let server: http.Server;
  let url: string;
  const connections: unknown[] = [];
  let received = 0;
  const paths: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      paths.push(req.url ?? '');
      req.on('end', () => {
        received += 1;
        res.writeHead(204).end();
      });
    });
    server.on('connection', (socket) => connections.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const send = (id: string) => sendWebhook({ url, secret: 'whsec_test', id, body: '{"ok":true}', policy: { allowLoopback: true }, timeoutMs: 5_000 });

  it('sends one receiver\'s webhooks over one kept-alive connection', async () => {
    const before = connections.length;
    for (let i = 0; i < 5; i += 1) expect(await send(`msg_${i}`)).toMatchObject({ statusCode: 204, acknowledged: true, error: null });
    expect(connections.length - before).toBe(1);
  });

  it('sends again on a new connection when the receiver closed the kept-alive one: the attempt succeeds', async () => {
    expect(await send('msg_a')).toMatchObject({ acknowledged: true });
    // The receiver drops its idle connections (as a server whose keep-alive timeout passed does).
    server.closeIdleConnections();
    const before = received;
    expect(await send('msg_b')).toMatchObject({ statusCode: 204, acknowledged: true, error: null });
    expect(received - before).toBe(1);
  });

  it('posts to the path and query of the URL, each time (the parsed target is kept between sends)', async () => {
    for (const id of ['q1', 'q2']) {
      expect(await sendWebhook({ url: `${url}?tenant=a%20b`, secret: 'whsec_test', id, body: '{}', policy: { allowLoopback: true }, timeoutMs: 5_000 })).toMatchObject({ acknowledged: true });
      expect(paths.at(-1)).toBe('/hooks?tenant=a%20b');
    }
  });

  it('refuses a URL the policy refuses, each time, without a request', async () => {
    const before = received;
    for (const allowLoopback of [false, false]) {
      expect(await sendWebhook({ url, secret: 'whsec_test', id: 'r', body: '{}', policy: { allowLoopback }, timeoutMs: 5_000 })).toMatchObject({
        statusCode: null,
        acknowledged: false,
        error: expect.stringMatching(/^WEBHOOK\.URL_NOT_ALLOWED: /),
      });
    }
    // The same URL under a policy that allows it is sent: the refusal was kept for its policy only.
    expect(await send('r2')).toMatchObject({ acknowledged: true });
    expect(received - before).toBe(1);
  });
});
