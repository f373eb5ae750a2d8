import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { MLS_DOCUMENT_TYPE_ID, MLS_PROCESS_ID, buildMls, parseMls } from '../../libs/areas/src/peppol-ubl/mls';
import { as4MessageId } from '../../libs/domain/src/document/events';
import { RECEIVERS, StandInEngine } from '../fakes/as4-engine/server';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { TEST_KEYSTORE_PASSWORD, makeTestKeystores } from '../support/peppol-keystores';
import { recordSecret } from '../support/secrets';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const SECRET = 'engine-secret-for-tests';
const OUR_AP = '0242:000001'; // the seat of the test AP certificate, PBE000001
const THEIR_AP = '0242:000222';
const BIS_INVOICE = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BIS_PROCESS = 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const seller = () => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
const invoice = (ID: string, vat: string) => ({
  ID, DocumentType: '380', IssueDate: '2026-03-15',
  CustomerParty: { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: vat }] },
  InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
  TotalIncludingVat: 121,
});
/** The Belgian VAT number of a participant id `iso6523-actorid-upis::9925:be0123456749`. */
const vatOf = (participantId: string) => participantId.split(':').pop()!.toUpperCase();

/**
 * #46 live Peppol, the gateway and worker side, against a stand-in of the AS4 engine's control API
 * (test/fakes/as4-engine): a document goes out as the engine is asked to send it and becomes Sent, then
 * Delivered or Failed when the receiving access point's MLS comes in; what another access point sends a
 * supplier hosted here is checked, recorded once, and answered with an MLS sent through the engine.
 */
describe('#46 live Peppol through the AS4 engine (stand-in)', () => {
  let dataSource: DataSource;
  let client: Client;
  let engine: StandInEngine;
  let gatewayUrl: string;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e live peppol');
    engine = new StandInEngine(SECRET);
    const engineUrl = await engine.start();
    // Live mode's SMP publishes this AP's endpoint and certificate, signed (smp-signed.e2e.spec.ts): a test PKI.
    const pki = makeTestKeystores();
    [TEST_KEYSTORE_PASSWORD, pki.ap.key, pki.smp.key].forEach(recordSecret);
    const live = {
      PEPPOL_MODE: 'live', AS4_ENGINE_URL: engineUrl, AS4_ENGINE_SECRET: SECRET, PEPPOL_SERVICE_PROVIDER_ID: OUR_AP, PEPPOL_SERVICE_PROVIDER_COUNTRY: 'BE',
      AS4_PUBLIC_URL: 'https://ap.e2e.example/as4',
      PEPPOL_AP_KEYSTORE: pki.ap.p12, PEPPOL_AP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
      PEPPOL_SMP_KEYSTORE: pki.smp.p12, PEPPOL_SMP_KEYSTORE_PASSWORD: TEST_KEYSTORE_PASSWORD,
    };
    const gateway = await startGateway(live);
    gatewayUrl = gateway.url;
    apps.push(gateway.app, startApp('delivery-worker', testEnv(live)), startApp('webhook-dispatcher'));
    client = new Client(gateway.url, apiKey);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await engine?.stop();
    await dataSource?.destroy();
  });

  async function onboard(): Promise<{ supplier: string; participantId: string }> {
    const answer = await client.post('/be/einvoice/onboard', seller());
    expect(answer.status).toBe(201);
    const supplier: string = answer.body.data.supplier_uuid;
    const [row] = await dataSource.query(`SELECT participant_id FROM supplier_participants WHERE supplier_id = $1`, [supplier]);
    return { supplier, participantId: row.participant_id };
  }

  const status = async (supplier: string, documentId: string) =>
    (await client.get(`/be/einvoice/delivery-status/${documentId}`, { supplier_uuid: supplier })).body.data;

  const inbound = (body: Record<string, unknown>, secret = SECRET) =>
    fetch(`${gatewayUrl}/internal/peppol/inbound`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-engine-secret': secret }, body: JSON.stringify(body) })
      .then(async (res) => ({ status: res.status, body: await res.json() }));

  const mlsFor = (documentId: string, responseCode: 'AP' | 'RE', n: number) => ({
    messageId: `mls-${documentId}-${n}@their-ap`,
    senderParticipantId: `iso6523-actorid-upis::${THEIR_AP}`,
    receiverParticipantId: `iso6523-actorid-upis::${OUR_AP}`,
    documentTypeId: MLS_DOCUMENT_TYPE_ID,
    processId: MLS_PROCESS_ID,
    countryC1: 'DE',
    instanceIdentifier: `mls-instance-${documentId}-${n}`,
    payload: buildMls({
      id: `mls-${n}`, issuedAt: new Date().toISOString(), sender: THEIR_AP, receiver: OUR_AP, responseCode, messageId: documentId,
      ...(responseCode === 'RE' ? { description: 'Rejected: BR-CO-15 broken.', issues: [{ location: 'NA', description: '[BR-CO-15] totals', reason: 'BV' as const }] } : { issues: [] }),
    }),
    receivedAt: new Date().toISOString(),
  });

  async function submit(supplier: string, buyerVat: string): Promise<string> {
    const submitted = await client.post('/be/einvoice/generate/invoice', invoice(`LIVE-${Date.now()}-${Math.random()}`.slice(0, 40), buyerVat), { supplier_uuid: supplier, transport_mode: 'peppol' });
    expect(submitted.status).toBe(202);
    return submitted.body.data.DocumentID;
  }

  it('sends a BE invoice through the engine: Sent on its receipt, Delivered on the MLS AP; a second MLS changes nothing', async () => {
    const { supplier, participantId } = await onboard();
    const buyer = beVat();
    const documentId = await submit(supplier, buyer);
    await eventually('Sent', async () => ((await status(supplier, documentId)).DeliveryStatus === 'Sent' ? true : undefined));
    const sent = engine.sent.filter((m) => m.instanceIdentifier === documentId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      messageId: as4MessageId(documentId),
      senderParticipantId: participantId,
      receiverParticipantId: `iso6523-actorid-upis::9925:${buyer.toLowerCase()}`,
      documentTypeId: BIS_INVOICE,
      processId: BIS_PROCESS,
      countryC1: 'BE',
    });
    expect(sent[0].payload).toContain(`<cbc:UUID>${documentId}</cbc:UUID>`);

    expect(await inbound(mlsFor(documentId, 'AP', 1))).toEqual({ status: 200, body: { status: 'accepted' } });
    expect((await status(supplier, documentId)).DeliveryStatus).toBe('Delivered');
    expect(await inbound(mlsFor(documentId, 'RE', 2))).toEqual({ status: 200, body: { status: 'duplicate' } });
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = $1 ORDER BY stream_position`, [`document-${documentId}`]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(['DocumentSubmitted', 'DocumentSent', 'DocumentDelivered']);
  });

  it('an MLS RE makes the document Failed with the receiver\'s reason; a receiver no SMP knows fails at once', async () => {
    const { supplier } = await onboard();
    const rejected = await submit(supplier, beVat());
    await eventually('Sent', async () => ((await status(supplier, rejected)).DeliveryStatus === 'Sent' ? true : undefined));
    expect((await inbound(mlsFor(rejected, 'RE', 1))).body).toEqual({ status: 'accepted' });
    expect(await status(supplier, rejected)).toMatchObject({ DeliveryStatus: 'Failed', DeliveryFailure: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: 'Rejected: BR-CO-15 broken.' } });

    const unknown = await submit(supplier, vatOf(RECEIVERS.unknown));
    await eventually('Failed', async () => ((await status(supplier, unknown)).DeliveryStatus === 'Failed' ? true : undefined));
    expect((await status(supplier, unknown)).DeliveryFailure.code).toBe('PEPPOL.RECEIVER_NOT_FOUND');
  });

  it('receives a document for a supplier hosted here: checked, recorded once, answered with an MLS through the engine', async () => {
    const { supplier: sender } = await onboard();
    const { supplier: receiver, participantId } = await onboard();
    // A BIS 3.0 invoice as this service renders one: the payload another access point would send.
    const source = await submit(sender, beVat());
    const xml: string = (await client.get(`/be/einvoice/get-document/${source}/xml`, { supplier_uuid: sender })).body;
    const messageId = `received-${source}@their-ap`;
    const message = {
      messageId, conversationId: `conv-${source}`, senderParticipantId: 'iso6523-actorid-upis::9925:be0999999980', receiverParticipantId: participantId,
      documentTypeId: BIS_INVOICE, processId: BIS_PROCESS, countryC1: 'BE', instanceIdentifier: `instance-${source}`, payload: xml,
      receivedAt: new Date().toISOString(), mlsTo: THEIR_AP,
    };

    expect((await inbound(message, 'not-the-secret')).status).toBe(401);
    expect(await inbound({ ...message, receiverParticipantId: 'iso6523-actorid-upis::9925:be0000000097' })).toEqual({ status: 404, body: { code: 'PEPPOL.RECEIVER_NOT_SERVICED', message: expect.any(String) } });
    expect(await inbound(message)).toEqual({ status: 200, body: { status: 'accepted' } });
    expect(await inbound(message)).toEqual({ status: 200, body: { status: 'duplicate' } });

    const received = await dataSource.query(`SELECT id, direction, delivery_status FROM documents WHERE supplier_id = $1`, [receiver]);
    expect(received).toEqual([{ id: expect.any(String), direction: 'incoming', delivery_status: 'Delivered' }]);
    const read = await client.get(`/be/einvoice/get-document/${received[0].id}/xml`, { supplier_uuid: receiver });
    expect(read.body).toBe(xml);

    const mls = await eventually('the MLS sent', async () => engine.sent.find((m) => m.documentTypeId === MLS_DOCUMENT_TYPE_ID && parseMls(m.payload).messageId === message.instanceIdentifier));
    expect(mls).toMatchObject({ senderParticipantId: `iso6523-actorid-upis::${OUR_AP}`, receiverParticipantId: `iso6523-actorid-upis::${THEIR_AP}`, processId: MLS_PROCESS_ID, countryC1: 'BE' });
    expect(parseMls(mls.payload)).toMatchObject({ responseCode: 'AP', sender: OUR_AP, receiver: THEIR_AP });
  });

  it('answers a payload that breaks its rules with 400 and its rule, records nothing for the receiver, and sends an MLS RE (BV, SV)', async () => {
    const { supplier: sender } = await onboard();
    const { supplier: receiver, participantId } = await onboard();
    const source = await submit(sender, beVat());
    const xml: string = (await client.get(`/be/einvoice/get-document/${source}/xml`, { supplier_uuid: sender })).body;
    const base = {
      senderParticipantId: 'iso6523-actorid-upis::9925:be0999999980', receiverParticipantId: participantId, documentTypeId: BIS_INVOICE,
      processId: BIS_PROCESS, countryC1: 'BE', receivedAt: new Date().toISOString(), mlsTo: THEIR_AP,
    };
    const noNumber = { ...base, messageId: `bv-${source}`, instanceIdentifier: `bv-${source}`, payload: xml.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, '') };
    expect(await inbound(noNumber)).toEqual({ status: 400, body: { code: 'BR-02', message: expect.stringContaining('BR-02') } });
    const notXml = { ...base, messageId: `sv-${source}`, instanceIdentifier: `sv-${source}`, payload: 'not xml' };
    expect(await inbound(notXml)).toEqual({ status: 400, body: { code: 'PEPPOL.PAYLOAD_NOT_XML', message: expect.any(String) } });
    // Posted again (the engine retried): no second MLS.
    expect(await inbound(notXml)).toEqual({ status: 200, body: { status: 'duplicate' } });

    expect(await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1`, [receiver])).toEqual([]);
    for (const [instance, reason] of [[noNumber.instanceIdentifier, 'BV'], [notXml.instanceIdentifier, 'SV']] as const) {
      const mls = await eventually(`the MLS RE ${reason}`, async () => engine.sent.find((m) => m.documentTypeId === MLS_DOCUMENT_TYPE_ID && parseMls(m.payload).messageId === instance));
      expect(parseMls(mls.payload)).toMatchObject({ responseCode: 'RE', issues: [expect.objectContaining({ reason })] });
    }
    expect(engine.sent.filter((m) => m.documentTypeId === MLS_DOCUMENT_TYPE_ID && parseMls(m.payload).messageId === notXml.instanceIdentifier)).toHaveLength(1);
  });
});
