import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { freshCuit } from '../../libs/areas/src/afip/testing/cuits';
import { invoiceBody as myInvoice, onboardingBody as myOnboarding } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { sgUen } from '../support/identifiers';
import { freshTin } from '../support/myinvois';
import { AppProcess, eventually, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const id = (name: string) => `${name}-${run}`;

// One document per area, as each area's README example sends it (identifiers fresh per run).
const sgSupplier = (uen: string) => ({ registered_name: 'Lion City Pte Ltd', identifiers: [{ scheme: 'SG:UEN', id: uen }], street: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG' });
/** The buyer's UEN: the list's counterparty id (#50). */
const sgBuyerUen = sgUen();
/** To a buyer hosted at another access point: the sandbox AP delivers it. */
const sgInvoice = (ID: string) => ({
  ID, DocumentType: 'Invoice', IssueDate: '2026-03-15',
  CustomerParty: { RegisteredName: 'Marina Buyer Pte Ltd', address: { Street: '10 Pasir Panjang Road', ZipCode: '117438', City: 'Singapore', Country: 'SG' }, Identifiers: [{ Scheme: 'SG:UEN', ID: sgBuyerUen }] },
  InvoiceLines: [{ Description: 'Cloud hosting', PriceAmount: 200, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
  TotalIncludingVat: 218,
});
const aeTin = () => `1${String(randomInt(0, 1e9)).padStart(9, '0')}`;
const aeParticipant = (tin: string) => ({
  peppol_id: `0235:${tin}`, legal_name: 'Gulf Widgets LLC', trn: `${tin}00003`, legal_id: { id: `TL-${tin}`, scheme: 'TL', authority: 'Dubai Economy and Tourism' },
  street_address: 'Sheikh Zayed Road 1', city: 'Dubai', emirates_code: 'DXB', country_code: 'AE',
});
/** A tax invoice (380) to a buyer served by another access point: delivered over Peppol and reported to the FTA. */
const aeInvoice = (document_identifier: string) => ({
  document_identifier, issue_date: '2026-07-01', document_type: '380', document_currency: 'AED', due_date: '2026-07-31', flags: {},
  receiving_party: { peppol_id: '0235:1345678901', legal_name: 'Abu Dhabi Buyer LLC', street_address: 'Khalifa Street 9', city: 'Abu Dhabi', emirates_code: 'AUH', country_code: 'AE', trn: '134567890123003' },
  payment_means: [{ type_code: '30', payment_account_id: 'AE070331234567890123456' }],
  lines: [{ item_name: 'Widget', quantity: '10', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '5' }],
});
const joSupplier = { supplier_name: 'Amman Stationery Co', supplier_tin: '12345678', default_income_source: '4419618', client_id: `device-${run}`, client_secret: 'secret-of-the-device', city_code: 'JO-AM' };
const joInvoice = (invoice_ref_number: string) => ({
  invoice_ref_number, issue_date: '2026-11-25', issue_time: '10-30-00', buyer_details: { buyer_name: 'Irbid Buyer', buyer_tin: '87654321', city_code: 'JO-IR' },
  lineitems: [{ description: 'Pen', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard' }],
});
const ngTaxpayer = {
  party_name: 'Lagos Trading Ltd', tin: `${String(Date.now()).slice(-8)}-0001`, email: 'billing@lagostrading.example', password: 'portal-password-1', telephone: '+2348012345678',
  business_description: 'Wholesale of electronics', postal_address: { street_name: '12 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' },
};
const ngInvoice = (document_identifier: string) => ({
  document_identifier, issue_date: '2026-11-25', due_date: '2026-12-25', issue_time: '17-59-04', invoice_type_code: '380', document_currency_code: 'NGN', tax_currency_code: 'NGN',
  accounting_customer_party: { party_name: 'Abuja Buyer Ltd', tin: '87654321-0001', email: 'ap@abujabuyer.example', postal_address: { street_name: '1 Garki', city_name: 'Abuja', postal_zone: '900001', country: 'NG' } },
  invoice_line: [{ hsn_code: 'CC-001', product_category: 'Electronics', invoiced_quantity: 3, line_extension_amount: 300, item: { name: 'Router', description: 'Wi-Fi router' }, price: { price_amount: 100, base_quantity: 1, price_unit: 'NGN per 1' } }],
  tax_total: [{ tax_amount: 22.5, tax_subtotal: [{ taxable_amount: 300, tax_amount: 22.5, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }],
});
/** Today in Argentina (UTC−3), AFIP's CbteFch. */
const arToday = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
/** A Factura A without numbers: the gateway takes the sequence's next one (#44). */
const arVoucher = {
  CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteFch: arToday.replace(/-/g, ''),
  ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
};

/** A document of the list as these tests read it. */
type Listed = Record<string, unknown> & { id: string; area: string; authority: { status: string; reference?: string }; exchange: { status: string } };
/** One area's document: its supplier, the header its own routes name the supplier by, and the value of that header. */
interface AreaDocument {
  readonly supplierId: string;
  readonly header?: Record<string, string>;
  documentId?: string;
}

/**
 * #47 Documents of every area in one list (docs/account-api.md), for the areas account-documents.e2e.spec.ts
 * leaves out: Malaysia (reported to the sandbox MyInvois), the UAE (delivered over Peppol and reported to the
 * FTA), Singapore (delivered over Peppol), Jordan, Nigeria and Argentina (cleared by their sandbox
 * authorities before the answer). One stack for all six; each document listed with its area, status and
 * both tracks, its detail's timeline in order and links that its area's routes answer; another tenant
 * sees none of them.
 */
describe('#47 GET /v1/documents: Malaysia, UAE, Singapore, Jordan, Nigeria and Argentina', () => {
  let dataSource: DataSource;
  const apps: AppProcess[] = [];
  let client: Client;
  let other: Client;
  const documents: Record<string, AreaDocument> = {};
  let listed: Map<string, Listed>;

  const onboard = async (path: string, body: Record<string, unknown>) => {
    const answer = await client.post(path, body);
    expect({ path, status: answer.status }).toEqual({ path, status: 201 });
    return (answer.body.data.supplier_uuid ?? answer.body.data.participant_id) as string;
  };
  const submitted = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const answer = await client.post(path, body, headers);
    // Accepted (202) or answered with the authority's verdict (200); anything else says why.
    if (![200, 202].includes(answer.status)) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  /** The area's one document in this account, as the list shows it. */
  const only = (area: string) => [...listed.values()].filter((d) => d.area === area);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, `e2e account documents areas ${run}`);
    const { apiKey: otherKey } = await createTenant(dataSource, `e2e account documents areas other ${run}`);
    const workerEnv = testEnv({
      AUTHORITY_POLL_SWEEP_MS: '100', AUTHORITY_BATCH_SWEEP_MS: '100', UAE_SANDBOX_FTA_MLS_MS: '200',
      MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000',
    });
    const gateway = await startGateway({ AUTHORITY_WAIT_MS: '20000', MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' });
    apps.push(gateway.app, startApp('delivery-worker', workerEnv), startApp('reporting-worker', workerEnv));
    client = new Client(gateway.url, apiKey);
    other = new Client(gateway.url, otherKey);
    // Jordan, Nigeria and Argentina answer with their authority's verdict, which the reporting worker fetches.
    await untilWorkersReady(gateway, 'delivery-worker', 'reporting-worker');

    const my = await onboard('/api/einvoice/onboard', myOnboarding({ tin_number: freshTin(), client_id: `my-${run}` }));
    documents.my = { supplierId: my, header: { supplier_uuid: my } };
    await submitted('/api/einvoice/generate/invoice', myInvoice({ ID: id('MY') }), { ...documents.my.header, transport_mode: 'myinvois' });

    const ae = await onboard('/v1/participants', aeParticipant(aeTin()));
    documents.ae = { supplierId: ae };
    documents.ae.documentId = (await submitted(`/v1/participants/${ae}/documents`, aeInvoice(id('AE')))).data.document_id;

    const sg = await onboard('/sg/einvoice/onboard', sgSupplier(sgUen()));
    documents.sg = { supplierId: sg, header: { supplier_uuid: sg } };
    documents.sg.documentId = (await submitted('/sg/einvoice/generate/invoice', sgInvoice(id('SG')), documents.sg.header)).data.DocumentID;

    const jo = await onboard('/jo/supplier/onboard', joSupplier);
    documents.jo = { supplierId: jo, header: { 'participant-id': jo } };
    await submitted('/jo/einvoice/generate', joInvoice(id('JO')), documents.jo.header);

    const ng = await onboard('/api/auth/taxpayer/login', ngTaxpayer);
    documents.ng = { supplierId: ng, header: { 'participant-id': ng } };
    await submitted('/api/invoice/generate', ngInvoice(id('NG')), documents.ng.header);

    const cuit = freshCuit();
    const ar = await onboard('/ar/einvoice/onboard', { cuit, legal_name: 'Comercio SRL', points_of_sale: [1] });
    documents.ar = { supplierId: ar, header: { cuit } };
    await submitted('/ar/einvoice/create-voucher', arVoucher, documents.ar.header);

    // Each one's final state: reported to its authority, delivered over Peppol, or both (the UAE).
    const final: Record<string, [string, string]> = {
      my: ['reported', 'none'], ae: ['reported', 'delivered'], sg: ['none', 'delivered'], jo: ['reported', 'none'], ng: ['reported', 'none'], ar: ['reported', 'none'],
    };
    listed = await eventually('every area\'s document in its final state', async () => {
      const answer = await client.get('/v1/documents?limit=100');
      const data: Listed[] = answer.body.data;
      const settled = Object.entries(final).every(([area, [authority, exchange]]) =>
        data.some((d) => d.area === area && d.authority.status === authority && d.exchange.status === exchange));
      return settled && data.length === 6 ? new Map(data.map((d) => [d.id, d])) : undefined;
    }, 60_000);
  }, 150_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  it('lists each area\'s document with its area, supplier, number, status and both tracks', async () => {
    const document = (area: string) => {
      const [one] = only(area);
      expect({ area, count: only(area).length }).toEqual({ area, count: 1 });
      expect(one).toMatchObject({ area, supplier_id: documents[area].supplierId, direction: 'outgoing', created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/) });
      documents[area].documentId ??= one.id;
      expect(one.id).toBe(documents[area].documentId);
      return one;
    };
    // The total the area computed where the body states none (documents.total): MyInvois without InvoiceTotal (2 × 50
    // + 6% SST), the UAE (10 × 100.00 + 5% VAT), whose fields stay the body as sent.
    expect(document('my')).toMatchObject({ number: id('MY'), issue_date: '2026-03-15', currency: 'MYR', total: '106.00', status: 'reported', authority: { status: 'reported', reference: expect.any(String) }, exchange: { status: 'none' } });
    expect(document('ae')).toMatchObject({ issue_date: '2026-07-01', currency: 'AED', total: '1050.00', status: 'reported', authority: { status: 'reported', reference: expect.any(String) }, exchange: { status: 'delivered' } });
    expect((document('ae').number as string).endsWith(id('AE'))).toBe(true);
    expect(document('sg')).toMatchObject({ number: id('SG'), issue_date: '2026-03-15', currency: 'SGD', total: '218', status: 'delivered', authority: { status: 'none' }, exchange: { status: 'delivered' } });
    expect(document('jo')).toMatchObject({ number: id('JO'), issue_date: '2026-11-25', currency: 'JOD', total: '11.600', status: 'reported', authority: { status: 'reported', reference: expect.any(String) }, exchange: { status: 'none' } });
    expect(document('ng')).toMatchObject({ number: id('NG'), issue_date: '2026-11-25', currency: 'NGN', total: '322.50', status: 'reported', authority: { status: 'reported', reference: expect.any(String) }, exchange: { status: 'none' } });
    expect(document('ar')).toMatchObject({ issue_date: arToday, currency: 'PES', total: '121', status: 'reported', authority: { status: 'reported', reference: expect.stringMatching(/^\d{14}$/) }, exchange: { status: 'none' } });
    // #50 The counterparty: each one's buyer as its area's body names it (MyInvois: its row keeps the buyer's name
    // and TIN); Argentina's voucher names its buyer by CUIT only (DocTipo 80).
    expect(Object.fromEntries(['my', 'ae', 'sg', 'jo', 'ng', 'ar'].map((area) => [area, only(area)[0].counterparty]))).toEqual({
      my: { name: 'Syarikat Pembeli Bhd', id: 'C20880050010' },
      ae: { name: 'Abu Dhabi Buyer LLC', id: '134567890123003' },
      sg: { name: 'Marina Buyer Pte Ltd', id: sgBuyerUen },
      jo: { name: 'Irbid Buyer', id: '87654321' },
      ng: { name: 'Abuja Buyer Ltd', id: '87654321-0001' },
      ar: { name: null, id: '30712345671' },
    });
    // Newest first: in the order they were sent.
    expect([...listed.values()].map((d) => d.area)).toEqual(['ar', 'ng', 'jo', 'sg', 'ae', 'my']);
  });

  it('filters them by area and status', async () => {
    const ids = async (query: string) => (await client.get(`/v1/documents${query}`)).body.data.map((d: Listed) => d.area).sort();
    expect(await ids('?area=my,ae,sg')).toEqual(['ae', 'my', 'sg']);
    expect(await ids('?area=jo')).toEqual(['jo']);
    expect(await ids('?status=delivered')).toEqual(['sg']);
    expect(await ids('?status=reported')).toEqual(['ae', 'ar', 'jo', 'my', 'ng']);
    expect(await ids(`?supplier_id=${documents.ng.supplierId}`)).toEqual(['ng']);
  });

  it('shows each document\'s timeline, in order, and links its area\'s own routes answer', async () => {
    const detail = async (area: string) => {
      const answer = await client.get(`/v1/documents/${documents[area].documentId}`);
      expect(answer.status).toBe(200);
      const data = answer.body.data;
      expect(data).toMatchObject(listed.get(documents[area].documentId!)!);
      const ats = data.timeline.map((t: { at: string }) => t.at);
      expect(ats).toEqual([...ats].sort());
      // The area's own read of the document answers at the link, with the header the link names.
      const headers = documents[area].header ?? {};
      expect(Object.keys(headers)).toEqual(data.links.supplier_header ? [data.links.supplier_header] : []);
      for (const link of [data.links.document, data.links.xml].filter(Boolean)) {
        expect({ area, link, status: (await client.get(link, headers)).status }).toEqual({ area, link, status: 200 });
      }
      return data as { timeline: Array<{ type: string; detail: Record<string, unknown> }>; links: Record<string, string | null>; authority: { reference?: string } };
    };
    const types = (data: { timeline: Array<{ type: string }> }) => data.timeline.map((t) => t.type);

    const my = await detail('my');
    expect(types(my)).toEqual(['accepted', 'submitted', 'reported']);
    expect(my.timeline[2].detail).toEqual({ track: 'authority', reference: my.authority.reference });
    expect(my.links).toEqual({ document: `/api/einvoice/documents/${documents.my.documentId}`, xml: `/api/einvoice/documents/${documents.my.documentId}/raw`, supplier_header: 'supplier_uuid',
      pdf: `/v1/documents/${documents.my.documentId}/pdf`, html: `/v1/documents/${documents.my.documentId}/html` });

    const ae = await detail('ae');
    // Both tracks, interleaved as they happened: the delivery's, and the FTA report's (taken, then reported).
    expect(new Set(types(ae))).toEqual(new Set(['accepted', 'scheduled', 'delivered', 'submitted', 'reported']));
    expect(ae.timeline.find((t) => t.type === 'delivered')!.detail).toMatchObject({ track: 'exchange', mls: expect.objectContaining({ responseCode: 'AP' }) });
    expect(ae.links).toEqual({
      document: `/v1/participants/${documents.ae.supplierId}/documents/${documents.ae.documentId}`,
      xml: `/v1/participants/${documents.ae.supplierId}/documents/${documents.ae.documentId}/xml`,
      supplier_header: null,
      pdf: `/v1/documents/${documents.ae.documentId}/pdf`,
      html: `/v1/documents/${documents.ae.documentId}/html`,
    });

    const sg = await detail('sg');
    expect(sg.timeline).toEqual([
      { type: 'accepted', at: expect.any(String), detail: expect.objectContaining({ track: 'exchange' }) },
      { type: 'delivered', at: expect.any(String), detail: expect.objectContaining({ track: 'exchange', mls: expect.objectContaining({ responseCode: 'AP' }) }) },
    ]);
    expect(sg.links).toEqual({ document: `/sg/einvoice/get-document/${documents.sg.documentId}`, xml: `/sg/einvoice/get-document/${documents.sg.documentId}/xml`, supplier_header: 'supplier_uuid',
      pdf: `/v1/documents/${documents.sg.documentId}/pdf`, html: `/v1/documents/${documents.sg.documentId}/html` });

    for (const area of ['jo', 'ng', 'ar']) {
      const data = await detail(area);
      expect({ area, types: types(data) }).toEqual({ area, types: ['accepted', 'reported'] });
      expect(data.timeline[1].detail).toEqual({ track: 'authority', reference: data.authority.reference });
    }
  });

  it('answers what the OpenAPI document\'s typed schemas say: every field of a listed document and of its detail, and none more', async () => {
    const openapi = (await client.get('/docs-json')).body;
    const schemaOf = (path: string) => openapi.paths[path].get.responses['200'].content['application/json'].schema;
    const listItem = schemaOf('/v1/documents').properties.data.items;
    const detail = schemaOf('/v1/documents/{id}').properties.data;
    for (const document of listed.values()) {
      expect(Object.keys(document).sort()).toEqual([...listItem.required].sort());
      expect(Object.keys(document).every((field) => listItem.properties[field].description)).toBe(true);
    }
    const answer = (await client.get(`/v1/documents/${documents.ae.documentId}`)).body.data;
    expect(Object.keys(answer).sort()).toEqual([...detail.required].sort());
    expect(Object.keys(answer.timeline[0]).sort()).toEqual(Object.keys(detail.properties.timeline.items.properties).sort());
  });

  it('another tenant sees none of them: not listed, each a 404', async () => {
    expect((await other.get('/v1/documents')).body.data).toEqual([]);
    for (const area of Object.keys(documents)) {
      const answer = await other.get(`/v1/documents/${documents[area].documentId}`);
      expect({ area, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ area, status: 404, code: expect.any(String) });
    }
  });
});
