import { rawHttp as rawHttpAt } from '../support/raw-http';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Answer, Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { onboardingBody as myOnboardingBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { AppProcess, startGateway } from '../support/stack';

const buyer = () => ({
  RegisteredName: 'Antwerp Buyer BV',
  address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' },
  Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }],
});
const invoice = (overrides: Record<string, unknown> = {}) => ({
  ID: `INV-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  DocumentType: '380',
  IssueDate: '2026-03-15',
  CustomerParty: buyer(),
  InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
  TotalIncludingVat: 121,
  ...overrides,
});

/** Every error has the one shape, a 4xx status, and names the field and a code. */
function expectError(answer: Answer, status: number, path: string, code: string): void {
  expect({ status: answer.status, path: answer.body?.errors?.[0]?.path, code: answer.body?.errors?.[0]?.code }).toEqual({ status, path, code });
  expect(answer.body).toEqual({ status: expect.any(String), message: expect.any(String), errors: expect.any(Array), request_id: answer.headers.get('x-request-id') });
  expect(answer.body.errors[0]).toEqual({ path, code, message: expect.any(String), severity: 'error' });
}

describe('#2 bad input gets a clear 4xx in the one error shape and stores nothing', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  let other: Client;
  let supplier: string;
  let tenantId: string;

  const storedEvents = async () =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM events WHERE metadata->>'tenantId' = $1`, [tenantId]))[0].n);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const mine = await createTenant(dataSource, 'e2e bad input');
    const theirs = await createTenant(dataSource, 'e2e other tenant');
    tenantId = mine.tenant.id;
    const started = await startGateway({ BODY_LIMIT_BYTES: '65536' });
    gateway = started.app;
    client = new Client(started.url, mine.apiKey);
    other = new Client(started.url, theirs.apiKey);
    const onboarded = await client.post('/be/einvoice/onboard', {
      registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], city: 'Brussels', country: 'BE',
    });
    expect(onboarded.status).toBe(201);
    supplier = onboarded.body.data.supplier_uuid;
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const submit = (body: unknown, headers: Record<string, string> = {}, as: Client = client) =>
    as.post('/be/einvoice/generate/invoice', body, { supplier_uuid: supplier, ...headers });

  describe('each rejected request leaves the event store as it was', () => {
    let before: number;
    beforeEach(async () => {
      before = await storedEvents();
    });
    afterEach(async () => {
      expect(await storedEvents()).toBe(before);
    });

    it('malformed JSON', async () => {
      const answer = await client.request('POST', '/be/einvoice/generate/invoice', { raw: '{"ID": "A",', headers: { supplier_uuid: supplier } });
      expectError(answer, 400, '', 'REQUEST.MALFORMED_JSON');
    });

    it('a body that is not a JSON object', async () => {
      expectError(await submit([1, 2]), 400, '', 'FIELD.INVALID_TYPE');
    });

    it('wrong types: a string where a number belongs, a number where a string belongs', async () => {
      const lines = [{ Description: 'x', PriceAmount: '100', InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }];
      expectError(await submit(invoice({ InvoiceLines: lines })), 400, 'InvoiceLines[0].PriceAmount', 'FIELD.INVALID_TYPE');
      expectError(await submit(invoice({ ID: 12 })), 400, 'ID', 'FIELD.INVALID_TYPE');
    });

    it('missing mandatory fields', async () => {
      const { CustomerParty: _omitted, ...body } = invoice();
      expectError(await submit(body), 400, 'CustomerParty', 'FIELD.REQUIRED');
      const noZip = invoice({ CustomerParty: { ...buyer(), address: { Street: 'Meir 1', City: 'Antwerpen', Country: 'BE' } } });
      expectError(await submit(noZip), 400, 'CustomerParty.address.ZipCode', 'FIELD.REQUIRED');
    });

    it('oversize fields, at the seed limits', async () => {
      expectError(await submit(invoice({ ID: 'x'.repeat(51) })), 400, 'ID', 'FIELD.TOO_LONG');
      const lines = [{ Description: 'd'.repeat(301), PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }];
      expectError(await submit(invoice({ InvoiceLines: lines })), 400, 'InvoiceLines[0].Description', 'FIELD.TOO_LONG');
      const onboarding = await client.post('/be/einvoice/onboard', {
        registered_name: 'n'.repeat(301), identifiers: [{ scheme: 'BE:VAT', id: beVat() }], country: 'BE',
      });
      expectError(onboarding, 400, 'registered_name', 'FIELD.TOO_LONG');
    });

    it('a DocumentType outside the seed table, an impossible date, an unknown currency', async () => {
      expectError(await submit(invoice({ DocumentType: '999' })), 400, 'DocumentType', 'FIELD.INVALID_VALUE');
      expectError(await submit(invoice({ IssueDate: '2026-02-30' })), 400, 'IssueDate', 'FIELD.INVALID_FORMAT');
    });

    it('a total that does not match the lines with VAT names the expected total', async () => {
      const answer = await submit(invoice({ TotalIncludingVat: 121.01 }));
      expectError(answer, 400, 'TotalIncludingVat', 'DOCUMENT.TOTAL_MISMATCH');
      expect(answer.body.errors[0].message).toContain('121.00');
    });

    it('an amount with more digits than a double holds exactly is refused, not rounded', async () => {
      const answer = await client.request('POST', '/be/einvoice/generate/invoice', {
        raw: JSON.stringify(invoice()).replace('"TotalIncludingVat":121', '"TotalIncludingVat":121.000000000000000000001'),
        headers: { supplier_uuid: supplier },
      });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].path).toBe('TotalIncludingVat');
    });

    it('unknown, malformed or missing supplier_uuid', async () => {
      expectError(await submit(invoice(), { supplier_uuid: '00000000-0000-4000-8000-000000000000' }), 404, 'headers.supplier_uuid', 'SUPPLIER.NOT_FOUND');
      expectError(await submit(invoice(), { supplier_uuid: 'not-a-uuid' }), 400, 'headers.supplier_uuid', 'FIELD.INVALID_FORMAT');
      const noHeader = await client.post('/be/einvoice/generate/invoice', invoice());
      expectError(noHeader, 400, 'headers.supplier_uuid', 'FIELD.REQUIRED');
    });

    it('a transport_mode other than peppol', async () => {
      expectError(await submit(invoice(), { transport_mode: 'email' }), 400, 'headers.transport_mode', 'FIELD.INVALID_VALUE');
    });

    it('missing or wrong API key: 401', async () => {
      expectError(await submit(invoice(), {}, client.withKey(undefined)), 401, '', 'AUTH.MISSING_KEY');
      expectError(await submit(invoice(), {}, client.withKey('sk_wrong')), 401, '', 'AUTH.INVALID_KEY');
    });

    it("another tenant's key sees none of this tenant's suppliers: 404", async () => {
      expectError(await submit(invoice(), {}, other), 404, 'headers.supplier_uuid', 'SUPPLIER.NOT_FOUND');
    });

    it('a body over the limit: 413; a body that is not JSON: 415', async () => {
      const big = invoice({ Note: 'x'.repeat(70_000) });
      const answer = await submit(big);
      expect(answer.status).toBe(413);
      expect(answer.body.errors[0].code).toBe('REQUEST.TOO_LARGE');
      const text = await client.request('POST', '/be/einvoice/generate/invoice', { raw: 'hello', headers: { supplier_uuid: supplier, 'content-type': 'text/plain' } });
      expect(text.status).toBe(415);
      expect(text.body.errors[0].code).toBe('REQUEST.UNSUPPORTED_MEDIA_TYPE');
    });

    it('an unknown route: 404 in the same shape', async () => {
      expectError(await client.get('/be/einvoice/nothing-here'), 404, '', 'ROUTE.NOT_FOUND');
    });

    it('a URL that does not decode (the router refuses it before any route): 400 in the same shape', async () => {
      expectError(await client.get('/api/einvoice/received/%00%ff/rejection', { supplier_uuid: supplier }), 400, '', 'REQUEST.BAD_URL');
    });
  });

  it("another tenant's document is a 404, never visible", async () => {
    const created = await submit(invoice());
    expect(created.status).toBe(202);
    const documentId = created.body.data.DocumentID;
    expectError(await other.get(`/be/einvoice/get-document/${documentId}`, { supplier_uuid: supplier }), 404, 'headers.supplier_uuid', 'SUPPLIER.NOT_FOUND');
    expectError(await client.get('/be/einvoice/get-document/00000000-0000-4000-8000-000000000000', { supplier_uuid: supplier }), 404, '', 'DOCUMENT.NOT_FOUND');
  });

  it('a duplicate ID of the same supplier is a 409 that names ID, and creates nothing', async () => {
    const body = invoice();
    expect((await submit(body)).status).toBe(202);
    const before = await storedEvents();
    expectError(await submit({ ...body, TotalIncludingVat: 121 }), 409, 'ID', 'DOCUMENT.DUPLICATE_ID');
    expect(await storedEvents()).toBe(before);
  });

  describe('Idempotency-Key', () => {
    it('the same key and body replays the first answer and creates one document', async () => {
      const body = invoice();
      const key = `key-${Date.now()}`;
      const first = await submit(body, { 'Idempotency-Key': key });
      const again = await Promise.all([submit(body, { 'Idempotency-Key': key }), submit(body, { 'Idempotency-Key': key })]);
      expect(first.status).toBe(202);
      for (const answer of again) {
        expect(answer.status).toBe(202);
        expect(answer.body).toEqual(first.body);
        expect(answer.headers.get('idempotent-replayed')).toBe('true');
      }
      const rows = await dataSource.query(`SELECT count(*) AS n FROM documents WHERE supplier_id = $1 AND document_number = $2`, [supplier, body.ID]);
      expect(Number(rows[0].n)).toBe(1);
    });

    it('concurrent first requests with one key create one document', async () => {
      const body = invoice();
      const key = `race-${Date.now()}`;
      const answers = await Promise.all(Array.from({ length: 5 }, () => submit(body, { 'Idempotency-Key': key })));
      // The losers wait for the winner's commit and replay its answer.
      expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
      expect(new Set(answers.map((a) => a.body.data.DocumentID)).size).toBe(1);
      const rows = await dataSource.query(`SELECT count(*) AS n FROM documents WHERE supplier_id = $1 AND document_number = $2`, [supplier, body.ID]);
      expect(Number(rows[0].n)).toBe(1);
    });

    it('#9 stores a keyed digest of the request, not one anyone can recompute from a guessed body', async () => {
      const key = `digest-${Date.now()}`;
      expect((await submit(invoice(), { 'Idempotency-Key': key })).status).toBe(202);
      const [row] = await dataSource.query(`SELECT request_hash FROM idempotency_keys WHERE key = $1`, [key]);
      expect(row.request_hash).toMatch(/^v2:[0-9a-f]{64}$/);
    });

    it('the same key with another body is a 409', async () => {
      const key = `reuse-${Date.now()}`;
      expect((await submit(invoice(), { 'Idempotency-Key': key })).status).toBe(202);
      expectError(await submit(invoice(), { 'Idempotency-Key': key }), 409, '', 'IDEMPOTENCY.KEY_REUSED');
    });
  });

  it('#9 a TIN the (sandbox) authority refuses at login is a 400 naming tin_number, not a bare MYINVOIS.FORBIDDEN', async () => {
    const answer = await client.post('/api/einvoice/onboard', myOnboardingBody({ tin_number: 'C1234567890120' }));
    expectError(answer, 400, 'tin_number', 'MYINVOIS.FORBIDDEN');
    expect(answer.body.errors[0].message).toContain('12 digits');
  });

  it('#9 a deleted tenant\'s key stops working at once, though the gateway had it cached', async () => {
    const doomed = await createTenant(dataSource, 'e2e doomed tenant');
    const theirs = client.withKey(doomed.apiKey);
    const onboard = (headers: Record<string, string> = {}) =>
      theirs.post('/be/einvoice/onboard', { registered_name: 'Gone NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], country: 'BE' }, headers);
    expect((await onboard()).status).toBe(201);
    const suppliersOf = async () => Number((await dataSource.query(`SELECT count(*) AS n FROM suppliers WHERE tenant_id = $1`, [doomed.tenant.id]))[0].n);
    await dataSource.query(`DELETE FROM tenants WHERE id = $1`, [doomed.tenant.id]);
    // The revocation is announced at commit; the listener hears it within milliseconds.
    let answer = await onboard({ 'Idempotency-Key': `gone-${Date.now()}` });
    for (let tries = 0; answer.status !== 401 && tries < 20; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await onboard({ 'Idempotency-Key': `gone-${Date.now()}-${tries}` });
    }
    expectError(answer, 401, '', 'AUTH.INVALID_KEY');
    expectError(await onboard(), 401, '', 'AUTH.INVALID_KEY');
    // Only the supplier onboarded while the tenant existed.
    expect(await suppliersOf()).toBe(1);
  });

  /** Sends bytes as they are (no client library would send these) and reads the answer. */
  const rawHttp = (request: string | Buffer) => rawHttpAt(client.url, request);

  it('#9 what the HTTP parser refuses is answered in the one error shape', async () => {
    const key = client.apiKey as string;
    const cases: Array<[string, string | Buffer, number, string]> = [
      ['a control byte in a header', `GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n`, 400, 'REQUEST.MALFORMED_HTTP'],
      ['a raw space in the path', `GET /be/einvoice/get document HTTP/1.1\r\nHost: x\r\n\r\n`, 400, 'REQUEST.MALFORMED_HTTP'],
      ['Content-Length with chunked', `POST /be/einvoice/onboard HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`, 400, 'REQUEST.INVALID_CONTENT_LENGTH'],
      ['a bad Content-Length', `POST /be/einvoice/onboard HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n`, 400, 'REQUEST.INVALID_CONTENT_LENGTH'],
      ['a 20 k query string', `GET /health?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nx-svc-auth-key: ${key}\r\n\r\n`, 431, 'REQUEST.HEADERS_TOO_LARGE'],
    ];
    for (const [what, request, status, code] of cases) {
      const answer = await rawHttp(request);
      expect({ what, status: answer.status, body: answer.body }).toEqual({
        what, status, body: { status: expect.any(String), message: expect.any(String), errors: [expect.objectContaining({ code, path: '', severity: 'error' })], request_id: expect.any(String) },
      });
    }
  });

  it('#9 a body over the limit on a GET is answered 413, not a closed connection', async () => {
    const body = Buffer.alloc(5 * 1024 * 1024, 'a');
    const head = `GET /be/einvoice/get-document/00000000-0000-4000-8000-000000000000 HTTP/1.1\r\nHost: x\r\nx-svc-auth-key: ${client.apiKey}\r\nsupplier_uuid: ${supplier}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
    const answer = await rawHttp(Buffer.concat([Buffer.from(head), body]));
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ errors: [expect.objectContaining({ code: 'REQUEST.TOO_LARGE' })] });
  });
});
