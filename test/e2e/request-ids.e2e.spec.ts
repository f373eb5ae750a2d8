// #47 request ids and what is public: every answer names its request (x-request-id, and request_id in
// error bodies), whoever answers it (a route, a hook, Fastify's router and parsers, Node's HTTP parser),
// the gateway's log line for that request carries the same id; the detailed health and the metrics are
// on the operator port only.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { type Answer, Client } from '../support/http';
import { rawHttp } from '../support/raw-http';
import { AppProcess, eventually, startGateway } from '../support/stack';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BODY_LIMIT = 2_000;

describe('#47 request ids on every answer; health in detail and metrics only on the operator port', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  let anonymous: Client;
  let operator: Client;
  const run = Date.now().toString(36);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e request ids');
    // debug: the gateway writes one line per answer ('request answered'), the line this test looks for.
    const started = await startGateway({ LOG_LEVEL: 'debug', BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    anonymous = new Client(started.url);
    operator = new Client(started.operatorUrl);
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  /** The answer's id, which its error body (when it is one) repeats. */
  const idOf = (answer: Answer): string => {
    const id = answer.headers.get('x-request-id') ?? '';
    if (answer.status >= 400) expect(answer.body).toMatchObject({ request_id: id });
    return id;
  };

  it('generates one on a success and on an error, a new one per request', async () => {
    const live = await anonymous.get('/health/live');
    expect(live.status).toBe(200);
    const refused = await anonymous.get(`/api/einvoice/documents/00000000-0000-4000-8000-000000000000`);
    expect(refused.status).toBe(401);
    // A route's own refusal (MyInvois wants its supplier header).
    const missing = await client.get(`/api/einvoice/documents/00000000-0000-4000-8000-000000000000`);
    expect(missing.status).toBe(400);
    const ids = [idOf(live), idOf(refused), idOf(missing)];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });

  it('echoes a well-formed one in the header and in the error body', async () => {
    for (const sent of [`order-${run}.retry:1_a`, 'x'.repeat(200)]) {
      const ok = await anonymous.request('GET', '/health/ready', { headers: { 'x-request-id': sent } });
      expect({ status: ok.status, body: ok.body, id: idOf(ok) }).toEqual({ status: 200, body: { status: 'up' }, id: sent });
      const error = await client.request('GET', '/api/einvoice/documents/not-a-uuid', { headers: { 'x-request-id': sent } });
      expect(error.status).toBeGreaterThanOrEqual(400);
      expect(idOf(error)).toBe(sent);
    }
  });

  it('replaces a malformed one with a new UUID, and answers the request all the same', async () => {
    for (const sent of ['has a space', 'x'.repeat(201), 'a/b', 'é']) {
      const answer = await client.request('GET', '/api/einvoice/documents/00000000-0000-4000-8000-000000000000', { headers: { 'x-request-id': sent } });
      expect(answer.status).toBe(400);
      expect(idOf(answer)).toMatch(UUID);
    }
  });

  it("names the request in Fastify's own answers: 404 of no route, 413, 415, a URL the router cannot decode", async () => {
    const sent = `edge-${run}`;
    const noRoute = await client.request('GET', '/no/such/route', { headers: { 'x-request-id': sent } });
    expect({ status: noRoute.status, code: noRoute.body.errors[0].code, id: idOf(noRoute) }).toEqual({ status: 404, code: 'ROUTE.NOT_FOUND', id: sent });

    const tooLarge = await client.request('POST', '/be/einvoice/onboard', { raw: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT) }), headers: { 'x-request-id': sent } });
    expect({ status: tooLarge.status, code: tooLarge.body.errors[0].code, id: idOf(tooLarge) }).toEqual({ status: 413, code: 'REQUEST.TOO_LARGE', id: sent });

    const wrongType = await client.request('POST', '/be/einvoice/onboard', { raw: 'hello', headers: { 'content-type': 'text/plain', 'x-request-id': sent } });
    expect({ status: wrongType.status, code: wrongType.body.errors[0].code, id: idOf(wrongType) }).toEqual({ status: 415, code: 'REQUEST.UNSUPPORTED_MEDIA_TYPE', id: sent });

    // Raw: no client library sends these. The router's error (frameworkErrors), then Node's parser's (no request at all).
    const badUrl = await rawHttp(client.url, `GET /health/live%ff HTTP/1.1\r\nHost: x\r\nx-request-id: ${sent}\r\n\r\n`);
    expect({ status: badUrl.status, header: headerOf(badUrl.text), body: badUrl.body }).toMatchObject({ status: 400, header: sent, body: { request_id: sent, errors: [{ code: 'REQUEST.BAD_URL' }] } });
    const malformed = await rawHttp(client.url, 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n');
    const generated = headerOf(malformed.text);
    expect({ status: malformed.status, header: generated, body: malformed.body }).toMatchObject({ status: 400, header: expect.stringMatching(UUID), body: { request_id: generated } });
  });

  it("names the request in the SMP's XML answers too", async () => {
    const base = `0${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const kbo = `${base}${String(97 - (Number(base) % 97)).padStart(2, '0')}`;
    const registered = await client.post('/1.0/participant', {
      businessEntity: [{ names: { name: [{ language: 'nl', name: 'Request Ids NV' }] }, countryCode: 'BE', additionalIdentifiers: { additionalIdentifier: [{ identifierCode: '0208', identifierValue: kbo, scheme: 'iso6523-actorid-upis' }] } }],
    });
    expect(registered.status).toBeLessThan(300);
    const sent = `smp-${run}`;
    const serviceGroup = await anonymous.request('GET', `/smp/${encodeURIComponent(`iso6523-actorid-upis::0208:${kbo}`)}`, { headers: { 'x-request-id': sent } });
    expect({ status: serviceGroup.status, type: serviceGroup.headers.get('content-type'), id: serviceGroup.headers.get('x-request-id') }).toEqual({ status: 200, type: expect.stringContaining('application/xml'), id: sent });
  });

  it("writes the id in the gateway's log line for that request", async () => {
    const sent = `logged-${run}`;
    await client.request('GET', '/api/einvoice/documents/00000000-0000-4000-8000-000000000000', { headers: { 'x-request-id': sent } });
    const generated = idOf(await anonymous.get('/no/such/route'));
    const logFile = path.join(process.env.TEST_LOG_DIR ?? '', `gateway-${gateway.child.pid}.log`);
    // npm test keeps each app's log there (test/support/stack.ts).
    expect(process.env.TEST_LOG_DIR).toEqual(expect.any(String));
    const lines = await eventually('both answers logged', async () => {
      const answered = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.message === 'request answered' && (line.correlationId === sent || line.correlationId === generated));
      return answered.length === 2 ? answered : undefined;
    });
    expect(lines).toEqual([
      expect.objectContaining({ app: 'gateway', correlationId: sent, status: '400', route: '/api/einvoice/documents/:id' }),
      expect.objectContaining({ app: 'gateway', correlationId: generated, status: '404', route: 'unmatched' }),
    ]);
  });

  it('serves the detailed health and the metrics on the operator port only; the public probes say up or down', async () => {
    for (const route of ['/health', '/metrics']) {
      const publicAnswer = await client.get(route);
      expect({ route, status: publicAnswer.status, code: publicAnswer.body.errors?.[0]?.code }).toEqual({ route, status: 404, code: 'ROUTE.NOT_FOUND' });
    }
    expect((await anonymous.get('/health/live')).body).toEqual({ status: 'up' });
    expect((await anonymous.get('/health/ready')).body).toEqual({ status: 'up' });

    const health = await operator.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ checks: { postgres: { status: 'up' } }, outbox: { parkedRows: expect.any(Array) } });
    const metrics = await operator.get('/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^einvoice_http_requests_total\{.*app="gateway".*\} \d+$/m);
    expect(metrics.body).toMatch(/^# TYPE einvoice_documents gauge$/m);
    expect((await operator.get('/docs-json')).status).toBe(404);
    // Neither is in the API's reference any more.
    const openapi = (await anonymous.get('/docs-json')).body as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths).filter((p) => p === '/health' || p === '/metrics')).toEqual([]);
  });

  it('documents request_id and the x-request-id header in the OpenAPI document, on every answer of every operation', async () => {
    const openapi = (await anonymous.get('/docs-json')).body;
    expect(openapi.components.schemas.ErrorBody.required).toContain('request_id');
    const withoutHeader: string[] = [];
    for (const [route, item] of Object.entries(openapi.paths as Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (!response.headers?.['x-request-id']) withoutHeader.push(`${method} ${route} ${status}`);
        }
      }
    }
    expect(withoutHeader).toEqual([]);
  });
});

/** The x-request-id header of a raw answer. */
function headerOf(text: string): string | undefined {
  return /\r\nx-request-id: *([^\r\n]*)/i.exec(text.slice(0, text.indexOf('\r\n\r\n')))?.[1];
}
