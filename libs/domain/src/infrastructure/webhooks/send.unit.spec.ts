// sendWebhook against a local HTTP server: POSTs to one receiver share a kept-alive connection, and one
// the receiver closed meanwhile is sent again on a new connection instead of failing the attempt.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret } from '../../webhook';
import { RESPONSE_BODY_BYTES, sendWebhook } from './send';

describe('sendWebhook (local receiver)', () => {
  let server: http.Server;
  let url: string;
  const connections: unknown[] = [];
  let received = 0;
  const paths: string[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  /** What the receiver answers with (a body past 4 KiB: the attempt keeps its first 4 KiB). */
  let answer = '';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      paths.push(req.url ?? '');
      headers.push(req.headers);
      req.on('end', () => {
        received += 1;
        if (answer) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(answer);
        else res.writeHead(204).end();
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

  it('#48 signs with each secret given (a rotation): the official package verifies with either', async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const body = '{"type":"document.accepted"}';
    expect(await sendWebhook({ url, secrets: [current, previous], id: 'evt_1', body, policy: { allowLoopback: true }, timeoutMs: 5_000 })).toMatchObject({ acknowledged: true });
    const sent = Object.fromEntries(Object.entries(headers.at(-1) ?? {}).map(([name, value]) => [name, String(value)]));
    expect(sent['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [current, previous]) expect(new Webhook(secret).verify(body, sent)).toEqual({ type: 'document.accepted' });
  });

  it('#48 keeps the first 4 KiB of the answer\'s body, whole characters only', async () => {
    answer = `no:${'ü'.repeat(4000)}`;
    try {
      const result = await sendWebhook({ url, secret: 'whsec_test', id: 'b', body: '{}', policy: { allowLoopback: true }, timeoutMs: 5_000 });
      expect(result).toMatchObject({ statusCode: 400, acknowledged: false });
      expect(Buffer.byteLength(result.responseBody ?? '')).toBe(RESPONSE_BODY_BYTES - 1);
      expect(answer.startsWith(result.responseBody ?? 'x')).toBe(true);
      // The rest was read: the kept-alive connection carries the next POST.
      answer = '';
      expect(await send('after')).toMatchObject({ acknowledged: true, responseBody: '' });
    } finally {
      answer = '';
    }
  });
});
