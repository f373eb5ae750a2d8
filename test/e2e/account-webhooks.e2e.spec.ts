import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DataSource } from 'typeorm';
import { Webhook } from 'standardwebhooks';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runScript } from '../support/readme-examples';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';
import { signedCorrectly, webhookTestEnv } from '../support/webhook-receiver';

const run = Date.now().toString(36);

interface Received {
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A subscriber's endpoint on 127.0.0.1 that answers `statuses` in turn (then 200) with a JSON body of its own. */
async function endpoint(statuses: number[] = []) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify({ received: received.length }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${randomUUID().slice(0, 8)}`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The headers as the `standardwebhooks` package reads them (one string each). */
const headersOf = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([name, value]) => [name, String(value)]));

/**
 * #48 account-wide webhooks over HTTP: every route of `/v1/webhooks`, its 400/404/409 answers, tenancy, a test send
 * verified by the official `standardwebhooks` package (with either secret during a rotation), re-sends through the
 * dispatcher under the same `webhook-id`, and the per-account limit.
 */
describe('#48 /v1/webhooks: account-wide webhook endpoints', () => {
  let dataSource: DataSource;
  const apps: AppProcess[] = [];
  const closers: Array<() => Promise<void>> = [];
  let client: Client;
  let apiKey: string;
  let stranger: Client;
  /** An account of its own for the limit, through a gateway whose limit is 3. */
  let limitedKey: string;
  let supplier: string;
  let strangersSupplier: string;

  const receiver = async (statuses: number[] = []) => {
    const r = await endpoint(statuses);
    closers.push(r.close);
    return r;
  };
  const register = async (body: Record<string, unknown>, as: Client = client) => {
    const answer = await as.post('/v1/webhooks', body);
    expect(answer.status).toBe(201);
    return answer.body.data as { id: string; secret: string; url: string };
  };
  const codes = (body: { errors: Array<{ path: string; code: string }> }) => body.errors.map((e) => `${e.path} ${e.code}`);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const own = await createTenant(dataSource, `e2e account webhooks ${run}`);
    const other = await createTenant(dataSource, `e2e account webhooks stranger ${run}`);
    const third = await createTenant(dataSource, `e2e account webhooks limited ${run}`);
    const gateway = await startGateway(webhookTestEnv);
    apps.push(gateway.app, startApp('webhook-dispatcher', testEnv(webhookTestEnv)));
    client = new Client(gateway.url, own.apiKey);
    apiKey = own.apiKey;
    stranger = new Client(gateway.url, other.apiKey);
    limitedKey = third.apiKey;
    const onboard = async (as: Client) => {
      const answer = await as.post('/be/einvoice/onboard', { registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
      expect(answer.status).toBe(201);
      return answer.body.data.supplier_uuid as string;
    };
    supplier = await onboard(client);
    strangersSupplier = await onboard(stranger);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await Promise.all(closers.map((close) => close()));
    await dataSource?.destroy();
  });

  it('registers an endpoint for everything: 201 with its secret once, filters null (all), enabled; a replay answers secret null and creates nothing', async () => {
    const r = await receiver();
    const key = randomUUID();
    const first = await client.post('/v1/webhooks', { url: r.url, description: 'ERP: every event' }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      status: 'success',
      data: { url: r.url, events: null, areas: null, supplier_ids: null, status: 'enabled', description: 'ERP: every event', disabled_reason: null, previous_secret_expires_at: null },
    });
    expect(first.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first.body.data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const replay = await client.post('/v1/webhooks', { url: r.url, description: 'ERP: every event' }, { 'idempotency-key': key });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual({ ...first.body.data, secret: null });
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE url = $1`, [r.url]);
    expect(n).toBe(1);
    // Neither the secret nor its sealed form is ever read back.
    const read = await client.get(`/v1/webhooks/${first.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(Object.fromEntries(Object.entries(first.body.data).filter(([name]) => name !== 'secret')));
  });

  it('refuses bad input with 400 naming the field: unknown type at events[i], unknown area, a supplier not yours, a private URL, no url', async () => {
    const r = await receiver();
    const bad = async (body: Record<string, unknown>) => {
      const answer = await client.post('/v1/webhooks', body);
      expect(answer.status).toBe(400);
      return codes(answer.body);
    };
    expect(await bad({ url: r.url, events: ['document.reported', 'document.teleported'] })).toEqual(['events[1] FIELD.INVALID_VALUE']);
    expect(await bad({ url: r.url, areas: ['pl', 'xx'] })).toEqual(['areas[1] FIELD.INVALID_VALUE']);
    expect(await bad({ url: r.url, supplier_ids: [supplier, strangersSupplier] })).toEqual(['supplier_ids[1] FIELD.INVALID_VALUE']);
    expect(await bad({ url: r.url, supplier_ids: ['not-a-uuid'] })).toEqual(['supplier_ids[0] FIELD.INVALID_FORMAT']);
    expect(await bad({ url: 'https://10.0.0.7/hooks' })).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(await bad({ url: 'https://169.254.169.254/latest' })).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(await bad({ events: ['document.reported'] })).toEqual(['url FIELD.REQUIRED']);
    expect(await bad({ url: r.url, events: [] })).toEqual(['events FIELD.TOO_FEW']);
  });

  it('registers the same url with the same filters once: 409 WEBHOOK.DUPLICATE naming the endpoint, in any order; other filters are another endpoint', async () => {
    const r = await receiver();
    const first = await register({ url: r.url, events: ['document.reported', 'document.report_failed'], areas: ['pl', 'es'], supplier_ids: [supplier] });
    const again = await client.post('/v1/webhooks', { url: r.url, events: ['document.report_failed', 'document.reported'], areas: ['es', 'pl'], supplier_ids: [supplier] });
    expect(again.status).toBe(409);
    expect(codes(again.body)).toEqual(['url WEBHOOK.DUPLICATE']);
    expect(again.body.data).toEqual({ webhook_id: first.id });
    const other = await register({ url: r.url, events: ['document.reported'], areas: ['pl', 'es'], supplier_ids: [supplier] });
    expect(other.id).not.toBe(first.id);
    // A PATCH that makes one the other's twin is refused as well.
    const twin = await client.patch(`/v1/webhooks/${other.id}`, { events: ['document.reported', 'document.report_failed'] });
    expect(twin.status).toBe(409);
    expect(twin.body.data).toEqual({ webhook_id: first.id });
    for (const id of [first.id, other.id]) expect((await client.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
  });

  it('lists newest first, page by page (limit, starting_after, has_more); bad paging is a 400', async () => {
    const r = await receiver();
    const ids: string[] = [];
    for (const area of ['be', 'de']) ids.unshift((await register({ url: r.url, areas: [area] })).id);
    const page1 = await client.get('/v1/webhooks?limit=1');
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ status: 'success', has_more: true });
    expect(page1.body.data.map((e: { id: string }) => e.id)).toEqual([ids[0]]);
    expect(page1.body.data[0]).not.toHaveProperty('secret');
    const page2 = await client.get(`/v1/webhooks?limit=1&starting_after=${ids[0]}`);
    expect(page2.body.data.map((e: { id: string }) => e.id)).toEqual([ids[1]]);
    expect(codes((await client.get('/v1/webhooks?limit=0')).body)).toEqual(['limit FIELD.INVALID_VALUE']);
    expect(codes((await client.get(`/v1/webhooks?starting_after=${randomUUID()}`)).body)).toEqual(['starting_after FIELD.INVALID_VALUE']);
    expect(codes((await client.get('/v1/webhooks?area=be')).body)).toEqual(['area FIELD.INVALID_VALUE']);
    for (const id of ids) expect((await client.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
  });

  it('changes by PATCH: filters, description, null back to all; disabled by the caller and enabled again; then deleted (204, then 404)', async () => {
    const r = await receiver();
    const { id } = await register({ url: r.url, events: ['document.received'], description: 'inbox' });
    const changed = await client.patch(`/v1/webhooks/${id}`, { areas: ['be'], supplier_ids: [supplier], description: null });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id, events: ['document.received'], areas: ['be'], supplier_ids: [supplier], description: null, status: 'enabled' });
    const disabled = await client.patch(`/v1/webhooks/${id}`, { status: 'disabled' });
    expect(disabled.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'disabled by the caller' });
    const [row] = await dataSource.query(`SELECT disabled_at FROM webhook_subscriptions WHERE id = $1`, [id]);
    expect(row.disabled_at).not.toBeNull();
    const enabled = await client.patch(`/v1/webhooks/${id}`, { status: 'enabled', events: null });
    expect(enabled.body.data).toMatchObject({ status: 'enabled', disabled_reason: null, events: null, areas: ['be'] });
    expect(codes((await client.patch(`/v1/webhooks/${id}`, {})).body)).toEqual([' FIELD.REQUIRED']);
    expect(codes((await client.patch(`/v1/webhooks/${id}`, { status: 'paused' })).body)).toEqual(['status FIELD.INVALID_VALUE']);
    expect(codes((await client.patch(`/v1/webhooks/${id}`, { url: 'https://192.168.1.10/x' })).body)).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(codes((await client.patch(`/v1/webhooks/${id}`, { supplier_ids: [strangersSupplier] })).body)).toEqual(['supplier_ids[0] FIELD.INVALID_VALUE']);
    expect((await client.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(204);
    expect((await client.get(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await client.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await client.get('/v1/webhooks/not-a-uuid')).status).toBe(404);
  });

  it('sends a sample event now (POST …/test): signed by Standard Webhooks, verified by the `standardwebhooks` package, recorded as a delivery with its attempt', async () => {
    const r = await receiver();
    const { id, secret } = await register({ url: r.url, events: ['document.reported'] });
    const sent = await client.post(`/v1/webhooks/${id}/test`, { type: 'document.report_failed' });
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ event_type: 'document.report_failed', acknowledged: true, attempt: 1, status_code: 200, error: null, response_body: '{"received":1}' });
    expect(sent.body.data.duration_ms).toEqual(expect.any(Number));
    expect(r.received).toHaveLength(1);
    const [received] = r.received;
    // The official library verifies it and gives back the event.
    const event = new Webhook(secret).verify(received.body, headersOf(received)) as { id: string; type: string; data: { status: string } };
    expect(event).toMatchObject({ id: sent.body.data.event_id, type: 'document.report_failed', data: { status: 'refused' } });
    expect(received.headers['webhook-id']).toBe(sent.body.data.event_id);
    expect(received.headers['content-type']).toBe('application/json');
    const deliveries = await client.get(`/v1/webhooks/${id}/deliveries`);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body).toMatchObject({ status: 'success', has_more: false });
    expect(deliveries.body.data).toEqual([
      expect.objectContaining({
        id: sent.body.data.delivery_id, event_id: event.id, event_type: 'document.report_failed', status: 'delivered', request_body: JSON.parse(received.body), next_attempt_at: null,
        attempts: [expect.objectContaining({ attempt: 1, at: sent.body.data.at, status_code: 200, duration_ms: sent.body.data.duration_ms, response_body: sent.body.data.response_body, error: null })],
      }),
    ]);
    expect(codes((await client.post(`/v1/webhooks/${id}/test`, { type: 'document.teleported' })).body)).toEqual(['type FIELD.INVALID_VALUE']);
    expect((await client.post(`/v1/webhooks/${randomUUID()}/test`, { type: 'document.reported' })).status).toBe(404);
  });

  it('rotates the secret: the answer says until when the old one signs (24 h); meanwhile each delivery verifies with the old secret and with the new one', async () => {
    const r = await receiver();
    const { id, secret: old } = await register({ url: r.url });
    const rotated = await client.post(`/v1/webhooks/${id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const { secret, previous_secret_expires_at: until } = rotated.body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    expect(Math.abs(Date.parse(until) - Date.now() - 24 * 3600_000)).toBeLessThan(60_000);
    expect((await client.get(`/v1/webhooks/${id}`)).body.data.previous_secret_expires_at).toBe(until);
    expect((await client.post(`/v1/webhooks/${id}/test`, { type: 'document.delivered' })).body.data.acknowledged).toBe(true);
    const [received] = r.received;
    expect(String(received.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(signedCorrectly(old, received)).toBe(true);
    expect(signedCorrectly(secret, received)).toBe(true);
    expect((await stranger.post(`/v1/webhooks/${id}/rotate-secret`, {})).status).toBe(404);
  });

  it('re-sends a delivery in any state under the same webhook-id: a failed test send, then a delivered one again; each a new attempt of the same delivery', async () => {
    const r = await receiver([500]);
    const { id, secret } = await register({ url: r.url, areas: ['pl'] });
    const sent = await client.post(`/v1/webhooks/${id}/test`, { type: 'document.reported' });
    expect(sent.body.data).toMatchObject({ acknowledged: false, status_code: 500, error: 'HTTP 500', response_body: '{"received":1}' });
    const failed = await client.get(`/v1/webhooks/${id}/deliveries?status=failed`);
    expect(failed.body.data.map((d: { id: string }) => d.id)).toEqual([sent.body.data.delivery_id]);
    expect((await client.get(`/v1/webhooks/${id}/deliveries?status=delivered`)).body.data).toEqual([]);
    const deliveryPath = `/v1/webhooks/${id}/deliveries/${sent.body.data.delivery_id}/resend`;
    for (const expected of [2, 3]) {
      const resent = await client.post(deliveryPath, {});
      expect(resent.status).toBe(202);
      expect(resent.body).toEqual({ status: 'success', data: { id: sent.body.data.delivery_id, status: 'pending' } });
      const [delivery] = await eventually(`attempt ${expected} delivered`, async () => {
        const rows = (await client.get(`/v1/webhooks/${id}/deliveries?event_type=document.reported`)).body.data;
        return rows[0]?.status === 'delivered' && rows[0].attempts.length === expected ? rows : undefined;
      });
      expect(delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([500, 200, 200].slice(0, expected));
    }
    expect(r.received).toHaveLength(3);
    expect(new Set(r.received.map((x) => x.headers['webhook-id']))).toEqual(new Set([sent.body.data.event_id]));
    expect(r.received.every((x) => signedCorrectly(secret, x))).toBe(true);
    expect((await client.post(`/v1/webhooks/${id}/deliveries/${randomUUID()}/resend`, {})).status).toBe(404);
    expect(codes((await client.get(`/v1/webhooks/${id}/deliveries?status=lost`)).body)).toEqual(['status FIELD.INVALID_VALUE']);
    expect(codes((await client.get(`/v1/webhooks/${id}/deliveries?event_type=x`)).body)).toEqual(['event_type FIELD.INVALID_VALUE']);
  });

  it('keeps tenants apart: another account sees none of them and changes none (404)', async () => {
    const r = await receiver();
    const { id } = await register({ url: r.url, events: ['document.accepted'] });
    expect((await stranger.get('/v1/webhooks')).body.data.map((e: { id: string }) => e.id)).not.toContain(id);
    expect((await stranger.get(`/v1/webhooks/${id}`)).status).toBe(404);
    expect((await stranger.patch(`/v1/webhooks/${id}`, { status: 'disabled' })).status).toBe(404);
    expect((await stranger.request('DELETE', `/v1/webhooks/${id}`)).status).toBe(404);
    expect((await stranger.post(`/v1/webhooks/${id}/test`, { type: 'document.accepted' })).status).toBe(404);
    expect((await stranger.get(`/v1/webhooks/${id}/deliveries`)).status).toBe(404);
    expect(codes((await stranger.get(`/v1/webhooks?starting_after=${id}`)).body)).toEqual(['starting_after FIELD.INVALID_VALUE']);
    expect(r.received).toHaveLength(0);
    expect((await client.get(`/v1/webhooks/${id}`)).body.data.status).toBe('enabled');
    // The same url and filters in another account is that account's own endpoint.
    expect((await stranger.post('/v1/webhooks', { url: r.url, events: ['document.accepted'] })).status).toBe(201);
  });

  it('limits an account to WEBHOOK_MAX_PER_TENANT endpoints (409 WEBHOOK.LIMIT_REACHED); a deleted one frees its place', async () => {
    const small = await startGateway({ ...webhookTestEnv, WEBHOOK_MAX_PER_TENANT: '3' });
    apps.push(small.app);
    const limited = new Client(small.url, limitedKey);
    const r = await receiver();
    const ids: string[] = [];
    for (const area of ['be', 'de', 'sg']) ids.push((await register({ url: r.url, areas: [area] }, limited)).id);
    const over = await limited.post('/v1/webhooks', { url: r.url, areas: ['pl'] });
    expect(over.status).toBe(409);
    expect(codes(over.body)).toEqual([' WEBHOOK.LIMIT_REACHED']);
    expect((await limited.request('DELETE', `/v1/webhooks/${ids[0]}`)).status).toBe(204);
    expect((await limited.post('/v1/webhooks', { url: r.url, areas: ['pl'] })).status).toBe(201);
  });

  it('runs the README\'s curl examples of "Webhooks (account-wide)" as written, each answered 2xx, the test send received', async () => {
    const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Webhooks (account-wide)'));
    const script = /^```sh\n([\s\S]*?)^```$/m.exec(section)?.[1];
    expect(script).toContain('/v1/webhooks');
    const r = await receiver();
    const result = await runScript(script as string, { GATEWAY: client.url, API_KEY: apiKey, HOOK_URL: r.url });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(r.received.map((x) => JSON.parse(x.body).type)).toContain('document.reported');
  });
});
