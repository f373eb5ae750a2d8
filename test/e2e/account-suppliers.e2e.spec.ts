import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat, deVat, sgUen } from '../support/identifiers';
import { freshTin } from '../support/myinvois';
import { onboardingBody as myOnboarding } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { AppProcess, eventually, startGateway } from '../support/stack';

const run = Date.now().toString(36);
const toyTaxId = () => `TOY${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

/** A Singapore supplier onboarded without a street: its standard-rated invoices fail BR-106-GST-SG until it has one. */
const sgWithoutStreet = (uen: string) => ({ registered_name: 'Lion City Traders Pte Ltd', identifiers: [{ scheme: 'SG:UEN', id: uen }], city: 'Singapore', postal_code: '048616', country: 'SG' });
const sgInvoice = (ID: string) => ({
  ID, DocumentType: 'Invoice', IssueDate: '2026-03-15',
  CustomerParty: { RegisteredName: 'IMDA', address: { Street: '10 Pasir Panjang Road', ZipCode: '117438', City: 'Singapore', Country: 'SG' }, Identifiers: [{ Scheme: 'SG:UEN', ID: sgUen() }] },
  InvoiceLines: [{ Description: 'Cloud hosting', PriceAmount: 200, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
  TotalIncludingVat: 218,
});
/** A UAE participant (its TIN: 1 and nine digits, fresh per run). */
const aeTin = () => `1${String(Date.now() % 1e9).padStart(9, '0')}`;
const aeParticipant = (tin: string) => ({
  peppol_id: `0235:${tin}`, legal_name: 'Gulf Widgets LLC', trn: `${tin}00003`, legal_id: { id: `TL-${tin}`, scheme: 'TL' },
  street_address: 'Sheikh Zayed Road 1', city: 'Dubai', emirates_code: 'DXB', country_code: 'AE',
});
/** Jordan's and Nigeria's onboarding bodies (their sandboxes take any device credentials, any password but `bad`). */
const joSupplier = () => ({
  supplier_name: 'Amman Stationery Co', supplier_tin: '12345678', default_income_source: '4419618', client_id: `device-${run}`, client_secret: 'secret-of-the-device', city_code: 'JO-AM',
});
const ngTaxpayer = () => ({
  party_name: 'Lagos Trading Ltd', tin: `${String(Date.now()).slice(-8)}-0001`, email: 'billing@lagostrading.example', password: 'portal-password-1', telephone: '+2348012345678',
  business_description: 'Wholesale of electronics', postal_address: { street_name: '12 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' },
});
const beSeller = (vat: string) => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: vat }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });

/**
 * #47 suppliers of every area in one place: the list (paged, by area), one supplier (no secret), a change
 * its area lets make under its onboarding rules, its deactivation, and SUPPLIER.EXISTS naming the supplier
 * an identifier belongs to; another account's supplier is a 404, bad input a 400 in the one error shape.
 */
describe('#47 /v1/suppliers: suppliers of every area', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let secondGateway: AppProcess;
  let client: Client;
  /** The same account through another gateway process: it hears of a supplier's change by NOTIFY. */
  let elsewhere: Client;
  let stranger: Client;
  const onboarded: Array<{ id: string; area: string }> = [];
  let sg: string;
  let sgUenValue: string;

  const onboard = async (path: string, body: Record<string, unknown>, area: string) => {
    const answer = await client.post(path, body);
    expect(answer.status).toBe(201);
    const id = (answer.body.data.supplier_uuid ?? answer.body.data.participant_id) as string;
    onboarded.unshift({ id, area });
    return id;
  };

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, `e2e account suppliers ${run}`);
    const other = await createTenant(dataSource, `e2e account suppliers stranger ${run}`);
    const started = await startGateway({ AUTHORITY_WAIT_MS: '200' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    stranger = new Client(started.url, other.apiKey);
    const second = await startGateway({ AUTHORITY_WAIT_MS: '200' });
    secondGateway = second.app;
    elsewhere = new Client(second.url, apiKey);
    // One by one, so that their order is their onboarding's.
    await onboard('/be/einvoice/onboard', beSeller(beVat()), 'be');
    await onboard('/de/einvoice/onboard', { registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: deVat() }], city: 'Berlin', country: 'DE' }, 'de');
    await onboard('/toy/einvoice/onboard', { registered_name: 'Toy Maker', tax_id: toyTaxId() }, 'toy');
    await onboard('/api/einvoice/onboard', myOnboarding({ tin_number: freshTin(), client_id: `my-${run}` }), 'my');
    await onboard('/jo/supplier/onboard', joSupplier(), 'jo');
    await onboard('/api/auth/taxpayer/login', ngTaxpayer(), 'ng');
    await onboard('/v1/participants', aeParticipant(aeTin()), 'ae');
    sgUenValue = sgUen();
    sg = await onboard('/sg/einvoice/onboard', sgWithoutStreet(sgUenValue), 'sg');
  });

  afterAll(async () => {
    await secondGateway?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('lists the suppliers of every area, newest first, and pages through them without skipping or repeating one', async () => {
    const all = await client.get('/v1/suppliers');
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ status: 'success', data: expect.any(Array), has_more: false });
    expect(all.body.data.map((s: { id: string; area: string }) => ({ id: s.id, area: s.area }))).toEqual(onboarded);
    expect(all.body.data[0]).toEqual({
      id: sg, area: 'sg', name: 'Lion City Traders Pte Ltd', identifiers: [{ scheme: 'SG:UEN', id: sgUenValue }], status: 'active', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = await client.get(`/v1/suppliers?limit=3${cursor ? `&starting_after=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((s: { id: string }) => s.id));
      if (!page.body.has_more) break;
      cursor = page.body.data.at(-1).id;
    }
    expect(seen).toEqual(onboarded.map((s) => s.id));
    const byArea = await client.get('/v1/suppliers?area=sg,toy');
    expect(byArea.body.data.map((s: { area: string }) => s.area)).toEqual(['sg', 'toy']);
    expect((await client.get('/v1/suppliers?area=ae')).body.data).toEqual([expect.objectContaining({ area: 'ae', name: 'Gulf Widgets LLC' })]);
  });

  it('shows one supplier with its onboarding fields and what may change, never a secret', async () => {
    const answer = await client.get(`/v1/suppliers/${sg}`);
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({
      id: sg, area: 'sg', status: 'active', updated_at: null,
      address: { city: 'Singapore', postal_code: '048616', country: 'SG' },
      editable_fields: expect.arrayContaining(['street', 'postal_code', 'registered_name']),
      participant_ids: [expect.stringContaining(sgUenValue.toLowerCase())],
    });
    expect(answer.body.data.editable_fields).not.toContain('identifiers');
    const secrets: Array<{ name: string }> = await dataSource.query(`SELECT name FROM supplier_secrets WHERE supplier_id = $1`, [sg]);
    expect(secrets).toEqual([]);
  });

  it('#47 BR-106-GST-SG: a Singapore supplier onboarded without a street gets one by PATCH, and its invoice then passes', async () => {
    const before = await client.post('/sg/einvoice/generate/invoice', sgInvoice(`SG-${run}-1`), { supplier_uuid: sg });
    expect(before.status).toBe(400);
    expect(before.body.errors).toEqual([expect.objectContaining({ path: 'supplier.street', code: 'BR-106-GST-SG' })]);
    const patched = await client.patch(`/v1/suppliers/${sg}`, { street: '1 Raffles Place' });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ id: sg, address: { street: '1 Raffles Place', postal_code: '048616' }, updated_at: expect.any(String) });
    const after = await client.post('/sg/einvoice/generate/invoice', sgInvoice(`SG-${run}-1`), { supplier_uuid: sg });
    expect(after.status).toBe(202);
    // A command on the supplier's stream, projected like its onboarding.
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [`supplier-${sg}`]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['SupplierOnboarded', 'SupplierUpdated']);
  });

  it('refuses to change the tax identifier, an unknown field, or a field against the area\'s onboarding rules (400)', async () => {
    const identifier = await client.patch(`/v1/suppliers/${sg}`, { identifiers: [{ scheme: 'SG:UEN', id: sgUen() }] });
    expect(identifier.status).toBe(400);
    expect(identifier.body.errors).toEqual([expect.objectContaining({ path: 'identifiers', code: 'FIELD.NOT_EDITABLE' })]);
    const rules = await client.patch(`/v1/suppliers/${sg}`, { country: 'Singapore', postal_code: '1'.repeat(11) });
    expect(rules.status).toBe(400);
    expect(rules.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['country', 'postal_code']);
    const empty = await client.patch(`/v1/suppliers/${sg}`, {});
    expect(empty.status).toBe(400);
    const toy = onboarded.find((s) => s.area === 'toy')!.id;
    const toyTax = await client.patch(`/v1/suppliers/${toy}`, { tax_id: toyTaxId() });
    expect(toyTax.body.errors).toEqual([expect.objectContaining({ path: 'tax_id', code: 'FIELD.NOT_EDITABLE' })]);
    expect((await client.get(`/v1/suppliers/${sg}`)).body.data.identifiers).toEqual([{ scheme: 'SG:UEN', id: sgUenValue }]);
  });

  it('changes a UAE participant\'s address under PINT AE\'s onboarding rules, never its Peppol id or TRN', async () => {
    const ae = onboarded.find((s) => s.area === 'ae')!.id;
    const moved = await client.patch(`/v1/suppliers/${ae}`, { street_address: 'Corniche Road 5', city: 'Abu Dhabi', emirates_code: 'AUH' });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ address: { street: 'Corniche Road 5', city: 'Abu Dhabi', county: 'AUH', country: 'AE' }, details: { emiratesCode: 'AUH' } });
    const bad = await client.patch(`/v1/suppliers/${ae}`, { emirates_code: 'XX', peppol_id: '0235:1000000000', trn: '100000000000003' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string; code: string }) => `${e.path} ${e.code}`).sort()).toEqual(['peppol_id FIELD.NOT_EDITABLE', 'trn FIELD.NOT_EDITABLE']);
  });

  /** A supplier's sealed secrets as stored: a change must leave them exactly so. */
  const sealed = (supplier: string) => dataSource.query(`SELECT name, sealed FROM supplier_secrets WHERE supplier_id = $1 ORDER BY name`, [supplier]);
  const issuesOf = (answer: { body: { errors: Array<{ path: string; code: string }> } }) => answer.body.errors.map((e) => `${e.path} ${e.code}`).sort();

  it('changes a Malaysian supplier\'s name, activity, address and phone under MyInvois\'s onboarding rules; never its TIN, other ids or LHDN credentials', async () => {
    const my = onboarded.find((s) => s.area === 'my')!.id;
    const before = (await client.get(`/v1/suppliers/${my}`)).body.data;
    expect(before.editable_fields).toEqual(['registered_name', 'msic_code', 'industry', 'street', 'city', 'state', 'country', 'contact_number']);
    const changed = await client.patch(`/v1/suppliers/${my}`, { registered_name: 'Kedai Runcit Jaya Sdn Bhd', msic_code: '47191', street: 'No. 8, Jalan Ampang', state: '10', contact_number: '+60387654321' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      name: 'Kedai Runcit Jaya Sdn Bhd', identifiers: before.identifiers, address: { street: 'No. 8, Jalan Ampang', city: 'Kuala Lumpur', country: 'MYS' },
      contact: { phone: '+60387654321' }, details: { msicCode: '47191', state: '10', industry: before.details.industry, otherIds: before.details.otherIds },
    });
    const refused = await client.patch(`/v1/suppliers/${my}`, { tin_number: freshTin(), other_ids: { brn: '202001234568' }, client_secret: 'another' });
    expect(refused.status).toBe(400);
    expect(issuesOf(refused)).toEqual(['client_secret FIELD.NOT_EDITABLE', 'other_ids FIELD.NOT_EDITABLE', 'tin_number FIELD.NOT_EDITABLE']);
    const rules = await client.patch(`/v1/suppliers/${my}`, { msic_code: '4711', country: 'Malaysia' });
    expect(rules.status).toBe(400);
    expect(rules.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['country', 'msic_code']);
    expect((await client.get(`/v1/suppliers/${my}`)).body.data.details.msicCode).toBe('47191');
  });

  it('changes a Jordanian supplier\'s name, city code and phone under JoFotara\'s onboarding rules; its device credentials stay sealed as onboarded', async () => {
    const jo = onboarded.find((s) => s.area === 'jo')!.id;
    const secrets = await sealed(jo);
    expect(secrets.map((s: { name: string }) => s.name)).toEqual(['jofotara.client_id', 'jofotara.client_secret']);
    const changed = await client.patch(`/v1/suppliers/${jo}`, { supplier_name: 'Irbid Stationery Co', city_code: 'JO-IR', phone: '+962790000001', postal_code: '21110' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      name: 'Irbid Stationery Co', identifiers: [{ scheme: 'JO:TIN', id: '12345678' }], address: { county: 'JO-IR', postal_code: '21110', country: 'JO' },
      contact: { phone: '+962790000001' }, details: { incomeSource: '4419618', invoiceClass: 'general_sales' },
    });
    expect(await sealed(jo)).toEqual(secrets);
    // `null` removes an optional field (JSON Merge Patch).
    expect((await client.patch(`/v1/suppliers/${jo}`, { postal_code: null })).body.data.address).toEqual({ county: 'JO-IR', country: 'JO' });
    const bad = await client.patch(`/v1/suppliers/${jo}`, { city_code: 'Irbid', default_income_source: 'main' });
    expect(bad.status).toBe(400);
    expect(issuesOf(bad)).toEqual(['city_code JOFOTARA.CITY_CODE', 'default_income_source JOFOTARA.INCOME_SOURCE']);
    const refused = await client.patch(`/v1/suppliers/${jo}`, { supplier_tin: '87654321', client_id: 'other-device', client_secret: 'other' });
    expect(issuesOf(refused)).toEqual(['client_id FIELD.NOT_EDITABLE', 'client_secret FIELD.NOT_EDITABLE', 'supplier_tin FIELD.NOT_EDITABLE']);
  });

  it('changes a Nigerian taxpayer\'s name and postal address under FIRS\'s onboarding rules; never its TIN nor its FIRS login (e-mail, password)', async () => {
    const ng = onboarded.find((s) => s.area === 'ng')!.id;
    const before = (await client.get(`/v1/suppliers/${ng}`)).body.data;
    const secrets = await sealed(ng);
    const changed = await client.patch(`/v1/suppliers/${ng}`, { party_name: 'Lagos Trading Nigeria Ltd', postal_address: { street_name: '3 Broad Street', city_name: 'Lagos Island', country: 'NG' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({
      name: 'Lagos Trading Nigeria Ltd', identifiers: before.identifiers, address: { street: '3 Broad Street', city: 'Lagos Island', country: 'NG' },
      contact: { email: 'billing@lagostrading.example', phone: '+2348012345678' },
      // What FIRS told at the login stays with the description.
      details: { businessDescription: 'Wholesale of electronics', businessId: before.details.businessId, serviceId: before.details.serviceId },
    });
    expect(changed.body.data.address.postal_code).toBeUndefined();
    expect(await sealed(ng)).toEqual(secrets);
    const bad = await client.patch(`/v1/suppliers/${ng}`, { postal_address: { city_name: 'Abuja' }, telephone: '08012345678' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['postal_address.country', 'telephone']);
    const refused = await client.patch(`/v1/suppliers/${ng}`, { tin: '87654321-0001', email: 'new@lagostrading.example', password: 'another' });
    expect(issuesOf(refused)).toEqual(['email FIELD.NOT_EDITABLE', 'password FIELD.NOT_EDITABLE', 'tin FIELD.NOT_EDITABLE']);
  });

  it('onboarding an identifier the account onboarded already: 409 SUPPLIER.EXISTS naming the supplier', async () => {
    const again = await client.post('/sg/einvoice/onboard', { ...sgWithoutStreet(sgUenValue), registered_name: 'Someone Else Pte Ltd' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: 'conflict', errors: [expect.objectContaining({ code: 'SUPPLIER.EXISTS' })], data: { supplier_id: sg } });
    const toy = onboarded.find((s) => s.area === 'toy')!.id;
    const toyRow = (await client.get(`/v1/suppliers/${toy}`)).body.data;
    const toyAgain = await client.post('/toy/einvoice/onboard', { registered_name: 'Toy Maker 2', tax_id: toyRow.identifiers[0].id });
    expect(toyAgain.status).toBe(409);
    expect(toyAgain.body.data).toEqual({ supplier_id: toy });
    // Another account is told nothing of it: its own supplier with that identifier (non-Peppol area), or the participant's 409.
    const theirs = await stranger.post('/toy/einvoice/onboard', { registered_name: 'Toy Maker 3', tax_id: toyRow.identifiers[0].id });
    expect(theirs.status).toBe(201);
  });

  it('another account\'s supplier is a 404 to every route, as an unknown one', async () => {
    for (const answer of [
      await stranger.get(`/v1/suppliers/${sg}`),
      await stranger.patch(`/v1/suppliers/${sg}`, { street: 'Elsewhere' }),
      await stranger.request('DELETE', `/v1/suppliers/${sg}`),
      await client.get('/v1/suppliers/00000000-0000-4000-8000-000000000000'),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.errors[0].code).toBe('SUPPLIER.NOT_FOUND');
    }
    const theirs = await stranger.get('/v1/suppliers');
    expect(theirs.body.data.map((s: { id: string }) => s.id)).not.toContain(sg);
  });

  it('bad input is a 400 in the one error shape, naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['/v1/suppliers?limit=0', 'limit'],
      ['/v1/suppliers?limit=101', 'limit'],
      ['/v1/suppliers?area=xx', 'area'],
      ['/v1/suppliers?areas=sg', 'areas'],
      ['/v1/suppliers?starting_after=not-a-uuid', 'starting_after'],
      [`/v1/suppliers?starting_after=${(await stranger.get('/v1/suppliers')).body.data[0].id}`, 'starting_after'],
      ['/v1/suppliers/not-a-uuid', 'id'],
    ];
    for (const [path, at] of cases) {
      const answer = await client.get(path);
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      expect(answer.body).toMatchObject({ status: 'bad_request', message: expect.any(String), errors: [expect.objectContaining({ path: at, severity: 'error' })] });
    }
  });

  it('DELETE deactivates: new documents are a 409 SUPPLIER.INACTIVE, reads keep working, again is a 204', async () => {
    const be = onboarded.find((s) => s.area === 'be')!.id;
    const beVatValue = (await client.get(`/v1/suppliers/${be}`)).body.data.identifiers[0].id;
    const invoice = { ID: `BE-${run}-1`, DocumentType: '380', IssueDate: '2026-03-15',
      CustomerParty: { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] },
      InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
      TotalIncludingVat: 121 };
    const accepted = await client.post('/be/einvoice/generate/invoice', invoice, { supplier_uuid: be });
    expect(accepted.status).toBe(202);
    // The other gateway has the supplier in its cache now.
    expect((await elsewhere.post('/be/einvoice/generate/invoice', { ...invoice, ID: `BE-${run}-E1` }, { supplier_uuid: be })).status).toBe(202);
    const removed = await client.request('DELETE', `/v1/suppliers/${be}`);
    expect(removed.status).toBe(204);
    const refused = await client.post('/be/einvoice/generate/invoice', { ...invoice, ID: `BE-${run}-2` }, { supplier_uuid: be });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('SUPPLIER.INACTIVE');
    // ...and drops it when the deactivation's NOTIFY arrives, well before its cache entry would expire (30 s).
    let attempt = 1;
    const refusedElsewhere = await eventually('the other gateway refuses the deactivated supplier', async () => {
      attempt += 1;
      const answer = await elsewhere.post('/be/einvoice/generate/invoice', { ...invoice, ID: `BE-${run}-E${attempt}` }, { supplier_uuid: be });
      return answer.status === 409 ? answer : undefined;
    }, 5_000);
    expect(refusedElsewhere.body.errors[0].code).toBe('SUPPLIER.INACTIVE');
    const read = await client.get(`/be/einvoice/get-document/${accepted.body.data.DocumentID}`, { supplier_uuid: be });
    expect(read.status).toBe(200);
    expect((await client.get(`/v1/suppliers/${be}`)).body.data.status).toBe('inactive');
    expect((await client.request('DELETE', `/v1/suppliers/${be}`)).status).toBe(204);
    const change = await client.patch(`/v1/suppliers/${be}`, { street: 'Wetstraat 16' });
    expect(change.status).toBe(409);
    expect(change.body.errors[0].code).toBe('SUPPLIER.INACTIVE');
    // Still its identifier's: onboarding it again names it.
    const again = await client.post('/be/einvoice/onboard', beSeller(beVatValue));
    expect(again.status).toBe(409);
    expect(again.body.data).toEqual({ supplier_id: be });
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [`supplier-${be}`]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['SupplierOnboarded', 'SupplierDeactivated']);
  });
});
