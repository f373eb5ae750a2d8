import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { generalPublic, invoiceBody, line, sst } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;

describe('MyInvois with transport_mode: peppol (PINT MY over Peppol) and credit notes: gateway + reporting-worker + delivery-worker', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let reporting: AppProcess;
  let delivery: AppProcess;
  let client: Client;
  let supplier: string;

  const peppol = () => ({ supplier_uuid: supplier, transport_mode: 'peppol' });
  const plain = () => ({ supplier_uuid: supplier, transport_mode: 'myinvois' });
  const stateOf = (key: string) => client.get(`/api/einvoice/documents/${encodeURIComponent(key)}`, plain());
  type Peppol = { documentId: string; deliveryStatus: string; reason: { code: string; message: string } | null } | null;
  type Seen = Record<string, unknown> & { state: string; peppol: Peppol };
  /** Every state GET showed while waiting, in order (the Peppol status must only move forward). */
  const until = (what: string, key: string, done: (data: Seen) => boolean, seen: Seen[] = []) =>
    eventually(what, async () => {
      const data = (await stateOf(key)).body?.data as Seen | undefined;
      if (data) seen.push(data);
      return data && done(data) ? data : undefined;
    }, 30_000);
  const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
  const peppolEvents = async (documentNumber: string) =>
    Number((await dataSource.query(
      `SELECT count(*) AS n FROM events WHERE type = 'DocumentSubmitted' AND data->>'supplierId' = $1 AND data->>'documentNumber' = $2`,
      [supplier, documentNumber],
    ))[0].n);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e myinvois peppol');
    const started = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    reporting = startApp('reporting-worker', testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000' }));
    delivery = startApp('delivery-worker');
    supplier = await onboardMyInvoisSupplier(client, `client-${run}`);
    // Warm-up: both workers have joined their groups once a first document is valid and delivered.
    await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('WARMUP') }), peppol());
    await until('warm-up', id('WARMUP'), (d) => d.state === 'valid' && d.peppol?.deliveryStatus === 'Delivered');
  }, 120_000);

  afterAll(async () => {
    await delivery?.stop();
    await reporting?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('an invoice with transport_mode: peppol is accepted by MyInvois AND, once MyInvois says Valid, delivered over Peppol as PINT MY (0230 + TIN)', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('PEP') }), peppol());
    expect(answer.status).toBe(200);
    expect(answer.body.data.submissionResponse.acceptedDocuments).toEqual([{ uuid: expect.any(String), invoiceCodeNumber: id('PEP') }]);
    // The sandbox keeps it Submitted for MYINVOIS_SANDBOX_VALIDATION_MS (and its first poll always sees Submitted).
    const seen: Seen[] = [(await stateOf(id('PEP'))).body.data];
    expect(seen[0]).toMatchObject({ state: 'submitted', peppol: { documentId: expect.any(String), deliveryStatus: 'awaiting_validation', reason: null } });
    const done = await until('valid and delivered', id('PEP'), (d) => d.state === 'valid' && d.peppol?.deliveryStatus === 'Delivered', seen);
    expect(done.peppol).toEqual({ documentId: seen[0].peppol?.documentId, deliveryStatus: 'Delivered', reason: null });
    // Awaiting validation while MyInvois has not said Valid; forward only: awaiting_validation → Scheduled → Delivered.
    const order = ['awaiting_validation', 'Scheduled', 'Delivered'];
    for (const s of seen) if (s.state !== 'valid') expect(s.peppol?.deliveryStatus).toBe('awaiting_validation');
    const steps = seen.map((s) => order.indexOf(s.peppol?.deliveryStatus ?? ''));
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps).not.toContain(-1);
    // The copy was appended by the poll that recorded the validation, in its transaction, never before.
    const [validated, copy] = await dataSource.query(
      `SELECT type, metadata->>'correlationId' AS correlation, recorded_at FROM events WHERE (type = 'AuthorityReportValidated' AND data->>'documentId' = $1) OR (type = 'DocumentSubmitted' AND data->>'documentId' = $2)
       ORDER BY global_position`,
      [done.documentId, done.peppol?.documentId],
    );
    expect([validated.type, copy.type]).toEqual(['AuthorityReportValidated', 'DocumentSubmitted']);
    expect(copy.correlation).toBe(validated.correlation);
    expect(copy.recorded_at).toEqual(validated.recorded_at);

    const [stored] = await dataSource.query(`SELECT d.area, d.document_number, e.data->>'xml' AS xml, d.delivery FROM documents d JOIN events e ON e.stream_id = 'document-' || d.id AND e.stream_position = 1 WHERE d.id = $1`, [(done.peppol as unknown as { documentId: string }).documentId]);
    expect(stored).toMatchObject({ area: 'my', document_number: id('PEP') });
    expect(stored.xml).toContain('<cbc:CustomizationID>urn:peppol:pint:billing-1@my-1</cbc:CustomizationID>');
    expect(stored.xml).toContain('<cbc:EndpointID schemeID="0230">C20880050010</cbc:EndpointID>');
    expect(stored.delivery).toMatchObject({ channel: 'remote', receiverParticipantId: 'iso6523-actorid-upis::0230:c20880050010', mls: { responseCode: 'AP' } });
    const [event] = await dataSource.query(
      `SELECT data->>'senderParticipantId' AS sender, data->>'transportMode' AS mode FROM events WHERE type = 'DocumentSubmitted' AND data->>'documentId' = $1`,
      [(done.peppol as unknown as { documentId: string }).documentId],
    );
    expect(event).toEqual({ sender: expect.stringMatching(/^iso6523-actorid-upis::0230:c\d+$/), mode: 'peppol' });
  });

  it('with transport_mode: myinvois nothing goes over Peppol', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('PLAIN') }), plain());
    expect(answer.status).toBe(200);
    expect((await until('valid', id('PLAIN'), (d) => d.state === 'valid')).peppol).toBeNull();
    expect(await peppolEvents(id('PLAIN'))).toBe(0);
  });

  it('transport_mode is required (seed 000): absent or unknown is a 400 naming the header, and nothing is stored', async () => {
    for (const [headers, code] of [[{ supplier_uuid: supplier }, 'FIELD.REQUIRED'], [{ supplier_uuid: supplier, transport_mode: 'email' }, 'FIELD.INVALID_VALUE']] as const) {
      const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('NO-MODE') }), headers);
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'headers.transport_mode', code })]);
    }
    expect((await client.get(`/api/einvoice/documents/${encodeURIComponent(id('NO-MODE'))}`, { supplier_uuid: supplier })).status).toBe(404);
  });

  it('a consolidated document (general public: no Peppol id) goes to MyInvois only', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice/consolidated', invoiceBody({ ID: id('CONS'), CustomerParty: generalPublic }), peppol());
    expect(answer.status).toBe(200);
    expect((await stateOf(id('CONS'))).body.data.peppol).toBeNull();
    expect(await peppolEvents(id('CONS'))).toBe(0);
  });

  it('a line with two taxes (sales and service tax) travels over Peppol too, one ClassifiedTaxCategory per tax', async () => {
    const body = invoiceBody({ ID: id('TWO-TAXES'), InvoiceLines: [line('Installed unit', 1, 1000, [{ TaxType: '01', TaxRate: 0.1 }, sst(0.08)])] });
    expect((await client.post('/api/einvoice/generate/invoice', body, peppol())).status).toBe(200);
    const done = await until('valid and delivered', id('TWO-TAXES'), (d) => d.state === 'valid' && d.peppol?.deliveryStatus === 'Delivered');
    const [stored] = await dataSource.query(`SELECT e.data->>'xml' AS xml FROM documents d JOIN events e ON e.stream_id = 'document-' || d.id AND e.stream_position = 1 WHERE d.id = $1`, [(done.peppol as unknown as { documentId: string }).documentId]);
    expect(stored.xml.match(/<cac:ClassifiedTaxCategory>/g)).toHaveLength(2);
  });

  it('a document PINT MY cannot carry is rejected alone with MYINVOIS.PINT_MY_UNSUPPORTED (400 single, per document in a bulk)', async () => {
    // An exemption at a non-zero rate: MyInvois takes it, PINT MY forbids it (aligned-ibrp-e-05).
    const exemptAtRate = invoiceBody({ ID: id('MULTI'), InvoiceLines: [line('Widget', 1, 100, [{ TaxType: 'E', TaxExemptionReason: 'Order 2018', TaxRate: 0.06 }])] });
    const single = await client.post('/api/einvoice/generate/invoice', exemptAtRate, peppol());
    expect(single.status).toBe(400);
    expect(single.body.errors[0]).toMatchObject({ code: 'MYINVOIS.PINT_MY_UNSUPPORTED', path: 'InvoiceLines[0].LineTaxes[0].TaxRate', message: expect.stringContaining('aligned-ibrp-e-05') });
    const bulk = await client.post('/api/einvoice/generate/invoice/bulk', [exemptAtRate, invoiceBody({ ID: id('BULK-OK') })], peppol());
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.submissionResponse.acceptedDocuments).toEqual([{ uuid: expect.any(String), invoiceCodeNumber: id('BULK-OK') }]);
    expect(bulk.body.data.submissionResponse.rejectedDocuments).toEqual([
      { invoiceCodeNumber: id('MULTI'), error: expect.objectContaining({ code: 'MYINVOIS.PINT_MY_UNSUPPORTED', target: id('MULTI') }) },
    ]);
    expect(await peppolEvents(id('MULTI'))).toBe(0);
    // Without Peppol the same document goes to MyInvois.
    expect((await client.post('/api/einvoice/generate/invoice', exemptAtRate, plain())).status).toBe(200);
  });

  it('an INVALID document (MyInvois says Invalid) is never sent over Peppol: its copy is withheld, with the reason', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('INVALID') }), peppol());
    expect(answer.status).toBe(200);
    const done = await until('invalid', id('INVALID'), (d) => d.state === 'invalid');
    expect(done.peppol).toEqual({ documentId: expect.any(String), deliveryStatus: 'withheld', reason: { code: 'PEPPOL.WITHHELD_INVALID', message: expect.stringContaining('invalid') } });
    // Recorded Invalid in the same transaction that would have released it: nothing can follow.
    expect(await peppolEvents(id('INVALID'))).toBe(0);
    expect(await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1 AND document_number = $2 AND delivery_status IS NOT NULL`, [supplier, id('INVALID')])).toEqual([]);
  });

  it('raw: the exact bytes submitted to MyInvois, whose SHA-256 is the stored documentHash (Repr-Digest, X-Document-Hash); peppol: the PINT MY XML as sent', async () => {
    const done = await until('delivered', id('PEP'), (d) => d.peppol?.deliveryStatus === 'Delivered');
    const [stored] = await dataSource.query(`SELECT rendered->>'sha256' AS document_hash FROM documents WHERE id = $1`, [done.documentId]);
    for (const key of [done.documentId as string, id('PEP')]) {
      const raw = await client.bytes(`/api/einvoice/documents/${encodeURIComponent(key)}/raw`, plain());
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(sha256(raw.body)).toBe(stored.document_hash);
      expect(raw.headers.get('x-document-hash')).toBe(stored.document_hash);
      expect(raw.headers.get('repr-digest')).toBe(`sha-256=:${Buffer.from(stored.document_hash, 'hex').toString('base64')}:`);
      expect(JSON.parse(raw.body.toString('utf8'))).toMatchObject({ _D: expect.any(String), Invoice: [expect.objectContaining({ ID: [{ _: id('PEP') }] })] });
    }

    const [sent] = await dataSource.query(`SELECT e.data->>'xml' AS xml FROM documents d JOIN events e ON e.stream_id = 'document-' || d.id AND e.stream_position = 1 WHERE d.id = $1`, [done.peppol?.documentId]);
    const pint = await client.bytes(`/api/einvoice/documents/${done.documentId}/peppol`, plain());
    expect(pint.status).toBe(200);
    expect(pint.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(pint.body.toString('utf8')).toBe(sent.xml);
    expect(pint.headers.get('x-document-hash')).toBe(sha256(sent.xml));
  });

  it('raw and peppol are 404 in the one error shape for an unknown id, another tenant, and (peppol) a document without a Peppol copy', async () => {
    const unknown = await client.get('/api/einvoice/documents/no-such-document/raw', plain());
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 'not_found', errors: [expect.objectContaining({ code: 'DOCUMENT.NOT_FOUND' })] });

    const { apiKey } = await createTenant(dataSource, 'e2e myinvois peppol other');
    const other = client.withKey(apiKey);
    for (const route of ['raw', 'peppol']) {
      const answer = await other.get(`/api/einvoice/documents/${encodeURIComponent(id('PEP'))}/${route}`, plain());
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ status: 'not_found', message: expect.any(String), errors: [expect.objectContaining({ code: expect.any(String) })] });
    }

    await until('plain valid', id('PLAIN'), (d) => d.state === 'valid');
    const none = await client.get(`/api/einvoice/documents/${encodeURIComponent(id('PLAIN'))}/peppol`, plain());
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ status: 'not_found', errors: [expect.objectContaining({ code: 'DOCUMENT.NO_PEPPOL_COPY' })] });
  });

  it('a credit note (02) referencing an accepted invoice (its MyInvois uuid and ID) is accepted; one without the reference is rejected', async () => {
    const invoice = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('ORIG') }), plain());
    expect(invoice.status).toBe(200);
    const uuid = invoice.body.data.submissionResponse.acceptedDocuments[0].uuid;
    await until('original valid', uuid, (d) => d.state === 'valid');

    const credit = invoiceBody({ ID: id('CN'), InvoiceTypeCode: '02', InvoiceDocumentReference: [{ UUID: uuid, InternalID: id('ORIG') }] });
    const accepted = await client.post('/api/einvoice/generate/invoice', credit, plain());
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.submissionResponse).toMatchObject({ acceptedDocuments: [{ uuid: expect.any(String), invoiceCodeNumber: id('CN') }], rejectedDocuments: [] });
    await until('credit note valid', id('CN'), (d) => d.state === 'valid');

    const unreferenced: Record<string, unknown> = { ...credit, ID: id('CN-NOREF') };
    delete unreferenced.InvoiceDocumentReference;
    const refused = await client.post('/api/einvoice/generate/invoice', unreferenced, plain());
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'InvoiceDocumentReference' })]));
    const inBulk = await client.post('/api/einvoice/generate/invoice/bulk', [unreferenced], plain());
    expect(inBulk.body.data.submissionResponse.rejectedDocuments[0].error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ propertyPath: 'InvoiceDocumentReference', target: 'InvoiceDocumentReference' })]),
    );
  });
});
