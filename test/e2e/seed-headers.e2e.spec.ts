import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { AppProcess, startGateway } from '../support/stack';

const invoice = () => ({
  ID: `HDR-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
  DocumentType: '380',
  IssueDate: '2026-03-15',
  CustomerParty: { RegisteredName: 'Gent Buyer BV', address: { Street: 'Veldstraat 1', ZipCode: '9000', City: 'Gent', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] },
  InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
  TotalIncludingVat: 121,
});

/**
 * #44 seed contract gaps, item 2: every error names the header its route takes (seed 002: Jordan,
 * Spain and Nigeria name the supplier by `participant-id`), and a header the seeds spell with an
 * underscore also answers to its hyphenated form (nginx drops underscored headers by default).
 */
describe('#44 seed headers: errors name the route\'s own header; underscored headers also hyphenated', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  let supplier: string;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e seed headers');
    const started = await startGateway();
    gateway = started.app;
    client = new Client(started.url, apiKey);
    const onboarded = await client.post('/be/einvoice/onboard', { registered_name: 'Hyphen NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], city: 'Gent', country: 'BE' });
    expect(onboarded.status).toBe(201);
    supplier = onboarded.body.data.supplier_uuid;
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it.each(['/jo/einvoice/generate', '/es/verifactu/generate', '/api/invoice/generate'])(
    '%s without participant-id: 400 whose message and path name participant-id, also when supplier_uuid is sent instead',
    async (route) => {
      for (const headers of [{}, { supplier_uuid: supplier }] as Array<Record<string, string>>) {
        const answer = await client.post(route, {}, headers);
        expect(answer.status).toBe(400);
        expect(answer.body.message).toContain('participant-id');
        expect(answer.body.message).not.toContain('supplier_uuid');
        expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'headers.participant-id', code: 'FIELD.REQUIRED', message: expect.stringContaining('participant-id') })]);
      }
    },
  );

  it('a malformed participant-id is a 400 at headers.participant-id', async () => {
    const answer = await client.post('/es/verifactu/generate', {}, { 'participant-id': 'not-a-uuid' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'headers.participant-id', code: 'FIELD.INVALID_FORMAT' })]);
  });

  it('supplier-uuid and transport-mode (hyphenated) work on a Belgian submission and its reads', async () => {
    const answer = await client.post('/be/einvoice/generate/invoice', invoice(), { 'supplier-uuid': supplier, 'transport-mode': 'peppol' });
    expect(answer.status).toBe(202);
    const documentId = answer.body.data.DocumentID;
    const read = await client.get(`/be/einvoice/get-document/${documentId}`, { 'supplier-uuid': supplier });
    expect(read.status).toBe(200);
    expect(read.body.data.uuid).toBe(documentId);
    expect((await client.get(`/be/einvoice/delivery-status/${documentId}`, { 'supplier-uuid': supplier })).status).toBe(200);
    // transport-mode is read, not ignored: a value other than peppol is refused at the seed's name.
    const email = await client.post('/be/einvoice/generate/invoice', invoice(), { 'supplier-uuid': supplier, 'transport-mode': 'email' });
    expect(email.status).toBe(400);
    expect(email.body.errors).toEqual([expect.objectContaining({ path: 'headers.transport_mode', code: 'FIELD.INVALID_VALUE' })]);
  });

  it('the OpenAPI document names the hyphenated form of every underscored header, and Poland\'s reads take supplier_uuid as optional', async () => {
    const paths = (await client.get('/docs-json')).body.paths;
    const header = (path: string, method: string, name: string) =>
      (paths[path][method].parameters as Array<{ in: string; name: string; required?: boolean; description?: string }>).find((p) => p.in === 'header' && p.name === name);
    expect(header('/be/einvoice/generate/invoice', 'post', 'supplier_uuid')?.description).toContain('`supplier-uuid`');
    expect(header('/be/einvoice/generate/invoice', 'post', 'transport_mode')?.description).toContain('`transport-mode`');
    expect(header('/jo/einvoice/generate', 'post', 'participant-id')?.description ?? '').not.toContain('Also accepted');
    expect(header('/pl/einvoice/status/{document_id}', 'get', 'supplier_uuid')).toMatchObject({ required: false, description: expect.stringContaining('`supplier-uuid`') });
  });

  it('both forms with different values: 400 naming both; with the same value: accepted', async () => {
    const other = '00000000-0000-4000-8000-000000000000';
    const both = await client.post('/be/einvoice/generate/invoice', invoice(), { supplier_uuid: supplier, 'supplier-uuid': other });
    expect(both.status).toBe(400);
    expect(both.body.message).toContain('supplier_uuid');
    expect(both.body.message).toContain('supplier-uuid');
    expect(both.body.errors).toEqual([expect.objectContaining({ path: 'headers.supplier_uuid', code: 'HEADER.CONFLICT' }), expect.objectContaining({ path: 'headers.supplier-uuid', code: 'HEADER.CONFLICT' })]);
    const modes = await client.post('/be/einvoice/generate/invoice', invoice(), { supplier_uuid: supplier, transport_mode: 'peppol', 'transport-mode': 'email' });
    expect(modes.status).toBe(400);
    expect(modes.body.errors.map((e: { path: string }) => e.path)).toEqual(['headers.transport_mode', 'headers.transport-mode']);
    const same = await client.post('/be/einvoice/generate/invoice', invoice(), { supplier_uuid: supplier, 'supplier-uuid': supplier });
    expect(same.status).toBe(202);
  });
});
