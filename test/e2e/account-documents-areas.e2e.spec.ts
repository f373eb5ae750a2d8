import type { Client } from '../support/http';
import { freshCuit } from '../../libs/areas/src/afip/testing/cuits';
import { invoiceBody as myInvoice, onboardingBody as myOnboarding } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { sgUen } from '../support/identifiers';
import { freshTin } from '../support/myinvois';
import { eventually } from '../support/stack';
import {
  aeInvoice, aeParticipant, aeTin, type AreasStack, arToday, arVoucher, id, joInvoice, joSupplier, ngInvoice, ngTaxpayer, run, sgBuyerUen, sgInvoice, sgSupplier, startAreasStack,
} from '../support/area-documents';

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
  let stack: AreasStack;
  let client: Client;
  let other: Client;
  const documents: Record<string, AreaDocument> = {};
  let listed: Map<string, Listed>;

  /** The area's one document in this account, as the list shows it. */
  const only = (area: string) => [...listed.values()].filter((d) => d.area === area);

  beforeAll(async () => {
    stack = await startAreasStack('e2e account documents areas', {
      gateway: { MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' },
      workers: { MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000' },
    });
    ({ client, other } = stack);
    const { onboard, submitted } = stack;

    const my = await onboard('/api/einvoice/onboard', myOnboarding({ tin_number: freshTin(), client_id: `my-${run}` }));
    documents.my = { supplierId: my, header: { supplier_uuid: my } };
    await submitted('/api/einvoice/generate/invoice', myInvoice({ ID: id('MY') }), { ...documents.my.header, transport_mode: 'myinvois' });

    const ae = await onboard('/v1/participants', aeParticipant(aeTin()));
    documents.ae = { supplierId: ae };
    documents.ae.documentId = (await submitted(`/v1/participants/${ae}/documents`, aeInvoice(id('AE')))).data.document_id;

    const sg = await onboard('/sg/einvoice/onboard', sgSupplier(sgUen()));
    documents.sg = { supplierId: sg, header: { supplier_uuid: sg } };
    documents.sg.documentId = (await submitted('/sg/einvoice/generate/invoice', sgInvoice(id('SG')), documents.sg.header)).data.DocumentID;

    const jo = await onboard('/jo/supplier/onboard', joSupplier());
    documents.jo = { supplierId: jo, header: { 'participant-id': jo } };
    await submitted('/jo/einvoice/generate', joInvoice(id('JO')), documents.jo.header);

    const ng = await onboard('/api/auth/taxpayer/login', ngTaxpayer());
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
    await stack?.stop();
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
      pdf: `/v1/documents/${documents.my.documentId}/pdf`, html: `/v1/documents/${documents.my.documentId}/html`,
      cancel: { method: 'POST', href: `/api/einvoice/documents/${documents.my.documentId}/cancel`, body: {}, fields: ['reason'] }, request: `/v1/documents/${documents.my.documentId}/request` });

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
      cancel: null,
      request: `/v1/documents/${documents.ae.documentId}/request`,
    });

    const sg = await detail('sg');
    expect(sg.timeline).toEqual([
      { type: 'accepted', at: expect.any(String), detail: expect.objectContaining({ track: 'exchange' }) },
      { type: 'delivered', at: expect.any(String), detail: expect.objectContaining({ track: 'exchange', mls: expect.objectContaining({ responseCode: 'AP' }) }) },
    ]);
    expect(sg.links).toEqual({ document: `/sg/einvoice/get-document/${documents.sg.documentId}`, xml: `/sg/einvoice/get-document/${documents.sg.documentId}/xml`, supplier_header: 'supplier_uuid',
      pdf: `/v1/documents/${documents.sg.documentId}/pdf`, html: `/v1/documents/${documents.sg.documentId}/html`, cancel: null, request: `/v1/documents/${documents.sg.documentId}/request` });

    for (const area of ['jo', 'ng', 'ar']) {
      const data = await detail(area);
      expect({ area, types: types(data) }).toEqual({ area, types: ['accepted', 'reported'] });
      expect(data.timeline[1].detail).toEqual({ track: 'authority', reference: data.authority.reference });
      // #50 A credit note corrects a document there: no cancellation.
      expect({ area, cancel: data.links.cancel }).toEqual({ area, cancel: null });
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
      for (const path of [`/v1/documents/${documents[area].documentId}`, `/v1/documents/${documents[area].documentId}/request`]) {
        const answer = await other.get(path);
        expect({ path, status: answer.status, code: answer.body.errors?.[0]?.code }).toEqual({ path, status: 404, code: 'DOCUMENT.NOT_FOUND' });
      }
    }
  });

  it('#50 each one\'s request as accepted (Malaysia\'s without a Peppol copy: the listed fields), and Malaysia\'s cancellation through links.cancel', async () => {
    for (const area of Object.keys(documents)) {
      const answer = await client.get(`/v1/documents/${documents[area].documentId}/request`);
      expect({ area, status: answer.status, document: answer.body.data?.document_id }).toEqual({ area, status: 200, document: documents[area].documentId });
    }
    expect((await client.get(`/v1/documents/${documents.my.documentId}/request`)).body.data.body).toMatchObject({ IssueDate: '2026-03-15', CustomerParty: { LegalName: 'Syarikat Pembeli Bhd' } });
    // Jordan's with its defaults: the payment method, the time of day as JoFotara writes it.
    expect((await client.get(`/v1/documents/${documents.jo.documentId}/request`)).body.data.body).toMatchObject({ ...joInvoice(id('JO')), payment_method: 'cash', issue_time: expect.any(String) });

    const { links } = (await client.get(`/v1/documents/${documents.my.documentId}`)).body.data;
    const cancelled = await client.post(links.cancel.href, { ...links.cancel.body, reason: 'Wrong buyer' }, { [links.supplier_header]: documents.my.supplierId });
    expect([200, 202]).toContain(cancelled.status);
    const after = await eventually('the Malaysian document cancelled', async () => {
      const data = (await client.get(`/v1/documents/${documents.my.documentId}`)).body.data;
      return data.status === 'cancelled' ? data : undefined;
    });
    expect(after.timeline.map((t: { type: string }) => t.type).slice(-2)).toEqual(['cancellation_requested', 'cancelled']);
    expect(after.timeline.at(-2).detail).toEqual({ track: 'authority', reason: 'Wrong buyer' });
  });
});
