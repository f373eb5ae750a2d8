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

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
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
});
