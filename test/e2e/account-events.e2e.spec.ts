import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat, deVat } from '../support/identifiers';
import { answerChecker } from '../support/openapi-answers';
import { AppProcess, eventually, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const id = (name: string) => `${name}-${run}`;

const beSeller = () => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
const deSupplier = (vat: string) => ({
  registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: vat }], street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE',
  contact_number: '+49301234567', contact_name: 'Erika Muster', contact_email: 'billing@teile.example',
});
const remoteBuyer = () => ({ RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] });
const beInvoice = (ID: string, CustomerParty: Record<string, unknown>, intraCommunity = false) => ({
  ID, DocumentType: '380', IssueDate: '2026-03-15', CustomerParty,
  InvoiceLines: [{
    Description: 'Widgets', PriceAmount: 40, InvoicedQuantity: 2,
    TaxType: intraCommunity ? { TaxRate: 0, TaxType: 'intra_community', TaxCountry: 'BE' } : { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' },
  }],
  TotalIncludingVat: intraCommunity ? 80 : 96.8,
});
const joSupplier = { supplier_name: 'Amman Stationery Co', supplier_tin: '12345678', default_income_source: '4419618', client_id: `device-events-${run}`, client_secret: 'secret-of-the-device', city_code: 'JO-AM' };
const joInvoice = (invoice_ref_number: string) => ({
  invoice_ref_number, issue_date: '2026-11-25', issue_time: '10-30-00', buyer_details: { buyer_name: 'Irbid Buyer', buyer_tin: '87654321', city_code: 'JO-IR' },
  lineitems: [{ description: 'Pen', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard' }],
});

interface Event {
  id: string;
  type: string;
  area: string;
  supplier_id: string;
  document_id: string;
  document_number: string;
  data: { status: string; authority?: { status: string; reference?: string; codes?: Array<{ code: string; message: string }> }; exchange?: { status: string; mls?: { responseCode: string } } };
}
interface EventsPage {
  status: string;
  data: Event[];
  next_cursor: string | null;
}

/**
 * #48 `GET /v1/events` end to end: documents sent through their areas' seed routes produce their events —
 * Belgium over Peppol (delivered to a receiver hosted here, which records its `document.received`, and to
 * another access point), Jordan cleared at once by its sandbox JoFotara (`document.reported` with its
 * number) and refused by it (`document.report_failed` with its codes). Every answer matches the OpenAPI
 * document (each event its type's JSON Schema); pages walked with `after`; filters; another tenant's key
 * sees none of them; bad queries are 400 in the one error shape.
 */
describe('#48 GET /v1/events: every area\'s documents as events', () => {
  let dataSource: DataSource;
  const apps: AppProcess[] = [];
  let client: Client;
  let other: Client;
  let checkAnswer: ReturnType<typeof answerChecker>;
  let beSupplierId: string;
  let deSupplierId: string;
  let joSupplierId: string;
  let beLocal: string;
  let beRemote: string;
  let otherDocument: string;
  let all: Event[];

  const onboard = async (as: Client, path: string, body: Record<string, unknown>) => {
    const answer = await as.post(path, body);
    expect({ path, status: answer.status }).toEqual({ path, status: 201 });
    return (answer.body.data.supplier_uuid ?? answer.body.data.participant_id) as string;
  };
  const events = async (as: Client, query = ''): Promise<EventsPage> => {
    const answer = await as.get(`/v1/events${query}`);
    expect({ query, status: answer.status }).toEqual({ query, status: 200 });
    expect(checkAnswer('get', '/v1/events', 200, answer.body)).toEqual([]);
    return answer.body as EventsPage;
  };
  /** Every event of the account, page after page from the start. */
  const everything = async (as: Client, query = '', limit = 500): Promise<{ events: Event[]; pages: number }> => {
    const seen: Event[] = [];
    let cursor: string | null = null;
    for (let pages = 1; ; pages++) {
      const page = await events(as, `?limit=${limit}${query}${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.data);
      if (page.data.length === 0) {
        expect(page.next_cursor).toBe(cursor);
        return { events: seen, pages };
      }
      cursor = page.next_cursor;
    }
  };
  const steps = (list: Event[]) => list.map((e) => `${e.area} ${e.document_number.replace(`-${run}`, '')} ${e.type} ${e.data.status}`);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, `e2e account events ${run}`);
    const { apiKey: otherKey } = await createTenant(dataSource, `e2e account events other ${run}`);
    const gateway = await startGateway({ AUTHORITY_WAIT_MS: '20000' });
    const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100', AUTHORITY_BATCH_SWEEP_MS: '100' });
    apps.push(gateway.app, startApp('delivery-worker', workerEnv), startApp('reporting-worker', workerEnv));
    client = new Client(gateway.url, apiKey);
    other = new Client(gateway.url, otherKey);
    checkAnswer = answerChecker((await client.get('/docs-json')).body);
    await untilWorkersReady(gateway, 'delivery-worker', 'reporting-worker');

    beSupplierId = await onboard(client, '/be/einvoice/onboard', beSeller());
    const receiverVat = deVat();
    deSupplierId = await onboard(client, '/de/einvoice/onboard', deSupplier(receiverVat));
    joSupplierId = await onboard(client, '/jo/supplier/onboard', joSupplier);
    const otherSupplier = await onboard(other, '/be/einvoice/onboard', beSeller());

    // Belgium to a German supplier of this account (a receiver hosted here), and to another access point.
    const localBuyer = { RegisteredName: 'Berliner Teile GmbH', address: { Street: 'Unter den Linden 1', ZipCode: '10117', City: 'Berlin', Country: 'DE' }, Identifiers: [{ Scheme: 'DE:VAT', ID: receiverVat }] };
    const local = await client.post('/be/einvoice/generate/invoice', beInvoice(id('BE-LOCAL'), localBuyer, true), { supplier_uuid: beSupplierId });
    expect(local.status).toBe(202);
    beLocal = local.body.data.DocumentID;
    const remote = await client.post('/be/einvoice/generate/invoice', beInvoice(id('BE-REMOTE'), remoteBuyer()), { supplier_uuid: beSupplierId });
    expect(remote.status).toBe(202);
    beRemote = remote.body.data.DocumentID;
    // Jordan: cleared by JoFotara before the answer; then one it refuses (sandbox: JOF-REFUSE-).
    const cleared = await client.post('/jo/einvoice/generate', joInvoice(id('JO')), { 'participant-id': joSupplierId });
    expect([200, 202]).toContain(cleared.status);
    const refused = await client.post('/jo/einvoice/generate', joInvoice(`JOF-REFUSE-${run}`), { 'participant-id': joSupplierId });
    expect(refused.status).toBe(400);
    const theirs = await other.post('/be/einvoice/generate/invoice', beInvoice(id('OTHER'), remoteBuyer()), { supplier_uuid: otherSupplier });
    expect(theirs.status).toBe(202);
    otherDocument = theirs.body.data.DocumentID;

    // Until every document reached its final step: both Belgian ones delivered, the Jordanian ones answered.
    all = await eventually('every document\'s events', async () => {
      const { events: seen } = await everything(client);
      const types = new Set(seen.map((e) => `${e.document_number.replace(`-${run}`, '')} ${e.type}`));
      const wanted = ['BE-LOCAL document.delivered', 'BE-REMOTE document.delivered', 'BE-LOCAL document.received', 'JO document.reported', 'JOF-REFUSE document.report_failed'];
      return wanted.every((w) => types.has(w)) ? seen : undefined;
    }, 120_000);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  it('each document\'s steps, in order, with its area, supplier, status and tracks', () => {
    const of = (number: string) => steps(all.filter((e) => e.document_number === id(number) || e.document_number === `${number}-${run}`));
    expect(of('BE-REMOTE')).toEqual(['be BE-REMOTE document.accepted accepted', 'be BE-REMOTE document.delivered delivered']);
    expect(of('JO')).toEqual(['jo JO document.accepted accepted', 'jo JO document.reported reported']);
    expect(of('JOF-REFUSE')).toEqual(['jo JOF-REFUSE document.accepted accepted', 'jo JOF-REFUSE document.report_failed refused']);
    // The Belgian invoice to a receiver hosted here: the sender's two steps, and the receiver's document.
    const local = all.filter((e) => e.document_number === id('BE-LOCAL'));
    expect(local.map((e) => `${e.area} ${e.type} ${e.data.status}`)).toEqual(
      expect.arrayContaining(['be document.accepted accepted', 'be document.delivered delivered', 'de document.received received']),
    );
    const delivered = local.find((e) => e.type === 'document.delivered')!;
    expect(delivered).toMatchObject({ supplier_id: beSupplierId, document_id: beLocal, data: { exchange: { status: 'delivered' } } });
    expect(all.find((e) => e.type === 'document.delivered' && e.document_id === beRemote)!.data.exchange).toMatchObject({ status: 'delivered', mls: { responseCode: 'AP' } });
    expect(local.find((e) => e.type === 'document.received')).toMatchObject({ supplier_id: deSupplierId, data: { exchange: { status: 'received' } } });
    const reported = all.find((e) => e.type === 'document.reported')!;
    expect(reported).toMatchObject({ area: 'jo', supplier_id: joSupplierId, data: { authority: { status: 'reported', reference: expect.any(String) } } });
    const failed = all.find((e) => e.type === 'document.report_failed')!;
    expect(failed.data.authority).toEqual({ status: 'refused', codes: [expect.objectContaining({ code: 'sandboxRefusal', message: expect.stringContaining('Refused') })] });
    // Each event once, each with its own id; the document's accepted event comes before its outcome.
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
    expect(all.every((e) => !('tenant_id' in e))).toBe(true);
  });

  it('pages: limit 2 walks the same events in the same order; a caught-up page answers the cursor back', async () => {
    const { events: paged, pages } = await everything(client, '', 2);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(pages).toBe(Math.ceil(all.length / 2) + 1);
    const first = await events(client, '?limit=1');
    expect(first.data.map((e) => e.id)).toEqual([all[0].id]);
    const fromFirst = await events(client, `?after=${encodeURIComponent(first.next_cursor!)}&limit=500`);
    expect(fromFirst.data.map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
  });

  it('filters by type, area and supplier', async () => {
    expect(steps((await everything(client, '&type=document.report_failed,document.reported')).events)).toEqual(['jo JO document.reported reported', 'jo JOF-REFUSE document.report_failed refused']);
    expect((await everything(client, '&area=de')).events.map((e) => e.type)).toEqual(['document.received']);
    expect((await everything(client, `&supplier_id=${joSupplierId}&area=jo,be`)).events.every((e) => e.supplier_id === joSupplierId)).toBe(true);
    expect((await everything(client, `&supplier_id=${beSupplierId}`)).events.map((e) => e.document_id)).toEqual(
      all.filter((e) => e.supplier_id === beSupplierId).map((e) => e.document_id),
    );
  });

  it('another tenant\'s key sees its own events only', async () => {
    const theirs = await eventually('the other tenant\'s events', async () => {
      const { events: seen } = await everything(other);
      return seen.some((e) => e.type === 'document.delivered') ? seen : undefined;
    }, 60_000);
    expect(theirs.every((e) => e.document_id === otherDocument)).toBe(true);
    expect(all.some((e) => e.document_id === otherDocument)).toBe(false);
  });

  it('a bad query is one 400 naming each parameter, in the one error shape', async () => {
    const answer = await client.get('/v1/events?limit=0&type=document.paid&area=xx&supplier_id=42&after=bm9wZQ&status=x');
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ status: expect.any(String), message: expect.any(String), request_id: expect.any(String) });
    expect((answer.body.errors as Array<{ path: string; code: string }>).map((e) => `${e.path} ${e.code}`).sort()).toEqual([
      'after FIELD.INVALID_VALUE', 'area FIELD.INVALID_VALUE', 'limit FIELD.INVALID_VALUE', 'status FIELD.INVALID_VALUE', 'supplier_id FIELD.INVALID_FORMAT', 'type FIELD.INVALID_VALUE',
    ]);
    expect((await client.get('/v1/events?limit=501')).status).toBe(400);
    expect((await new Client(client.url, 'sk_not_a_key').get('/v1/events')).status).toBe(401);
  });
});
