import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat, deVat } from '../support/identifiers';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const id = (name: string) => `${name}-${run}`;
const today = new Date().toISOString().slice(0, 10);
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

const beSeller = (vat = beVat()) => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: vat }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
const deSupplier = (vat: string) => ({
  registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: vat }], street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE',
  contact_number: '+49301234567', contact_name: 'Erika Muster', contact_email: 'billing@teile.example',
});
const plSupplier = { registered_name: 'Sprzedawca Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }], street: 'ul. Prosta 1', city: 'Warszawa', postal_code: '00-001', country: 'PL' };
/** The AEAT's test taxpayer (a NIF per run would need a real control letter): runs differ by number. */
const esIssuer = { nif: '89890001K', name: 'Empresa de Pruebas SL' };
const esInvoice = (document_identifier: string) => ({
  document_identifier, issue_date: '2026-11-20', invoice_type: 'F1', description: 'Consulting, November', recipient: { nif: 'B00000000', name: 'Cliente SA' },
  taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }], total_amount: '121.00',
});
/** A buyer hosted at another access point: the sandbox AP delivers to it. */
const remoteBuyer = (vat = beVat()) => ({ RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: vat }] });
/** 21% VAT to a Belgian buyer (96.80); intra-community, 0%, to a buyer in Germany (80). */
const beInvoice = (ID: string, CustomerParty: Record<string, unknown>, IssueDate = '2026-03-15', intraCommunity = false) => ({
  ID, DocumentType: '380', IssueDate, CustomerParty,
  InvoiceLines: [{
    Description: 'Widgets', PriceAmount: 40, InvoicedQuantity: 2,
    TaxType: intraCommunity ? { TaxRate: 0, TaxType: 'intra_community', TaxCountry: 'BE' } : { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' },
  }],
  TotalIncludingVat: intraCommunity ? 80 : 96.8,
});
const plInvoice = (ID: string) => ({
  ID, DocumentType: 'Invoice', IssueDate: '2026-11-25',
  CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
  InvoiceLines: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } }],
  TotalIncludingVat: 246,
});

/**
 * #47 Documents of every area in one list (docs/account-api.md): Belgium and Germany over Peppol (sent,
 * delivered, received here), Poland and Spain reported to the sandbox KSeF and AEAT, each listed with its area and status;
 * the filters; pages walked while documents are added (none skipped or repeated); the detail's timeline
 * and links; another tenant's documents neither listed nor found; bad queries answered 400 in the one shape.
 */
describe('#47 GET /v1/documents: documents of every area in one list', () => {
  let dataSource: DataSource;
  const apps: AppProcess[] = [];
  let client: Client;
  let other: Client;
  let beSupplierId: string;
  /** The sender of the document Germany receives, and the remote buyer: their VAT numbers, the list's counterparty ids (#50). */
  const sellerVat = beVat();
  const remoteBuyerVat = beVat();
  let deSupplierId: string;
  let plSupplierId: string;
  let beRemote: string;
  let beLocal: string;
  let deReceived: string;
  let plReported: string;
  let esParticipant: string;
  let esReported: string;
  let otherDocument: string;

  const submitBe = async (as: Client, supplier: string, body: Record<string, unknown>) => {
    const answer = await as.post('/be/einvoice/generate/invoice', body, { supplier_uuid: supplier });
    expect(answer.status).toBe(202);
    return answer.body.data.DocumentID as string;
  };
  const onboard = async (as: Client, path: string, body: Record<string, unknown>) => {
    const answer = await as.post(path, body);
    expect(answer.status).toBe(201);
    return answer.body.data.supplier_uuid as string;
  };
  const listed = async (query: string) => {
    const answer = await client.get(`/v1/documents${query}`);
    expect(answer.status).toBe(200);
    return answer.body as { status: string; data: Array<Record<string, string>>; has_more: boolean };
  };
  const ids = async (query: string) => (await listed(query)).data.map((d) => d.id);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e account documents');
    const { apiKey: otherKey } = await createTenant(dataSource, 'e2e account documents other');
    const gateway = await startGateway();
    apps.push(gateway.app, startApp('delivery-worker'), startApp('reporting-worker', testEnv({ AUTHORITY_POLL_SWEEP_MS: '100', AUTHORITY_BATCH_SWEEP_MS: '100', KSEF_SANDBOX_LIMITS: '1000/10000/100000', VERIFACTU_SANDBOX_WAIT_S: '1' })));
    client = new Client(gateway.url, apiKey);
    other = new Client(gateway.url, otherKey);

    beSupplierId = await onboard(client, '/be/einvoice/onboard', beSeller(sellerVat));
    const receiverVat = deVat();
    deSupplierId = await onboard(client, '/de/einvoice/onboard', deSupplier(receiverVat));
    plSupplierId = await onboard(client, '/pl/einvoice/onboard', plSupplier);
    const otherSupplier = await onboard(other, '/be/einvoice/onboard', beSeller());

    beRemote = await submitBe(client, beSupplierId, beInvoice(id('BE-REMOTE'), remoteBuyer(remoteBuyerVat), '2026-03-15'));
    const localBuyer = { RegisteredName: 'Berliner Teile GmbH', address: { Street: 'Unter den Linden 1', ZipCode: '10117', City: 'Berlin', Country: 'DE' }, Identifiers: [{ Scheme: 'DE:VAT', ID: receiverVat }] };
    beLocal = await submitBe(client, beSupplierId, beInvoice(id('BE-LOCAL'), localBuyer, '2026-04-01', true));
    const pl = await client.post('/pl/einvoice/generate/invoice', plInvoice(id('FV/1')), { supplier_uuid: plSupplierId, transport_mode: 'ksef' });
    expect(pl.status).toBe(202);
    plReported = pl.body.data.DocumentID;
    const es = await client.post('/es/verifactu/onboard', esIssuer);
    expect(es.status).toBe(201);
    esParticipant = es.body.data.participant_id;
    const record = await client.post('/es/verifactu/generate', esInvoice(id('ES/1')), { 'participant-id': esParticipant });
    expect(record.status).toBe(200);
    esReported = record.body.message.uuid;
    otherDocument = await submitBe(other, otherSupplier, beInvoice(id('OTHER'), remoteBuyer()));

    await eventually('the documents settled', async () => {
      const rows: Array<{ id: string; status: string }> = await dataSource.query(
        `SELECT id, account_document_status(direction, report_state, delivery_status) AS status FROM documents WHERE id = ANY($1::uuid[])`,
        [[beRemote, beLocal, plReported, esReported]],
      );
      const received: Array<{ id: string }> = await dataSource.query(`SELECT id FROM documents WHERE source_document_id = $1`, [beLocal]);
      const settled = rows.length === 4 && rows.every((r) => r.status === ([plReported, esReported].includes(r.id) ? 'reported' : 'delivered')) && received.length === 1;
      if (settled) deReceived = received[0].id;
      return settled ? true : undefined;
    });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  it('lists the documents of Belgium, Germany and Poland, newest first, with their area and status', async () => {
    const page = await listed('');
    expect(page.status).toBe('success');
    expect(page.has_more).toBe(false);
    const byId = new Map(page.data.map((d) => [d.id, d]));
    expect(byId.get(beRemote)).toEqual({
      id: beRemote, area: 'be', supplier_id: beSupplierId, direction: 'outgoing', number: id('BE-REMOTE'), type: expect.any(String), issue_date: '2026-03-15',
      currency: 'EUR', total: '96.8', counterparty: { name: 'Antwerp Buyer BV', id: remoteBuyerVat }, status: 'delivered', authority: { status: 'none' }, exchange: { status: 'delivered' },
      created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/),
    });
    // #50 The counterparty: an outgoing document's buyer; a received one's sender, by its name and VAT number (BT-27, BT-31).
    expect(byId.get(deReceived)).toMatchObject({
      area: 'de', supplier_id: deSupplierId, direction: 'incoming', number: id('BE-LOCAL'), counterparty: { name: 'Brussels Widgets NV', id: sellerVat }, status: 'received', exchange: { status: 'received' },
    });
    expect(byId.get(beLocal)).toMatchObject({ direction: 'outgoing', counterparty: { name: 'Berliner Teile GmbH', id: expect.stringMatching(/^DE/) } });
    expect(byId.get(plReported)).toMatchObject({
      area: 'pl', supplier_id: plSupplierId, number: id('FV/1'), issue_date: '2026-11-25', currency: 'PLN', total: '246', counterparty: { name: 'Nabywca S.A.', id: '1234563218' }, status: 'reported',
      authority: { status: 'reported', reference: expect.stringMatching(/^5260250274-/) }, exchange: { status: 'none' },
    });
    expect(byId.get(esReported)).toMatchObject({
      area: 'es', number: id('ES/1'), issue_date: '2026-11-20', currency: 'EUR', total: '121.00', counterparty: { name: 'Cliente SA', id: 'B00000000' }, status: 'reported',
      authority: { status: 'reported', reference: expect.any(String) }, exchange: { status: 'none' },
    });
    const order = page.data.map((d) => `${d.created_at} ${d.id}`);
    expect(order).toEqual([...order].sort().reverse());
    expect(page.data.map((d) => d.id)).not.toContain(otherDocument);
  });

  it('filters by area, direction, status, supplier, number, issue and creation dates', async () => {
    expect(await ids('?area=pl')).toEqual([plReported]);
    expect(new Set(await ids('?area=es,pl'))).toEqual(new Set([plReported, esReported]));
    expect(new Set(await ids('?area=be,de'))).toEqual(new Set([beRemote, beLocal, deReceived]));
    expect(await ids('?direction=incoming')).toEqual([deReceived]);
    expect(new Set(await ids('?status=reported'))).toEqual(new Set([plReported, esReported]));
    expect(new Set(await ids('?status=delivered'))).toEqual(new Set([beRemote, beLocal]));
    expect(await ids(`?supplier_id=${deSupplierId}`)).toEqual([deReceived]);
    expect(new Set(await ids(`?number=${encodeURIComponent(id('BE-LOCAL'))}`))).toEqual(new Set([beLocal, deReceived]));
    expect(await ids('?issued_from=2026-03-01&issued_to=2026-03-31')).toEqual([beRemote]);
    expect(await ids('?issued_from=2026-11-21')).toEqual([plReported]);
    expect(await ids('?issued_from=2026-11-20&issued_to=2026-11-20')).toEqual([esReported]);
    expect((await ids(`?created_from=${today}&created_to=${today}`)).length).toBe(5);
    expect(await ids(`?created_from=${tomorrow}`)).toEqual([]);
    expect(await ids(`?area=be&direction=outgoing&supplier_id=${beSupplierId}&status=delivered&issued_to=2026-03-31`)).toEqual([beRemote]);
  });

  it('walks the pages while documents are added: none skipped, none repeated', async () => {
    const before = await Promise.all(Array.from({ length: 12 }, (_, i) => submitBe(client, beSupplierId, beInvoice(id(`PAGE-${i}`), remoteBuyer()))));
    const existing = await ids('?limit=100');
    expect(existing).toEqual(expect.arrayContaining(before));
    const walked: string[] = [];
    let cursor: string | undefined;
    let added = 0;
    for (;;) {
      const page = await listed(`?limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(page.data.length).toBeLessThanOrEqual(3);
      walked.push(...page.data.map((d) => d.id));
      if (!page.has_more) break;
      cursor = page.data[page.data.length - 1].id;
      // A document arrives between every two pages (newer than the cursor: it must not shift the walk).
      if (added < 8) await submitBe(client, beSupplierId, beInvoice(id(`LATE-${added++}`), remoteBuyer()));
    }
    expect(added).toBeGreaterThan(0);
    expect(new Set(walked).size).toBe(walked.length);
    // Every document there when the walk began is on exactly one page, in the order of the first read.
    expect(walked.filter((d) => existing.includes(d))).toEqual(existing);
  });

  it('shows one document with its timeline and the links to its area\'s routes', async () => {
    const be = await client.get(`/v1/documents/${beRemote}`);
    expect(be.status).toBe(200);
    expect(be.body.data).toMatchObject({ id: beRemote, area: 'be', status: 'delivered' });
    expect(be.body.data.timeline).toEqual([
      { type: 'accepted', at: expect.any(String), detail: expect.objectContaining({ track: 'exchange' }) },
      { type: 'delivered', at: expect.any(String), detail: expect.objectContaining({ track: 'exchange', mls: expect.objectContaining({ responseCode: 'AP' }) }) },
    ]);
    // #50 Peppol has no cancellation (a credit note corrects an invoice): no `cancel`.
    expect(be.body.data.links).toEqual({ document: `/be/einvoice/get-document/${beRemote}`, xml: `/be/einvoice/get-document/${beRemote}/xml`, supplier_header: 'supplier_uuid',
      pdf: `/v1/documents/${beRemote}/pdf`, html: `/v1/documents/${beRemote}/html`, cancel: null, request: `/v1/documents/${beRemote}/request` });
    // The links work with the supplier header they name.
    expect((await client.get(be.body.data.links.document, { supplier_uuid: beSupplierId })).status).toBe(200);

    const pl = (await client.get(`/v1/documents/${plReported}`)).body.data;
    expect(pl.timeline.map((t: { type: string }) => t.type)).toEqual(['accepted', 'submitted', 'reported']);
    expect(pl.timeline[2].detail).toEqual({ track: 'authority', reference: pl.authority.reference });
    expect(pl.links).toMatchObject({ document: `/pl/einvoice/retrieve/${plReported}`, xml: `/pl/einvoice/retrieve/${plReported}/xml` });
    const ats = pl.timeline.map((t: { at: string }) => t.at);
    expect(ats).toEqual([...ats].sort());

    const es = (await client.get(`/v1/documents/${esReported}`)).body.data;
    expect(es.timeline.map((t: { type: string }) => t.type)).toEqual(['accepted', 'reported']);
    expect(es.links).toEqual({ document: `/es/verifactu/records/${esReported}`, xml: null, supplier_header: 'participant-id',
      pdf: `/v1/documents/${esReported}/pdf`, html: `/v1/documents/${esReported}/html`,
      cancel: { method: 'POST', href: '/es/verifactu/cancel', body: { document_identifier: id('ES/1'), issue_date: '2026-11-20' }, fields: [] },
      request: `/v1/documents/${esReported}/request` });
    const record = await client.get(es.links.document, { 'participant-id': esParticipant });
    expect(record.status).toBe(200);
    expect(es.authority.reference).toBe(record.body.data.aeat_csv);

    const received = (await client.get(`/v1/documents/${deReceived}`)).body.data;
    expect(received.timeline).toEqual([{ type: 'received', at: expect.any(String), detail: expect.objectContaining({ track: 'exchange' }) }]);
    // #50 Received: nothing of this account's to cancel, no request of its own.
    expect(received.links).toMatchObject({ cancel: null, request: null });
  });

  it('another tenant\'s document is not listed and is a 404', async () => {
    const answer = await client.get(`/v1/documents/${otherDocument}`);
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ status: expect.any(String), message: expect.any(String), errors: expect.any(Array) });
    expect((await client.get('/v1/documents/not-a-document')).status).toBe(404);
    expect(await ids('?limit=100')).not.toContain(otherDocument);
    const theirs = await other.get('/v1/documents');
    expect(theirs.body.data.map((d: { id: string }) => d.id)).toEqual([otherDocument]);
    // Their document is no cursor for this tenant.
    const cursor = await client.get(`/v1/documents?starting_after=${otherDocument}`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.errors).toEqual([expect.objectContaining({ path: 'starting_after', code: 'FIELD.INVALID_VALUE' })]);
  });

  it.each([
    ['?area=xx', 'area', 'FIELD.INVALID_VALUE'],
    ['?area=be,fr', 'area', 'FIELD.INVALID_VALUE'],
    ['?issued_from=2026-13-01', 'issued_from', 'FIELD.INVALID_FORMAT'],
    ['?created_to=2026-02-30', 'created_to', 'FIELD.INVALID_FORMAT'],
    ['?issued_from=2026-12-01&issued_to=2026-11-01', 'issued_to', 'FIELD.INVALID_VALUE'],
    ['?limit=0', 'limit', 'FIELD.INVALID_VALUE'],
    ['?limit=101', 'limit', 'FIELD.INVALID_VALUE'],
    ['?starting_after=abc', 'starting_after', 'FIELD.INVALID_FORMAT'],
    ['?direction=sideways', 'direction', 'FIELD.INVALID_VALUE'],
    ['?status=lost', 'status', 'FIELD.INVALID_VALUE'],
    ['?supplier_id=42', 'supplier_id', 'FIELD.INVALID_FORMAT'],
    ['?areas=be', 'areas', 'FIELD.INVALID_VALUE'],
  ])('%s is a 400 at %s', async (query, path, code) => {
    const answer = await client.get(`/v1/documents${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: expect.any(String), message: 'The list query is invalid.' });
    expect(answer.body.errors).toEqual([expect.objectContaining({ path, code, message: expect.any(String), severity: 'error' })]);
  });

  it('is described in the OpenAPI document, with its parameters and examples', async () => {
    const openapi = (await client.get('/docs-json')).body;
    const list = openapi.paths['/v1/documents'].get;
    expect(list.description).toContain('starting_after');
    expect(list.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ['area', 'created_from', 'created_to', 'direction', 'issued_from', 'issued_to', 'limit', 'number', 'starting_after', 'status', 'supplier_id'],
    );
    expect(list.responses['200'].content['application/json'].schema.example.data[0]).toMatchObject({ area: 'be', authority: { status: 'none' } });
    const detail = openapi.paths['/v1/documents/{id}'].get;
    expect(detail.responses['200'].content['application/json'].schema.example.data.timeline).toHaveLength(2);
    expect(detail.responses['404']).toMatchObject({ description: expect.any(String) });
  });

  it('without a key: 401', async () => {
    expect((await client.withKey(undefined).get('/v1/documents')).status).toBe(401);
    expect((await client.withKey(undefined).get(`/v1/documents/${beRemote}/request`)).status).toBe(401);
  });

  it('#50 the request as accepted: the body as sent (Spain\'s with its chain), at the timeline\'s accepted; none for a document received; 404 across accounts', async () => {
    const be = await client.get(`/v1/documents/${beRemote}/request`);
    expect(be.status).toBe(200);
    const accepted = (await client.get(`/v1/documents/${beRemote}`)).body.data.timeline[0];
    // The body as sent, with its area's defaults (a subset match: a default may add a field).
    expect(Object.keys(be.body.data)).toEqual(['document_id', 'accepted_at', 'body']);
    expect(be.body).toMatchObject({ status: 'success', data: { document_id: beRemote, accepted_at: accepted.at, body: beInvoice(id('BE-REMOTE'), remoteBuyer(remoteBuyerVat), '2026-03-15') } });

    const es = await client.get(`/v1/documents/${esReported}/request`);
    expect(es.status).toBe(200);
    // What the service added on accepting it: the chain (its hash, the previous record's, when made), the tax total and the QR's link.
    expect(es.body.data.body).toMatchObject({ ...esInvoice(id('ES/1')), hash: expect.any(String), generated_at: expect.any(String), qr_link: expect.stringContaining('ValidarQR') });
    expect(Object.keys(es.body.data.body).sort()).toEqual([...Object.keys(esInvoice('x')), 'generated_at', 'hash', 'previous_hash', 'qr_link', 'tax_total'].sort());

    const received = await client.get(`/v1/documents/${deReceived}/request`);
    expect({ status: received.status, code: received.body.errors?.[0]?.code }).toEqual({ status: 404, code: 'DOCUMENT.NO_REQUEST' });
    // Another account's document, either way, and an id that is none: the detail's 404.
    for (const [as, documentId] of [[other, beRemote], [client, otherDocument], [client, 'not-a-document']] as const) {
      const answer = await as.get(`/v1/documents/${documentId}/request`);
      expect({ documentId, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ documentId, status: 404, code: 'DOCUMENT.NOT_FOUND' });
    }
    const mine = await other.get(`/v1/documents/${otherDocument}/request`);
    expect(mine.body.data.body).toMatchObject({ ID: id('OTHER') });

    const openapi = (await client.get('/docs-json')).body;
    const route = openapi.paths['/v1/documents/{id}/request'].get;
    expect(route.description).toContain('DOCUMENT.NO_REQUEST');
    expect(route.responses['200'].content['application/json'].schema.example.data.body).toMatchObject({ ID: 'INV-2026-0042' });
  });

  it('#50 cancels the Spanish invoice as its links.cancel says: a cancellation record of its own, itself with no cancel; a second time a 409', async () => {
    const { links } = (await client.get(`/v1/documents/${esReported}`)).body.data;
    const cancel = () => client.post(links.cancel.href, links.cancel.body, { [links.supplier_header]: esParticipant });
    const done = await cancel();
    expect(done.status).toBe(200);
    const record = (await client.get(`/v1/documents/${done.body.message.uuid}`)).body.data;
    expect(record).toMatchObject({ area: 'es', type: 'anulacion', links: { cancel: null, request: `/v1/documents/${record.id}/request` } });
    expect((await client.get(record.links.request)).body.data.body).toMatchObject(links.cancel.body);
    expect((await cancel()).status).toBe(409);
  });
});
