import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { AppProcess, startGateway } from '../support/stack';

const SECRET = 'engine-secret-for-body-limit-tests';
const MiB = 1024 * 1024;
const BIS_INVOICE = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BIS_PROCESS = 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** A UBL invoice with a PDF of `bytes` embedded (BT-125), where UBL puts AdditionalDocumentReference: before the seller. */
function withAttachment(xml: string, bytes: number): string {
  const pdf = Buffer.alloc(bytes, '%PDF-1.7 widgets\n').toString('base64');
  const reference = `<cac:AdditionalDocumentReference><cbc:ID>spec-1</cbc:ID><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="application/pdf" filename="spec.pdf">${pdf}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>`;
  expect(xml).toContain('<cac:AccountingSupplierParty>');
  return xml.replace('<cac:AccountingSupplierParty>', `${reference}<cac:AccountingSupplierParty>`);
}

/**
 * #46: the AS4 engine posts a whole received Peppol document to `POST /internal/peppol/inbound`, far more
 * than the API's 1 MiB (BODY_LIMIT_BYTES). That route has its own limit (AS4_INBOUND_BODY_LIMIT_BYTES,
 * default KAFKA_MAX_MESSAGE_BYTES, 32 MiB) through the gateway's one per-path body limit (area-list `bodyLimitFor`), as the UAE
 * routes have theirs; every other route keeps the default. Here the limit is set to 4 MiB, so that the
 * test also sees it hold.
 */
describe('#46 the inbound callback\'s own body limit', () => {
  let dataSource: DataSource;
  let client: Client;
  let gatewayUrl: string;
  let gateway: AppProcess;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e inbound body limit');
    // The route serves the engine once AS4_ENGINE_SECRET is set (sandbox mode otherwise: no keystores needed).
    const started = await startGateway({
      AS4_ENGINE_SECRET: SECRET, PEPPOL_SERVICE_PROVIDER_ID: '0242:000111', PEPPOL_SERVICE_PROVIDER_COUNTRY: 'BE',
      BODY_LIMIT_BYTES: String(MiB), AS4_INBOUND_BODY_LIMIT_BYTES: String(4 * MiB),
    });
    ({ app: gateway, url: gatewayUrl } = started);
    client = new Client(gatewayUrl, apiKey);
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body })
      .then(async (res) => ({ status: res.status, body: await res.json() }));

  async function onboard(): Promise<{ supplier: string; participantId: string }> {
    const answer = await client.post('/be/einvoice/onboard', { registered_name: 'Ghent Drawings NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Veldstraat 1', city: 'Ghent', country: 'BE' });
    expect(answer.status).toBe(201);
    const supplier: string = answer.body.data.supplier_uuid;
    const [row] = await dataSource.query(`SELECT participant_id FROM supplier_participants WHERE supplier_id = $1`, [supplier]);
    return { supplier, participantId: row.participant_id };
  }

  it('takes a received invoice with a 2 MiB attachment from the engine, and holds that route to its own limit', async () => {
    const { supplier: sender } = await onboard();
    const { supplier: receiver, participantId } = await onboard();
    // A BIS 3.0 invoice as this service renders one, then a drawing attached: what another access point may send.
    const submitted = await client.post('/be/einvoice/generate/invoice', {
      ID: `BIG-${Date.now()}`, DocumentType: '380', IssueDate: '2026-03-15',
      CustomerParty: { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] },
      InvoiceLines: [{ Description: 'Drawings', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
      TotalIncludingVat: 121,
    }, { supplier_uuid: sender, transport_mode: 'peppol' });
    expect(submitted.status).toBe(202);
    const source: string = submitted.body.data.DocumentID;
    const xml: string = (await client.get(`/be/einvoice/get-document/${source}/xml`, { supplier_uuid: sender })).body;
    const message = (payload: string, n: number) => JSON.stringify({
      messageId: `big-${n}-${source}@their-ap`, conversationId: `conv-${source}`, senderParticipantId: 'iso6523-actorid-upis::9925:be0999999980',
      receiverParticipantId: participantId, documentTypeId: BIS_INVOICE, processId: BIS_PROCESS, countryC1: 'BE', instanceIdentifier: `big-${n}-${source}`,
      payload, receivedAt: new Date().toISOString(), mlsTo: '0242:000222',
    });
    const big = message(withAttachment(xml, 1.5 * MiB), 1);
    expect(Buffer.byteLength(big)).toBeGreaterThan(2 * MiB);

    // Every other route keeps BODY_LIMIT_BYTES: the same body anywhere else is a 413 before anything reads it.
    expect(await post('/be/einvoice/generate/invoice', big, { 'x-svc-auth-key': 'any' })).toMatchObject({ status: 413, body: { errors: [{ code: 'REQUEST.TOO_LARGE' }] } });
    // Past the limit, the secret is still what the route asks first.
    expect((await post('/internal/peppol/inbound', big, { 'x-engine-secret': 'not-the-secret' })).status).toBe(401);
    const started = Date.now();
    expect(await post('/internal/peppol/inbound', big, { 'x-engine-secret': SECRET })).toEqual({ status: 200, body: { status: 'accepted' } });
    const acceptMs = Date.now() - started;
    const [received] = await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1 AND direction = 'incoming'`, [receiver]);
    const read = await client.get(`/be/einvoice/get-document/${received.id}/xml`, { supplier_uuid: receiver });
    expect(read.body).toContain('filename="spec.pdf"');
    expect(Buffer.byteLength(read.body)).toBeGreaterThan(2 * MiB);
    process.stderr.write(`inbound callback of ${(Buffer.byteLength(big) / MiB).toFixed(2)} MiB accepted in ${acceptMs} ms\n`);

    // Over the route's own limit (here 4 MiB): 413, as on any route.
    const tooBig = message(withAttachment(xml, 3.5 * MiB), 2);
    expect(await post('/internal/peppol/inbound', tooBig, { 'x-engine-secret': SECRET })).toMatchObject({ status: 413, body: { errors: [{ code: 'REQUEST.TOO_LARGE' }] } });
  });
});
