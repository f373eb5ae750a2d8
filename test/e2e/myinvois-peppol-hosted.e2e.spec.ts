// Malaysian suppliers onboarded here are Peppol participants here (0230 + TIN): a PINT MY copy
// one sends to another is delivered to the hosted receiver once MyInvois says Valid, and the
// participant is in the lookup, the SMP and the capabilities with the PINT MY document types.
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { customer, invoiceBody, line, onboardingBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { freshTin, myInvoisDocuments } from '../support/myinvois';
import { AppProcess, eventually, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const enc = encodeURIComponent;
const pidOf = (tin: string) => `iso6523-actorid-upis::0230:${tin.toLowerCase()}`;
const PINT_MY_INVOICE = 'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:peppol:pint:billing-1@my-1::2.1';
const PINT_MY_CREDIT_NOTE = 'peppol-doctype-wildcard::urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:peppol:pint:billing-1@my-1::2.1';
const BIS_INVOICE =
  'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const seedAnswer = { status: 'success', message: 'Supplier onboarded.', data: { supplier_uuid: expect.any(String) } };

describe('Malaysian suppliers as Peppol participants here: onboarding, lookup, SMP, hosted delivery of PINT MY copies', () => {
  const run = Date.now().toString(36);
  const id = (name: string) => `${name}-${run}`;
  let dataSource: DataSource;
  let client: Client;
  let other: Client;
  let anonymous: Client;
  const apps: AppProcess[] = [];
  const tinS = freshTin();
  let tinB: string;
  let supplierS: string;
  let supplierB: string;

  beforeAll(async () => {
    do tinB = freshTin();
    while (tinB === tinS);
    ({ dataSource } = await openTestDatabase());
    const [a, b] = await Promise.all([createTenant(dataSource, 'e2e myinvois hosted'), createTenant(dataSource, 'e2e myinvois hosted other')]);
    const gateway = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' });
    apps.push(
      gateway.app,
      startApp('reporting-worker', testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000' })),
      startApp('delivery-worker'),
    );
    await untilWorkersReady(gateway, 'reporting-worker', 'delivery-worker');
    client = new Client(gateway.url, a.apiKey);
    other = client.withKey(b.apiKey);
    anonymous = client.withKey(undefined);
    const s = await client.post('/api/einvoice/onboard', onboardingBody({ registered_name: 'Kedai Penjual Sdn Bhd', tin_number: tinS, client_id: `seller-${run}` }));
    const bb = await client.post('/api/einvoice/onboard', onboardingBody({ registered_name: 'Syarikat Pembeli Bhd', tin_number: tinB, client_id: `buyer-${run}` }));
    expect([s.status, bb.status]).toEqual([201, 201]);
    // The seed's answer, unchanged.
    expect([s.body, bb.body]).toEqual([seedAnswer, seedAnswer]);
    supplierS = s.body.data.supplier_uuid;
    supplierB = bb.body.data.supplier_uuid;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  /** B's lookup once the delivery-worker has activated it in the (sandbox) SML. */
  const activated = (pid: string) =>
    eventually(`${pid} activated`, async () => {
      const answer = await client.get(`/1.0/participant/lookup?pid=${enc(pid)}`);
      return answer.body?.Participants?.Participant?.Meta?.SmlActivation === true ? answer : undefined;
    }, 30_000);

  it('onboarding registers the PINT MY participant and requests its SML activation: the lookup lists it with the PINT MY processes', async () => {
    const lookup = await activated(pidOf(tinB));
    expect(lookup.status).toBe(200);
    expect(lookup.body.Participants.Participant).toMatchObject({
      Meta: { ParticipantIdentifier: { Scheme: 'iso6523-actorid-upis', IdentifierCode: '0230', IdentifierValue: tinB.toLowerCase() }, SmlActivation: true },
      BusinessCard: { BusinessEntity: { Names: { Name: [{ Name: 'Syarikat Pembeli Bhd', Language: null }] }, CountryCode: 'MY' } },
      AccessPointConfigurations: { AccessPointConfiguration: { MetadataProfileIds: { ProfileId: ['urn:peppol:bis:billing', 'urn:peppol:bis:selfbilling'] } } },
    });
    // The delivery-worker's receiver directory points at B.
    expect(await dataSource.query(`SELECT supplier_id FROM supplier_participants WHERE participant_id = $1`, [pidOf(tinB)])).toEqual([{ supplier_id: supplierB }]);
  });

  it('the SMP and the capabilities serve the PINT MY document types to a Malaysian participant, not BIS Billing', async () => {
    await activated(pidOf(tinB));
    const pid = enc(pidOf(tinB));
    const group = await anonymous.get(`/smp/${pid}`);
    expect(group.status).toBe(200);
    expect(group.body).toContain(`/smp/${pid}/services/${enc(PINT_MY_INVOICE)}`);
    expect(group.body).toContain(`/smp/${pid}/services/${enc(PINT_MY_CREDIT_NOTE)}`);
    expect(group.body).not.toContain(enc(BIS_INVOICE));
    expect(group.body.match(/<smp:ServiceMetadataReference /g)).toHaveLength(4);

    const service = await anonymous.get(`/smp/${pid}/services/${enc(PINT_MY_CREDIT_NOTE)}`);
    expect(service.status).toBe(200);
    expect(service.body).toContain('<id:DocumentIdentifier scheme="peppol-doctype-wildcard">urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:peppol:pint:billing-1@my-1::2.1</id:DocumentIdentifier>');
    expect(service.body).toContain('<id:ProcessIdentifier scheme="cenbii-procid-ubl">urn:peppol:bis:billing</id:ProcessIdentifier>');
    const bis = await anonymous.get(`/smp/${pid}/services/${enc(BIS_INVOICE)}`);
    expect(bis.status).toBe(404);
    expect(bis.body.errors[0].code).toBe('SMP.DOCUMENT_TYPE_NOT_FOUND');

    const yes = await anonymous.get(`/1.0/participant/${pid}/capabilities?documentTypeId=${enc(PINT_MY_INVOICE)}`);
    expect(yes.body.data).toMatchObject({ canReceive: true, reason: 'SUPPORTED', message: expect.stringContaining('PINT MY Invoice') });
    const no = await anonymous.get(`/1.0/participant/${pid}/capabilities?documentTypeId=${enc(BIS_INVOICE)}`);
    expect(no.body.data).toMatchObject({ canReceive: false, reason: 'DOCUMENT_TYPE.NOT_SUPPORTED' });
  });

  it('S sends B an invoice with transport_mode: peppol: once MyInvois says Valid it is Delivered to B hosted here, whose side has the DocumentReceived', async () => {
    const body = invoiceBody({ ID: id('S-TO-B'), CustomerParty: { ...customer, CustomerTIN: tinB } });
    const answer = await client.post('/api/einvoice/generate/invoice', body, { supplier_uuid: supplierS, transport_mode: 'peppol' });
    expect(answer.status).toBe(200);
    const done = await eventually('valid and delivered', async () => {
      const data = (await myInvoisDocuments(client, () => supplierS).stateOf(id('S-TO-B'))).body?.data;
      return data?.state === 'valid' && data.peppol?.deliveryStatus === 'Delivered' ? data : undefined;
    }, 30_000);
    const copyId: string = done.peppol.documentId;

    const [sent] = await dataSource.query(`SELECT delivery FROM documents WHERE id = $1`, [copyId]);
    expect(sent.delivery).toMatchObject({ channel: 'local', receiverParticipantId: pidOf(tinB), receivedDocumentId: expect.any(String) });
    const received = await dataSource.query(
      `SELECT d.id, d.tenant_id, d.area, d.document_number, d.delivery_status, e.data->>'xml' AS xml FROM documents d JOIN events e ON e.stream_id = 'document-' || d.id AND e.stream_position = 1 WHERE d.supplier_id = $1 AND d.direction = 'incoming' AND d.source_document_id = $2`,
      [supplierB, copyId],
    );
    expect(received).toEqual([expect.objectContaining({ id: sent.delivery.receivedDocumentId, area: 'my', document_number: id('S-TO-B'), delivery_status: 'Delivered' })]);
    expect(received[0].xml).toContain('<cbc:CustomizationID>urn:peppol:pint:billing-1@my-1</cbc:CustomizationID>');
    const events = await dataSource.query(`SELECT type, data->>'senderParticipantId' AS sender FROM events WHERE stream_id = $1`, [`document-${received[0].id}`]);
    expect(events).toEqual([{ type: 'DocumentReceived', sender: pidOf(tinS) }]);
  });

  it('a self-billed document B issues as buyer goes to the seller S, hosted here (PINT MY self-billing)', async () => {
    const sellerS = {
      LegalName: 'Kedai Penjual Sdn Bhd', SupplierTIN: tinS, SupplierBRN: '202001234567', CityName: 'Kuala Lumpur',
      AddressLines: ['Lot 66, Bangunan Merdeka'], CountrySubentityCode: '14', CountryCode: 'MYS', Telephone: '+60123456789',
    };
    const { CustomerParty: _buyer, ...rest } = invoiceBody({ ID: id('SELF'), InvoiceLines: [line('Oil palm fruit', 1000, 0.8, [{ TaxType: '06' }])] });
    const answer = await client.post('/api/einvoice/generate/invoice/self-billed', { ...rest, SupplierParty: sellerS }, { supplier_uuid: supplierB, transport_mode: 'peppol' });
    expect(answer.status).toBe(200);
    const done = await eventually('valid and delivered', async () => {
      const data = (await myInvoisDocuments(client, () => supplierB).stateOf(id('SELF'))).body?.data;
      return data?.state === 'valid' && data.peppol?.deliveryStatus === 'Delivered' ? data : undefined;
    }, 30_000);
    const received = await dataSource.query(
      `SELECT e.data->>'xml' AS xml FROM documents d JOIN events e ON e.stream_id = 'document-' || d.id AND e.stream_position = 1 WHERE d.supplier_id = $1 AND d.direction = 'incoming' AND d.source_document_id = $2`,
      [supplierS, done.peppol.documentId],
    );
    expect(received).toHaveLength(1);
    expect(received[0].xml).toContain('<cbc:CustomizationID>urn:peppol:pint:selfbilling-1@my-1</cbc:CustomizationID>');
  });

  describe('a TIN whose participant is registered here already: the MyInvois onboarding succeeds without it (a receiver is in exactly one SMP)', () => {
    const notRegistered = (pid: string) => ({
      status: 'success',
      message: expect.stringContaining(`${pid} is already registered with this access point`),
      data: { supplier_uuid: expect.any(String) },
    });

    it('another tenant onboarding B\'s TIN: 201 with the seed\'s answer, its message says so; the participant stays B\'s', async () => {
      const answer = await other.post('/api/einvoice/onboard', onboardingBody({ tin_number: tinB, client_id: `other-${run}` }));
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual(notRegistered(pidOf(tinB)));
      // The other tenant's supplier is onboarded for MyInvois...
      expect(await dataSource.query(`SELECT area FROM suppliers WHERE id = $1`, [answer.body.data.supplier_uuid])).toEqual([{ area: 'my' }]);
      // ...but does not hold the participant: not in its lookup, and deliveries still go to B.
      const lookup = await other.get(`/1.0/participant/lookup?pid=${enc(pidOf(tinB))}`);
      expect(lookup.status).toBe(404);
      expect(lookup.body.errors[0]).toMatchObject({ path: 'pid', code: 'PARTICIPANT.NOT_FOUND' });
      expect(await dataSource.query(`SELECT supplier_id FROM supplier_participants WHERE participant_id = $1`, [pidOf(tinB)])).toEqual([{ supplier_id: supplierB }]);
    });

    it('a participant created through /1.0/participant first: the supplier onboarded later does not take it over', async () => {
      const tin = freshTin();
      const created = await client.post('/1.0/participant', {
        participantIdentifier: pidOf(tin),
        businessEntity: [{ names: { name: [{ language: 'ms', name: 'Syarikat Lain Bhd' }] }, countryCode: 'MY' }],
      });
      expect(created.status).toBe(201);
      const answer = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: tin, client_id: `api-first-${run}` }));
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual(notRegistered(pidOf(tin)));
      expect(await dataSource.query(`SELECT supplier_id FROM supplier_participants WHERE participant_id = $1`, [pidOf(tin)])).toEqual([]);
    });

    it('a generic TIN names no one: onboarded, no participant', async () => {
      const answer = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: 'EI00000000010', client_id: `generic-${run}` }));
      expect(answer.status).toBe(201);
      expect(answer.body).toEqual(seedAnswer);
      expect(await dataSource.query(`SELECT participant_id FROM supplier_participants WHERE supplier_id = $1`, [answer.body.data.supplier_uuid])).toEqual([]);
    });
  });
});
