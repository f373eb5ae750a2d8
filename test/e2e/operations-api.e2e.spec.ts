// #50 the Operations API over HTTP against the real stack (gateway, reporting worker, CLI, PostgreSQL, Kafka):
// an operator made by the CLI sees a dead-lettered document and replays it until its authority accepts it,
// parked outbox rows and their release, each worker's lag, the authorities' error rates and what is stuck;
// an account's key gets a 403 on every operations route, and an operator's key no account's documents.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { runScript } from '../support/readme-examples';
import { beVat } from '../support/identifiers';
import { type AppProcess, type StartedGateway, eventually, runCli, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

jest.setTimeout(300_000);

/** Topics of their own, made with a 20 KB limit: an ordinary large invoice stands in for any event the broker refuses. */
const prefix = `gops${Date.now().toString(36)}`;
const env = (extra: Record<string, string> = {}) => testEnv({ KAFKA_TOPIC_PREFIX: prefix, ...extra });
const run = Date.now().toString(36);
const toyDocument = (ID: string) => ({ ID: `${ID}-${run}`, IssueDate: '2026-11-24', Total: 121.5 });
const seller = () => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
const buyer = { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] };
/** About 60 KB of event: more than the topics' 20 KB even after GZIP. */
const bigInvoice = (ID: string) => ({
  ID, DocumentType: '380', IssueDate: '2026-03-15', CustomerParty: buyer,
  InvoiceLines: Array.from({ length: 100 }, () => ({ Description: randomBytes(150).toString('base64'), PriceAmount: 1, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } })),
  TotalIncludingVat: 121,
});

/** One JSON line of the CLI's stdout. */
const cliJson = (args: string[]) => {
  const result = runCli(args, env());
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout.trim().split('\n')[0]);
};

describe('#50 the Operations API (gateway + reporting worker + CLI)', () => {
  let dataSource: DataSource;
  let gateway: StartedGateway;
  let worker: AppProcess | undefined;
  let tenant: Client;
  let operator: Client;
  let toySupplier: string;
  /** The toy document whose report was dead-lettered. */
  let deadLettered: string;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    expect(runCli(['topics'], env({ KAFKA_MAX_MESSAGE_BYTES: '20000' })).status).toBe(0);
    const { apiKey } = await createTenant(dataSource, 'e2e operations');
    const created = cliJson(['operators', 'create', `e2e on-call ${run}`]);
    expect(created).toEqual({ id: expect.any(String), name: `e2e on-call ${run}`, api_key: expect.stringMatching(/^op_[A-Za-z0-9_-]{43}$/) });
    gateway = await startGateway({ KAFKA_TOPIC_PREFIX: prefix, AUTHORITY_WAIT_MS: '3000' });
    tenant = new Client(gateway.url, apiKey);
    operator = new Client(gateway.url, created.api_key);
    // A reporting worker without the toy area: the toy authority's reports are dead-lettered (AUTHORITY.NO_CONNECTOR).
    worker = startApp('reporting-worker', env({ EINVOICE_TEST_AREAS: '0' }));
    await untilWorkersReady(gateway, 'reporting-worker');
    const onboarded = await tenant.post('/toy/einvoice/onboard', { registered_name: 'Toy Maker', tax_id: `TOY${String(Date.now() % 1e6).padStart(6, '0')}` });
    expect(onboarded.status).toBe(201);
    toySupplier = onboarded.body.data.supplier_uuid;
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.app.stop();
    await dataSource?.destroy();
  });

  it('GET /v1/whoami tells an account\'s key from an operator\'s; an unknown or disabled operator key is a 401', async () => {
    expect((await tenant.get('/v1/whoami')).body).toEqual({ status: 'success', data: { kind: 'tenant', id: expect.any(String), name: 'e2e operations' } });
    expect((await operator.get('/v1/whoami')).body).toEqual({ status: 'success', data: { kind: 'operator', id: expect.any(String), name: `e2e on-call ${run}` } });
    expect((await operator.withKey(undefined).get('/v1/whoami', { authorization: `Bearer ${operator.apiKey}` })).body.data.kind).toBe('operator');
    const unknown = await operator.withKey(`op_${randomBytes(32).toString('base64url')}`).get('/v1/operations/consumer-lag');
    expect(unknown.status).toBe(401);
    expect(unknown.body.errors[0].code).toBe('AUTH.INVALID_KEY');

    const leaving = cliJson(['operators', 'create', `e2e leaving ${run}`]);
    expect((await operator.withKey(leaving.api_key).get('/v1/whoami')).status).toBe(200);
    expect(cliJson(['operators', 'disable', `e2e leaving ${run}`])).toEqual({ name: `e2e leaving ${run}`, disabled_at: expect.any(String) });
    expect((await operator.withKey(leaving.api_key).get('/v1/whoami')).status).toBe(401);
    const listed = runCli(['operators', 'list'], env()).stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(listed).toEqual(expect.arrayContaining([expect.objectContaining({ name: `e2e leaving ${run}`, disabled_at: expect.any(String) })]));
    // Never a key, only its first characters.
    expect(JSON.stringify(listed)).not.toContain(leaving.api_key);
    expect(listed.every((o: { key_prefix: string }) => /^op_.{4}$/.test(o.key_prefix))).toBe(true);
    expect(runCli(['operators', 'create', `e2e on-call ${run}`], env()).status).toBe(1);
  });

  it('answers an account\'s key 403 on every operations route of the OpenAPI document, and an operator key 403 on an account\'s routes', async () => {
    const document = (await tenant.get('/docs-json')).body as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).filter(([, op]) => op.security?.some((s) => 'operator' in s) && !op.security.some((s) => 'x-svc-auth-key' in s)).map(([method]) => ({ method, path })));
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort()).toEqual([
      'GET /v1/operations/authority-errors', 'GET /v1/operations/consumer-lag', 'GET /v1/operations/dead-letters', 'GET /v1/operations/outbox/parked',
      'GET /v1/operations/stuck-documents', 'POST /v1/operations/dead-letters/{id}/replay', 'POST /v1/operations/outbox/parked/release', 'POST /v1/operations/outbox/parked/{id}/release',
    ]);
    for (const { method, path } of operations) {
      const answer = await tenant.request(method.toUpperCase(), path.replace('{id}', '0:0'));
      expect({ route: `${method} ${path}`, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ route: `${method} ${path}`, status: 403, code: 'AUTH.OPERATOR_ONLY' });
      expect(answer.body).toMatchObject({ status: 'forbidden', request_id: expect.any(String) });
    }

    const sent = await tenant.post('/toy/einvoice/documents', toyDocument('MINE'), { supplier_uuid: toySupplier });
    expect([200, 202]).toContain(sent.status);
    const documentId = sent.body.data.documentId ?? sent.body.data.id;
    expect((await tenant.get(`/v1/documents/${documentId}`)).status).toBe(200);
    for (const path of ['/v1/documents', `/v1/documents/${documentId}`, '/v1/suppliers', '/v1/events', '/v1/webhooks']) {
      const answer = await operator.get(path);
      expect({ path, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ path, status: 403, code: 'AUTH.NO_ACCOUNT' });
    }
    expect((await operator.post('/toy/einvoice/documents', toyDocument('NOT-MINE'), { supplier_uuid: toySupplier })).status).toBe(403);
  });

  it('lists the dead-lettered document\'s report and what is stuck; replayed once the worker can report it, the document is reported', async () => {
    const sent = await tenant.post('/toy/einvoice/documents', toyDocument('DEAD'), { supplier_uuid: toySupplier });
    expect(sent.status).toBe(202);
    deadLettered = sent.body.data.documentId;
    // Both toy documents' reports (this one's and the one the test before sent): the topics are this suite's own.
    const letters = await eventually('the reports dead-lettered', async () => {
      const answer = await operator.get('/v1/operations/dead-letters?replayed=false&limit=100');
      expect(answer.status).toBe(200);
      const found = (answer.body.data as Array<Record<string, unknown>>).filter((l) => l.area === 'toy' && l.type === 'AuthorityReportRequested');
      return found.length >= 2 ? found : undefined;
    });
    for (const letter of letters) {
      expect(letter).toMatchObject({ id: expect.stringMatching(/^\d+:\d+$/), original_topic: `${prefix}.reports`, consumer_group: `${prefix}.reporting-worker`, error_code: 'AUTHORITY.NO_CONNECTOR', attempts: expect.any(Number), replayed_at: null });
    }

    // Every page of the toy documents not final, `limit` a page: each document once, in the same order whatever the page size.
    const walk = async (limit: number): Promise<Array<Record<string, unknown>>> => {
      const seen: Array<Record<string, unknown>> = [];
      for (;;) {
        const after = seen.length ? `&starting_after=${seen[seen.length - 1].id}` : '';
        const page = await operator.get(`/v1/operations/stuck-documents?older_than=0s&area=toy&limit=${limit}${after}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.data);
        if (!page.body.has_more) return seen;
      }
    };
    const stuck = await walk(100);
    expect(stuck).toEqual(expect.arrayContaining([expect.objectContaining({
      id: deadLettered, area: 'toy', state: 'pending', report_state: 'pending', last_event: expect.objectContaining({ type: 'AuthorityReportRequested' }),
    })]));
    expect(new Set(stuck.map((d) => d.id)).size).toBe(stuck.length);
    expect((await walk(1)).map((d) => d.id)).toEqual(stuck.map((d) => d.id));
    expect((await operator.get('/v1/operations/stuck-documents?older_than=1d&area=toy')).body.data.map((d: { id: string }) => d.id)).not.toContain(deadLettered);

    // The fix: a worker with the toy authority; then the replay.
    await worker?.stop();
    worker = startApp('reporting-worker', env());
    await untilWorkersReady(gateway, 'reporting-worker');
    const replays = [];
    for (const letter of letters) {
      const replayed = await operator.post(`/v1/operations/dead-letters/${letter.id}/replay`, undefined);
      expect(replayed.status).toBe(200);
      expect(replayed.body).toEqual({ status: 'success', data: { id: letter.id, replayed: true, replayed_at: expect.any(String), to: `${prefix}.reports` } });
      replays.push(replayed);
    }
    const [letter, replayed] = [letters[0], replays[0]];
    await eventually('the replayed document reported', async () => {
      const document = await tenant.get(`/v1/documents/${deadLettered}`);
      return document.body.data?.status === 'reported' ? document : undefined;
    });
    const again = await operator.post(`/v1/operations/dead-letters/${letter.id}/replay`, undefined);
    expect(again.body.data).toEqual({ id: letter.id, replayed: false, replayed_at: replayed.body.data.replayed_at, to: null });
    const listed = await operator.get('/v1/operations/dead-letters?replayed=true');
    expect(listed.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: letter.id, replayed_at: replayed.body.data.replayed_at })]));
    expect((await operator.post('/v1/operations/dead-letters/0:999999/replay', undefined)).body.errors[0].code).toBe('DLQ.NOT_FOUND');
    expect((await operator.post('/v1/operations/dead-letters/nope/replay', undefined)).status).toBe(404);
  });

  it('lists a parked outbox row and releases it once the topics take it', async () => {
    const onboarded = await tenant.post('/be/einvoice/onboard', seller());
    expect(onboarded.status).toBe(201);
    const submitted = await tenant.post('/be/einvoice/generate/invoice', bigInvoice(`BIG-${run}`), { supplier_uuid: onboarded.body.data.supplier_uuid, transport_mode: 'peppol' });
    expect(submitted.status).toBe(202);
    const row = await eventually('the invoice event parked', async () => {
      const answer = await operator.get('/v1/operations/outbox/parked');
      return (answer.body.data as Array<Record<string, unknown>>).find((r) => r.type === 'DocumentSubmitted');
    });
    expect(row).toMatchObject({ id: expect.stringMatching(/^\d+$/), topic: `${prefix}.documents`, stored_bytes: expect.any(Number), error: expect.any(String), parked_at: expect.any(String) });
    expect((await operator.get(`/v1/operations/outbox/parked?starting_after=${row!.id}`)).body.data.map((r: { id: string }) => r.id)).not.toContain(row!.id);

    expect(runCli(['topics'], env()).status).toBe(0);
    const released = await operator.post(`/v1/operations/outbox/parked/${row!.id}/release`, undefined);
    expect(released.body).toEqual({ status: 'success', data: { released: [row!.id] } });
    const twice = await operator.post(`/v1/operations/outbox/parked/${row!.id}/release`, undefined);
    expect(twice.status).toBe(404);
    expect(twice.body.errors[0].code).toBe('OUTBOX.NOT_PARKED');
    await eventually('the released row published', async () => {
      const [published] = await dataSource.query(`SELECT processed_at FROM outbox WHERE id = $1`, [row!.id]);
      return published.processed_at ? true : undefined;
    });
    expect((await operator.get('/v1/operations/outbox/parked')).body.data.map((r: { id: string }) => r.id)).not.toContain(row!.id);
    expect((await operator.post('/v1/operations/outbox/parked/release', undefined)).body).toEqual({ status: 'success', data: { released: expect.any(Array) } });
  });

  it('shows each worker group\'s lag and the authorities\' error rates per area, as the CLI does', async () => {
    const lag = await operator.get('/v1/operations/consumer-lag');
    expect(lag.status).toBe(200);
    const reporting = lag.body.data.groups.find((g: { group: string }) => g.group === `${prefix}.reporting-worker`);
    expect(reporting).toMatchObject({ state: 'Stable', ready: true, members: 1, lag: expect.any(Number) });
    expect(reporting.partitions).toEqual(expect.arrayContaining([expect.objectContaining({ topic: `${prefix}.reports`, partition: expect.any(Number), lag: expect.any(Number) })]));
    expect(lag.body.data.groups.map((g: { group: string }) => g.group).sort()).toEqual([`${prefix}.delivery-worker`, `${prefix}.reporting-worker`, `${prefix}.webhook-dispatcher`]);

    // One refusal of the toy authority besides the reported documents.
    expect((await tenant.post('/toy/einvoice/documents', toyDocument('REFUSE-1'), { supplier_uuid: toySupplier })).status).toBe(400);
    const rates = await operator.get('/v1/operations/authority-errors?window=1h');
    expect(rates.status).toBe(200);
    expect(rates.body.data).toMatchObject({ window: '1h', since: expect.any(String), until: expect.any(String) });
    const toy = rates.body.data.areas.find((a: { area: string }) => a.area === 'toy');
    expect(toy.reported).toBeGreaterThanOrEqual(1);
    expect(toy.refused).toBeGreaterThanOrEqual(1);
    expect(toy.refused_rate).toBeCloseTo(toy.refused / (toy.reported + toy.refused), 4);
    expect(rates.body.data.areas.map((a: { area: string }) => a.area)).toEqual(expect.arrayContaining(['pl', 'ng', 'jo']));
    expect((await operator.get('/v1/operations/authority-errors?window=1s')).status).toBe(400);

    const cli = runCli(['authority', 'errors', '--window', '1h'], env());
    expect(cli.status).toBe(0);
    const cliToy = cli.stdout.trim().split('\n').map((line) => JSON.parse(line)).find((a: { area: string }) => a.area === 'toy');
    expect(cliToy).toMatchObject({ area: 'toy', reported: expect.any(Number), refused: expect.any(Number) });
    expect(cliToy.reported).toBeGreaterThanOrEqual(toy.reported);
  });

  it('runs the README\'s curl examples of "Operations API" as written: every one answered, none refused for its key or its query', async () => {
    const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Operations API'));
    const script = [...section.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, block]) => block).find((block) => block.includes('/v1/whoami'));
    expect(script).toContain('/v1/operations/');
    const result = await runScript(script as string, { GATEWAY: operator.url, OPERATOR_KEY: operator.apiKey as string });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toContain('"kind":"operator"');
    // The examples' ids (0:17, 4711) are no dead letter or parked row here: a 404, nothing worse.
    expect(result.stdout).not.toMatch(/"status":"(unauthorized|forbidden|bad_request|internal_error|service_unavailable)"/);
  });
});
