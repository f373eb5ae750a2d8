import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { capturedMails } from '@einvoice/domain/infrastructure';
import { type CaptureMailbox, startCaptureMailbox } from '@einvoice/domain/mail-capture';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { isKsefNumber } from '../../libs/areas/src/ksef/ksef-number';
import { fa3Oracle } from '../../libs/areas/src/ksef/testing/fa3-oracle';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const id = (name: string) => `${name}-${run}`;
const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100', KSEF_SANDBOX_LIMITS: '1000/10000/100000' });
const onboarding = { registered_name: 'Sprzedawca Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }], street: 'ul. Prosta 1', city: 'Warszawa', postal_code: '00-001', country: 'PL' };
const invoice = (ID: string, extra: Record<string, unknown> = {}) => ({
  ID,
  DocumentType: 'Invoice',
  IssueDate: '2026-11-25',
  CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
  InvoiceLines: [
    { Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } },
    { Description: 'Książka', PriceAmount: 40, TaxType: { TaxRate: 5, TaxType: 'reduced', TaxCountry: 'PL' } },
  ],
  TotalIncludingVat: 288,
  ...extra,
});

/**
 * #13 Poland over HTTP with the apps: onboarding, invoices and corrections rendered as FA(3) and sent to
 * the sandbox KSeF by the reporting worker, Submitted → Accepted with a KSeF number (or Rejected with
 * KSeF's reason), retrieve with the verification link, the XML as sent (XSD-valid), bad input → 400 at
 * the field, a duplicate → 409, another tenant → 404.
 */
describe('#13 Poland: KSeF invoices over HTTP', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess | undefined;
  let delivery: AppProcess | undefined;
  let client: Client;
  let other: Client;
  let anonymous: Client;
  let mailbox: CaptureMailbox;
  const mailFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'einvoice-mail-')), 'captured.jsonl');
  let supplier: string;
  const headers = (extra: Record<string, string> = {}) => ({ supplier_uuid: supplier, transport_mode: 'ksef', ...extra });

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e ksef');
    const { apiKey: otherKey } = await createTenant(dataSource, 'e2e ksef other');
    // Real SMTP into a capture mailbox, as `npm start` runs without SMTP_URL.
    mailbox = await startCaptureMailbox({ port: 0, file: mailFile });
    const started = await startGateway({ SMTP_URL: mailbox.url });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    other = new Client(started.url, otherKey);
    anonymous = new Client(started.url);
    worker = startApp('reporting-worker', workerEnv);
    delivery = startApp('delivery-worker');
    const onboarded = await client.post('/pl/einvoice/onboard', onboarding);
    expect(onboarded.status).toBe(201);
    supplier = onboarded.body.data.supplier_uuid;
  });

  afterAll(async () => {
    await worker?.stop();
    await delivery?.stop();
    await gateway?.stop();
    await mailbox?.stop();
    await dataSource?.destroy();
  });

  const status = async (documentId: string) => (await client.get(`/pl/einvoice/status/${documentId}`, headers())).body.data;
  const settled = (documentId: string) =>
    eventually(`KSeF's verdict on ${documentId}`, async () => {
      const s = await status(documentId);
      return s.Status === 'Submitted' ? undefined : s;
    });

  it('refuses a NIP whose check digit is wrong, at the identifier', async () => {
    const answer = await client.post('/pl/einvoice/onboard', { ...onboarding, identifiers: [{ scheme: 'PL:NIP', id: '5260250275' }] });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'identifiers[0].id', code: 'KSEF.NIP' })]);
  });

  it('answers Submitted at once; KSeF accepts with a KSeF number; retrieve and the XML as sent', async () => {
    const key = { 'Idempotency-Key': id('key-FV/1') };
    const answer = await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/1')), headers(key));
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ status: 'success', data: { DocumentID: expect.any(String), Status: 'Submitted' } });
    // A retry with its Idempotency-Key answers the first answer again (#45: it was the pipeline's generic pending body).
    const replay = await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/1')), headers(key));
    expect([replay.status, replay.body]).toEqual([202, answer.body]);
    const documentId = answer.body.data.DocumentID;
    const verdict = await settled(documentId);
    expect(verdict.Status).toBe('Accepted');
    expect(isKsefNumber(verdict.KsefNumber)).toBe(true);
    expect(verdict.KsefNumber.startsWith('5260250274-')).toBe(true);

    const retrieved = (await client.get(`/pl/einvoice/retrieve/${documentId}`, headers())).body.data;
    expect(retrieved).toMatchObject({ DocumentID: documentId, ID: id('FV/1'), IssueDate: '2026-11-25', TotalIncludingVat: 288, Status: 'Accepted', KsefNumber: verdict.KsefNumber, CustomerParty: { RegisteredName: 'Nabywca S.A.' } });
    const xml = await client.get(`/pl/einvoice/retrieve/${documentId}/xml`, headers());
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toContain('application/xml');
    expect((await fa3Oracle(xml.body)).valid).toBe(true);
    const hash = createHash('sha256').update(xml.body, 'utf8').digest('base64url');
    expect(retrieved.QrLink).toBe(`https://qr-test.ksef.mf.gov.pl/invoice/5260250274/25-11-2026/${hash}`);
  });

  it('a correction names the corrected invoice and its KSeF number, and is accepted too', async () => {
    const first = (await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/2')), headers())).body.data.DocumentID;
    const { KsefNumber } = await settled(first);
    const correction = await client.post('/pl/einvoice/generate/invoice', invoice(id('KOR/1'), {
      DocumentType: 'CorrectionInvoice', CorrectedInvoice: { ID: id('FV/2'), KsefNumber, IssueDate: '2026-11-25' }, CorrectionReason: 'Błędna cena',
    }), headers());
    expect(correction.status).toBe(202);
    expect((await settled(correction.body.data.DocumentID)).Status).toBe('Accepted');
    const xml = (await client.get(`/pl/einvoice/retrieve/${correction.body.data.DocumentID}/xml`, headers())).body;
    expect(xml).toContain('<RodzajFaktury>KOR</RodzajFaktury>');
    expect(xml).toContain(`<NrKSeFFaKorygowanej>${KsefNumber}</NrKSeFFaKorygowanej>`);
  });

  it('transport_mode peppol: once KSeF accepts, a BIS 3.0 copy is Delivered to the Belgian buyer hosted here; a rejected invoice\'s copy is withheld', async () => {
    const vat = beVat();
    const buyer = await client.post('/be/einvoice/onboard', { registered_name: 'Koper NV', identifiers: [{ scheme: 'BE:VAT', id: vat }], street: 'Kerkstraat 1', city: 'Brussel', country: 'BE' });
    expect(buyer.status).toBe(201);
    const receiver = buyer.body.data.supplier_uuid;
    const CustomerParty = { RegisteredName: 'Koper NV', address: { Street: 'Kerkstraat 1', ZipCode: '1000', City: 'Brussel', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: vat }] };
    const body = invoice(id('FV/PEPPOL'), { CustomerParty, InvoiceLines: [{ Description: 'Maszyna', PriceAmount: 500, InvoicedQuantity: 2, TaxType: { TaxRate: 0, TaxType: 'intra_eu', TaxCountry: 'PL' } }], TotalIncludingVat: 1000 });
    const answer = await client.post('/pl/einvoice/generate/invoice', body, headers({ transport_mode: 'peppol' }));
    expect(answer.status).toBe(202);
    const documentId = answer.body.data.DocumentID;
    const delivered = await eventually('the Peppol copy Delivered', async () => {
      const s = await status(documentId);
      return s.Peppol?.DeliveryStatus === 'Delivered' ? s : undefined;
    });
    expect(delivered).toMatchObject({ Status: 'Accepted', KsefNumber: expect.any(String), Peppol: { DeliveryStatus: 'Delivered' } });
    // The buyer's side: one received BIS 3.0 document; the seller's FA(3) as sent to KSeF is unchanged.
    const received = await dataSource.query(`SELECT d.id, e.data->>'xml' AS xml FROM documents d JOIN events e ON e.stream_id = 'document-' || d.id AND e.stream_position = 1 WHERE d.supplier_id = $1 AND d.direction = 'incoming' AND d.source_document_id = $2`, [receiver, documentId]);
    expect(received).toHaveLength(1);
    expect(received[0].xml).toContain('<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>');
    expect(received[0].xml).toContain('<cbc:EndpointID schemeID="9945">PL5260250274</cbc:EndpointID>');
    expect(received[0].xml).toContain('<cbc:ID>K</cbc:ID>');
    const fa3 = await client.get(`/pl/einvoice/retrieve/${documentId}/xml`, headers());
    expect((await fa3Oracle(fa3.body)).valid).toBe(true);
    expect(await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [`document-${documentId}`])).toEqual([{ type: 'DocumentSubmitted' }, { type: 'DocumentDelivered' }]);

    const refused = await client.post('/pl/einvoice/generate/invoice', { ...body, ID: id('KSEF-REJECT-PEPPOL') }, headers({ transport_mode: 'peppol' }));
    const verdict = await settled(refused.body.data.DocumentID);
    expect(verdict).toMatchObject({ Status: 'Rejected', Peppol: { DeliveryStatus: 'Withheld' } });
    expect(await dataSource.query(`SELECT type FROM events WHERE stream_id = $1`, [`document-${refused.body.data.DocumentID}`])).toEqual([]);

    const noPeppolId = await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/NOPEPPOL'), { CustomerParty: { ...CustomerParty, Identifiers: [{ Scheme: 'XX:NONE', ID: '1' }] } }), headers({ transport_mode: 'peppol' }));
    expect(noPeppolId.status).toBe(400);
    expect(noPeppolId.body.errors).toEqual([expect.objectContaining({ path: 'CustomerParty.Identifiers[0]', code: 'KSEF.PEPPOL_RECEIVER' })]);
  });

  it('an access code goes by real SMTP; its link opens the invoice and its XML without an API key, until it is used up', async () => {
    const documentId = (await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/SHARE')), headers())).body.data.DocumentID;
    await settled(documentId);
    const sent = await client.post('/pl/einvoice/access-code/send', { document_id: documentId, recipient_email: 'buyer@example.com' }, { supplier_uuid: supplier });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: 'success', message: expect.stringContaining('buyer@example.com') });
    const mail = await eventually('the mail in the capture mailbox', async () => capturedMails(mailFile).find((m) => m.to === 'buyer@example.com' && m.text.includes(id('FV/SHARE'))));
    expect(mail.link).toMatch(/\/pl\/einvoice\/shared\/[\w-]{32}$/);
    const code = String(mail.link).split('/').pop() as string;
    expect(mail.text).toContain(`Access code: ${code}`);

    const shared = await anonymous.get(`/pl/einvoice/shared/${code}`);
    expect(shared.status).toBe(200);
    expect(shared.body.data).toMatchObject({ DocumentID: documentId, ID: id('FV/SHARE'), Status: 'Accepted' });
    const xml = await anonymous.get(`/pl/einvoice/shared/${code}/xml`);
    expect(xml.status).toBe(200);
    expect((await fa3Oracle(xml.body)).valid).toBe(true);
    // Only the code's hash is kept.
    const stored = await dataSource.query(`SELECT code_hash FROM document_shares WHERE document_id = $1`, [documentId]);
    expect(stored).toEqual([{ code_hash: createHash('sha256').update(code).digest('hex') }]);

    expect((await anonymous.get(`/pl/einvoice/shared/${code}x`)).status).toBe(404);
    // Used up 15 minutes after its first use; expired after its lifetime.
    await dataSource.query(`UPDATE document_shares SET first_used_at = now() - interval '16 minutes' WHERE document_id = $1`, [documentId]);
    expect((await anonymous.get(`/pl/einvoice/shared/${code}`)).status).toBe(404);
  });

  it('refuses an access code for a bad e-mail (400 at the field) or another tenant\'s invoice (404)', async () => {
    const documentId = (await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/SHARE2')), headers())).body.data.DocumentID;
    const bad = await client.post('/pl/einvoice/access-code/send', { document_id: documentId, recipient_email: 'not-an-address' }, { supplier_uuid: supplier });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'recipient_email' })]);
    const foreign = await other.post('/pl/einvoice/access-code/send', { document_id: documentId, recipient_email: 'x@example.com' }, { supplier_uuid: supplier });
    expect(foreign.status).toBe(404);
  });

  it('#44 status, retrieve (and its XML) and access-code/send take only x-svc-auth-key (seed 002); another tenant\'s or an unknown id: 404', async () => {
    const documentId = (await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/KEYONLY')), headers())).body.data.DocumentID;
    await settled(documentId);
    const read = await client.get(`/pl/einvoice/status/${documentId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ DocumentID: documentId, Status: 'Accepted' });
    const retrieved = await client.get(`/pl/einvoice/retrieve/${documentId}`);
    expect(retrieved.status).toBe(200);
    expect(retrieved.body.data).toMatchObject({ DocumentID: documentId, ID: id('FV/KEYONLY') });
    const xml = await client.get(`/pl/einvoice/retrieve/${documentId}/xml`);
    expect(xml.status).toBe(200);
    expect((await fa3Oracle(xml.body)).valid).toBe(true);
    const sent = await client.post('/pl/einvoice/access-code/send', { document_id: documentId, recipient_email: 'key-only@example.com' });
    expect(sent.status).toBe(200);

    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const route of [`/pl/einvoice/status/${documentId}`, `/pl/einvoice/retrieve/${documentId}`, `/pl/einvoice/retrieve/${documentId}/xml`]) {
      expect([route, (await other.get(route)).status]).toEqual([route, 404]);
      expect([route, (await client.get(route.replace(documentId, unknown))).body.errors]).toEqual([route, [expect.objectContaining({ code: 'DOCUMENT.NOT_FOUND' })]]);
    }
    expect((await other.post('/pl/einvoice/access-code/send', { document_id: documentId, recipient_email: 'x@example.com' })).status).toBe(404);
    expect((await client.post('/pl/einvoice/access-code/send', { document_id: unknown, recipient_email: 'x@example.com' })).status).toBe(404);
  });

  it('#44 a supplier_uuid sent on those routes must be the document\'s supplier: another supplier of the tenant gets a 404', async () => {
    const documentId = (await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/MATCH')), headers())).body.data.DocumentID;
    const second = await client.post('/pl/einvoice/onboard', { ...onboarding, registered_name: 'Inny Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '1234563218' }] });
    expect(second.status).toBe(201);
    const stranger = second.body.data.supplier_uuid;
    for (const route of [`/pl/einvoice/status/${documentId}`, `/pl/einvoice/retrieve/${documentId}`, `/pl/einvoice/retrieve/${documentId}/xml`]) {
      expect([route, (await client.get(route, { supplier_uuid: supplier })).status]).toEqual([route, 200]);
      expect([route, (await client.get(route, { 'supplier-uuid': supplier })).status]).toEqual([route, 200]);
      expect([route, (await client.get(route, { supplier_uuid: stranger })).body.errors]).toEqual([route, [expect.objectContaining({ code: 'DOCUMENT.NOT_FOUND' })]]);
    }
    const share = await client.post('/pl/einvoice/access-code/send', { document_id: documentId, recipient_email: 'x@example.com' }, { supplier_uuid: stranger });
    expect(share.status).toBe(404);
  });

  it('a rejection by KSeF shows as Rejected with its reason', async () => {
    const answer = await client.post('/pl/einvoice/generate/invoice', invoice(id('KSEF-REJECT-1')), headers());
    const verdict = await settled(answer.body.data.DocumentID);
    expect(verdict).toMatchObject({ Status: 'Rejected', Reason: { code: '450' } });
  });

  it('answers 400 at the field for bad input, 409 for an ID used already, 404 to another tenant', async () => {
    const noMode = await client.post('/pl/einvoice/generate/invoice', invoice(id('X/1')), { supplier_uuid: supplier });
    expect(noMode.body.errors).toEqual([expect.objectContaining({ path: 'headers.transport_mode' })]);
    const rate = await client.post('/pl/einvoice/generate/invoice', invoice(id('X/2'), { InvoiceLines: [{ Description: 'x', PriceAmount: 10, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'PL' } }], TotalIncludingVat: 12.1 }), headers());
    expect(rate.body.errors).toEqual([expect.objectContaining({ path: 'InvoiceLines[0].TaxType.TaxRate', code: 'KSEF.TAX_RATE', message: expect.stringContaining('23') })]);
    const total = await client.post('/pl/einvoice/generate/invoice', invoice(id('X/3'), { TotalIncludingVat: 300 }), headers());
    expect(total.body.errors).toEqual([expect.objectContaining({ path: 'TotalIncludingVat', message: expect.stringContaining('288.00') })]);
    const longId = await client.post('/pl/einvoice/generate/invoice', invoice('X'.repeat(51)), headers());
    expect(longId.body.errors).toEqual([expect.objectContaining({ path: 'ID' })]);
    const noCorrected = await client.post('/pl/einvoice/generate/invoice', invoice(id('X/4'), { DocumentType: 'CorrectionInvoice' }), headers());
    expect(noCorrected.body.errors.map((e: { path: string }) => e.path)).toEqual(['CorrectedInvoice', 'CorrectionReason']);
    const again = await client.post('/pl/einvoice/generate/invoice', invoice(id('FV/1')), headers());
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([expect.objectContaining({ path: 'ID', code: 'DOCUMENT.DUPLICATE_ID' })]);
    const [row] = await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1 LIMIT 1`, [supplier]);
    expect((await other.get(`/pl/einvoice/status/${row.id}`, { supplier_uuid: supplier })).status).toBe(404);
  });

  it('every length limit and field rule of the seed\'s invoice table: 400 naming the field', async () => {
    const base = invoice(id('LEN/1'));
    const customer = base.CustomerParty;
    const line = base.InvoiceLines[0];
    const cases: Array<[string, Record<string, unknown>]> = [
      ['ID', { ID: 'X'.repeat(51) }],
      ['DocumentType', { DocumentType: 'Proforma' }],
      ['IssueDate', { IssueDate: '25-11-2026' }],
      ['DocumentCurrencyCode', { DocumentCurrencyCode: 'PLNX' }],
      ['CustomerParty.RegisteredName', { CustomerParty: { ...customer, RegisteredName: 'N'.repeat(301) } }],
      ['CustomerParty.address.Street', { CustomerParty: { ...customer, address: { ...customer.address, Street: 'S'.repeat(151) } } }],
      ['CustomerParty.address.ZipCode', { CustomerParty: { ...customer, address: { ...customer.address, ZipCode: '0'.repeat(11) } } }],
      ['CustomerParty.address.City', { CustomerParty: { ...customer, address: { ...customer.address, City: 'C'.repeat(51) } } }],
      ['CustomerParty.address.Country', { CustomerParty: { ...customer, address: { ...customer.address, Country: 'POL' } } }],
      ['CustomerParty.Identifiers[0].ID', { CustomerParty: { ...customer, Identifiers: [{ Scheme: 'PL:NIP', ID: '1'.repeat(51) }] } }],
      ['CustomerParty.Identifiers', { CustomerParty: { ...customer, Identifiers: [] } }],
      ['InvoiceLines[0].Description', { InvoiceLines: [{ ...line, Description: 'D'.repeat(301) }] }],
      ['InvoiceLines[0].PriceAmount', { InvoiceLines: [{ ...line, PriceAmount: '100' }] }],
      ['InvoiceLines[0].TaxType.TaxType', { InvoiceLines: [{ ...line, TaxType: { ...line.TaxType, TaxType: 'luxury' } }] }],
      ['InvoiceLines[0].TaxType.TaxCountry', { InvoiceLines: [{ ...line, TaxType: { ...line.TaxType, TaxCountry: 'DE' } }] }],
      ['InvoiceLines', { InvoiceLines: [] }],
      ['TotalIncludingVat', { TotalIncludingVat: undefined }],
    ];
    for (const [path, change] of cases) {
      const answer = await client.post('/pl/einvoice/generate/invoice', { ...base, ...change }, headers());
      expect([path, answer.status]).toEqual([path, 400]);
      expect([path, answer.body.errors.map((e: { path: string }) => e.path)]).toEqual([path, expect.arrayContaining([path])]);
    }
    expect(await dataSource.query(`SELECT 1 FROM documents WHERE supplier_id = $1 AND document_number = $2`, [supplier, id('LEN/1')])).toEqual([]);
  });

  it('a worker killed (kill -9) after KSeF took an invoice: the next one finds it by its hash, and each invoice is in KSeF once', async () => {
    await worker?.stop();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await client.post('/pl/einvoice/generate/invoice', invoice(id(`K/${i}`)), headers())).body.data.DocumentID);
    // KSeF answers 4 s after taking an invoice: the worker is killed in that window.
    const slow = startApp('reporting-worker', { ...workerEnv, KSEF_SANDBOX_ANSWER_DELAY_MS: '4000' });
    worker = slow;
    await eventually('KSeF holds a first invoice', async () => {
      const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM ksef_sandbox_invoices WHERE number LIKE $1`, [`K/%-${run}`]);
      return row.n > 0 ? true : undefined;
    });
    await slow.crash();
    worker = startApp('reporting-worker', workerEnv);
    const verdicts = await Promise.all(ids.map(settled));
    // A second send would have met KSeF's duplicate check (440) and shown Rejected.
    expect(verdicts.map((v) => v.Status)).toEqual(['Accepted', 'Accepted', 'Accepted']);
    const rows: Array<{ number: string; n: number }> = await dataSource.query(
      `SELECT number, count(*)::int AS n FROM ksef_sandbox_invoices WHERE number LIKE $1 GROUP BY number ORDER BY number`,
      [`K/%-${run}`],
    );
    expect(rows.map((r) => r.n)).toEqual([1, 1, 1]);
  });
});
