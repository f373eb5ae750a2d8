import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat, deVat, sgUen } from '../support/identifiers';
import { AppProcess, eventually, startApp, startGateway } from '../support/stack';

type Area = 'be' | 'de' | 'sg';

const sellers: Record<Area, () => Record<string, unknown>> = {
  be: () => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' }),
  de: () => ({
    registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: deVat() }], street: 'Unter den Linden 1',
    city: 'Berlin', postal_code: '10117', country: 'DE', contact_number: '+49301234567', contact_name: 'Erika Muster', contact_email: 'billing@teile.example',
  }),
  sg: () => ({ registered_name: 'Lion City Pte Ltd', identifiers: [{ scheme: 'SG:UEN', id: sgUen() }], street: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG' }),
};

/** A buyer hosted elsewhere (another access point): delivery goes through the sandbox AP. */
const remoteBuyer: Record<Area, () => Record<string, unknown>> = {
  be: () => ({ RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] }),
  de: () => ({ RegisteredName: 'Wiener Käufer GmbH', address: { Street: 'Graben 1', ZipCode: '1010', City: 'Wien', Country: 'AT' }, Identifiers: [{ Scheme: '9914', ID: 'ATU12345678' }] }),
  sg: () => ({ RegisteredName: 'IMDA', address: { Street: '10 Pasir Panjang Road', ZipCode: '117438', City: 'Singapore', Country: 'SG' }, Identifiers: [{ Scheme: 'SG:UEN', ID: sgUen() }] }),
};

const invoices: Record<Area, (id: string, buyer: Record<string, unknown>) => Record<string, unknown>> = {
  be: (ID, CustomerParty) => ({
    ID, DocumentType: '380', IssueDate: '2026-03-15', CustomerParty,
    InvoiceLines: [
      { Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } },
      { Description: 'Books', PriceAmount: 0.1, InvoicedQuantity: 3, TaxType: { TaxRate: 6, TaxType: 'reduced', TaxCountry: 'BE' } },
    ],
    // 100 + 21 + 0.30 + 0.02 (6% of 0.30 = 0.018, rounded per rate group)
    TotalIncludingVat: 121.32,
  }),
  de: (ID, CustomerParty) => ({
    ID, DocumentType: '380', IssueDate: '2026-03-15', CustomerParty, DueDate: '2026-04-14',
    InvoiceLines: [{ Description: 'Schrauben', PriceAmount: 12.5, InvoicedQuantity: 4, TaxType: { TaxRate: 0, TaxType: 'intra_community', TaxCountry: 'DE' } }],
    TotalIncludingVat: 50,
  }),
  sg: (ID, CustomerParty) => ({
    ID, DocumentType: 'Invoice', IssueDate: '2026-03-15', CustomerParty,
    InvoiceLines: [{ Description: 'Cloud hosting', PriceAmount: 200, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
    TotalIncludingVat: 218,
  }),
};

describe('#2 Belgium, Germany, Singapore over HTTP, from onboarding to Delivered', () => {
  let dataSource: DataSource;
  let client: Client;
  let operator: Client;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e delivery');
    const gateway = await startGateway();
    apps.push(gateway.app, startApp('delivery-worker'), startApp('reporting-worker'), startApp('webhook-dispatcher'));
    client = new Client(gateway.url, apiKey);
    operator = new Client(gateway.operatorUrl);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  async function onboard(area: Area, body: Record<string, unknown>): Promise<string> {
    const answer = await client.post(`/${area}/einvoice/onboard`, body);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'success', data: { supplier_uuid: expect.any(String) } });
    return answer.body.data.supplier_uuid;
  }

  async function deliveryStatus(area: Area, supplier: string, documentId: string): Promise<string> {
    const answer = await client.get(`/${area}/einvoice/delivery-status/${documentId}`, { supplier_uuid: supplier });
    expect(answer.status).toBe(200);
    expect(answer.body.data.DocumentID).toBe(documentId);
    return answer.body.data.DeliveryStatus;
  }

  it.each(['be', 'de', 'sg'] as const)('%s: onboard, submit, read back the document and its XML, and see it Delivered', async (area) => {
    const supplier = await onboard(area, sellers[area]());
    const body = invoices[area](`${area.toUpperCase()}-INV-${Date.now()}`, remoteBuyer[area]());
    const submitted = await client.post(`/${area}/einvoice/generate/invoice`, body, { supplier_uuid: supplier, transport_mode: 'peppol' });
    expect(submitted.status).toBe(202);
    expect(submitted.body).toEqual({ status: 'success', data: { DocumentID: expect.any(String), DeliveryStatus: 'Scheduled' } });
    const documentId: string = submitted.body.data.DocumentID;

    const document = await client.get(`/${area}/einvoice/get-document/${documentId}`, { supplier_uuid: supplier });
    expect(document.status).toBe(200);
    expect(document.body.data).toMatchObject({ uuid: documentId, ID: body.ID, DocumentType: body.DocumentType, TotalIncludingVat: body.TotalIncludingVat });
    expect(document.body.data.DocumentCurrencyCode).toBe(area === 'sg' ? 'SGD' : 'EUR');

    const xml = await client.get(`/${area}/einvoice/get-document/${documentId}/xml`, { supplier_uuid: supplier });
    expect(xml.status).toBe(200);
    expect(xml.headers.get('content-type')).toContain('application/xml');
    expect(xml.body).toContain(`<cbc:ID>${body.ID}</cbc:ID>`);
    expect(xml.body).toContain(`<cbc:UUID>${documentId}</cbc:UUID>`);

    await eventually('Delivered', async () => ((await deliveryStatus(area, supplier, documentId)) === 'Delivered' ? true : undefined));
    const [delivery] = await dataSource.query(`SELECT delivery, report_id FROM documents WHERE id = $1`, [documentId]);
    expect(delivery.delivery).toMatchObject({ channel: 'remote', mls: { responseCode: 'AP' } });
    // One track, the delivery over Peppol: these areas report to no authority (#45, the one pipeline).
    expect(delivery.report_id).toBeNull();
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [`document-${documentId}`]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['DocumentSubmitted', 'DocumentDelivered']);
    // #46 Peppol Reporting: the exchange as recorded, C1's country being the supplier's.
    const [exchange] = await dataSource.query(`SELECT direction, document_type_id, country_c1, transport_profile FROM peppol_transmissions WHERE document_id = $1`, [documentId]);
    const documentTypeId = area === 'sg' ? 'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@sg-1::2.1'
      : 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
    expect(exchange).toEqual({ direction: 'outgoing', document_type_id: documentTypeId, country_c1: area.toUpperCase(), transport_profile: 'peppol-transport-as4-v2_0' });
  });

  it('delivers a BE invoice to a DE supplier hosted here: Delivered for the sender, one received document for the receiver', async () => {
    const seller = await onboard('be', sellers.be());
    const receiverBody = sellers.de();
    const receiver = await onboard('de', receiverBody);
    const receiverVat = (receiverBody.identifiers as Array<{ id: string }>)[0].id;
    const buyer = { RegisteredName: 'Berliner Teile GmbH', address: { Street: 'Unter den Linden 1', ZipCode: '10117', City: 'Berlin', Country: 'DE' }, Identifiers: [{ Scheme: 'DE:VAT', ID: receiverVat }] };
    const body = {
      ID: `BE-TO-DE-${Date.now()}`, DocumentType: '380', IssueDate: '2026-03-15', CustomerParty: buyer,
      InvoiceLines: [{ Description: 'Widgets', PriceAmount: 40, InvoicedQuantity: 2, TaxType: { TaxRate: 0, TaxType: 'intra_community', TaxCountry: 'BE' } }],
      TotalIncludingVat: 80,
    };
    const submitted = await client.post('/be/einvoice/generate/invoice', body, { supplier_uuid: seller });
    expect(submitted.status).toBe(202);
    const documentId: string = submitted.body.data.DocumentID;
    await eventually('Delivered', async () => ((await deliveryStatus('be', seller, documentId)) === 'Delivered' ? true : undefined));

    const received = await dataSource.query(
      `SELECT id, delivery_status FROM documents WHERE supplier_id = $1 AND direction = 'incoming' AND source_document_id = $2`,
      [receiver, documentId],
    );
    expect(received).toHaveLength(1);
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1`, [`document-${received[0].id}`]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['DocumentReceived']);

    // The receiver reads it through its own area's get-document endpoints.
    const asReceiver = await client.get(`/de/einvoice/get-document/${received[0].id}`, { supplier_uuid: receiver });
    expect(asReceiver.status).toBe(200);
    expect(asReceiver.body.data).toMatchObject({ uuid: received[0].id, ID: body.ID });
    const xml = await client.get(`/de/einvoice/get-document/${received[0].id}/xml`, { supplier_uuid: receiver });
    expect(xml.body).toContain(`<cbc:ID>${body.ID}</cbc:ID>`);
    // ...but not through the sender's supplier.
    expect((await client.get(`/be/einvoice/get-document/${received[0].id}`, { supplier_uuid: seller })).status).toBe(404);
  });

  it('answers GET /health on the operator port with the status of PostgreSQL, Redis and Kafka, and each worker\'s readiness (#9)', async () => {
    const health = await eventually('every worker ready', async () => {
      const answer = await operator.get('/health');
      return answer.body.status === 'ok' ? answer : undefined;
    });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      status: 'ok',
      checks: { postgres: { status: 'up' }, redis: { status: 'up' }, kafka: { status: 'up' } },
    });
    const groups = health.body.workers.map((w: { group: string }) => w.group.split('.').pop());
    expect(groups).toEqual(['delivery-worker', 'reporting-worker', 'webhook-dispatcher']);
    for (const worker of health.body.workers) expect(worker).toMatchObject({ ready: true, state: 'Stable', members: expect.any(Number), lag: expect.any(Number) });
  });

  it('serves the OpenAPI document generated from the DTOs at /docs', async () => {
    const spec = await client.withKey(undefined).get('/docs-json');
    expect(spec.status).toBe(200);
    expect(Object.keys(spec.body.paths)).toEqual(expect.arrayContaining(['/be/einvoice/generate/invoice', '/sg/einvoice/onboard']));
    expect(spec.body.components.schemas.InvoiceBody.properties.ID).toMatchObject({ maxLength: 50 });
    expect((await client.withKey(undefined).get('/docs')).status).toBe(200);
    // #9: every parameter once per operation; public operations need no key.
    for (const [path, operations] of Object.entries(spec.body.paths as Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        const names = (operation.parameters ?? []).map((p) => `${p.in}:${p.name}`);
        expect({ operation: `${method} ${path}`, names }).toEqual({ operation: `${method} ${path}`, names: [...new Set(names)] });
      }
    }
    expect(spec.body.paths['/1.0/participant/{pid}/capabilities'].get.security).toEqual([]);
    expect(spec.body.paths['/be/einvoice/webhooks'].post.security).toEqual([{ 'x-svc-auth-key': [] }]);
  });
});
