/**
 * #46 Peppol for real: two AS4 engines (phase4, engines/as4) on loopback exchange a Peppol BIS 3.0
 * invoice over real Peppol AS4 (signed, encrypted, SBDH with COUNTRY_C1, receipt), the receiver
 * found through a signed SMP answer. Each engine hands what it receives to its own callback, as it
 * does to the gateway's /internal/peppol/inbound. No database or broker involved.
 */
import { randomUUID } from 'node:crypto';
import { parseInvoice } from '../../libs/areas/src/peppol/codec';
import { beInvoice, suppliers } from '../../libs/areas/src/peppol-ubl/fixtures/bodies';
import { participantIdFor } from '../../libs/areas/src/peppol-ubl/identifiers';
import { profiles } from '../../libs/areas/src/peppol-ubl/profiles';
import { renderDocument } from '../../libs/areas/src/peppol-ubl/render';
import { buildAs4Engine, startAs4Engine, type TestAs4Engine } from '../support/as4-engine';
import { RecordingInboundCallback } from '../support/as4-inbound-callback';
import { createPeppolTestPki, type PeppolTestPki } from '../support/peppol-pki';
import { PeppolTestSmp } from '../support/peppol-test-smp';

jest.setTimeout(300_000);

const INVOICE = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BILLING = 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const SUPPLIER = participantIdFor('BE:VAT', 'BE0123456749');
const BUYER = participantIdFor('BE:KBO', '0202239951');
/** Registered in the SMP with engine B's endpoint, but not hosted by B's gateway. */
const MOVED_AWAY = 'iso6523-actorid-upis::0208:0403170701';
/** Registered, but the SMP answer is signed by a certificate no SMP CA issued. */
const FORGED = 'iso6523-actorid-upis::0208:0417497106';
const UNKNOWN = 'iso6523-actorid-upis::0208:0999999992';

describe('#46 AS4 engine: Peppol AS4 between two engines on loopback', () => {
  let pki: PeppolTestPki;
  let smp: PeppolTestSmp;
  let callbackA: RecordingInboundCallback;
  let callbackB: RecordingInboundCallback;
  let engineA: TestAs4Engine;
  let engineB: TestAs4Engine;
  const invoiceXml = renderDocument(profiles.be, parseInvoice(profiles.be, beInvoice({ ID: 'AS4-0001' }), suppliers.be), suppliers.be, randomUUID());

  const outbound = (messageId: string, receiverParticipantId: string, extra: { instanceIdentifier?: string; mlsTo?: string; mlsType?: string } = {}) => ({
    messageId,
    ...extra,
    senderParticipantId: SUPPLIER,
    receiverParticipantId,
    documentTypeId: INVOICE,
    processId: BILLING,
    countryC1: 'BE',
    payload: invoiceXml,
  });
  const newMessageId = () => `${randomUUID()}@einvoice.test`;

  beforeAll(async () => {
    const build = await buildAs4Engine();
    console.log(`AS4 engine build: ${build.built ? `${build.buildMs} ms` : 'up to date'}`);
    [pki, callbackA, callbackB] = await Promise.all([createPeppolTestPki(), new RecordingInboundCallback().start(), new RecordingInboundCallback().start()]);
    smp = await new PeppolTestSmp(pki.smp).start();
    const engines = await Promise.allSettled([
      startAs4Engine({ name: 'a', pki, ap: pki.apA, smpUrl: smp.url, callbackUrl: callbackA.url }),
      startAs4Engine({ name: 'b', pki, ap: pki.apB, smpUrl: smp.url, callbackUrl: callbackB.url }),
    ]);
    // Both are kept when one fails, so that afterAll stops the one that did start.
    [engineA, engineB] = engines.map((e) => (e.status === 'fulfilled' ? e.value : undefined)) as TestAs4Engine[];
    for (const e of engines) if (e.status === 'rejected') throw e.reason;
    console.log(`AS4 engines ready in ${engineA.startMs} ms and ${engineB.startMs} ms`);
    const atB = { documentTypeId: INVOICE, processId: BILLING, endpointUrl: engineB.as4Url, apCertificatePem: pki.apB.certificatePem };
    smp.register({ participantId: BUYER, ...atB });
    smp.register({ participantId: MOVED_AWAY, ...atB });
    smp.register({ participantId: FORGED, ...atB, signer: pki.rogue });
    callbackB.notHosting(MOVED_AWAY);
  });

  afterAll(async () => {
    await Promise.all([engineA?.stop(), engineB?.stop()]);
    await Promise.all([smp?.close(), callbackA?.close(), callbackB?.close()]);
    await pki?.destroy();
  });

  it('given a receiver whose SMP names engine B, when A sends a BIS 3.0 invoice, then B hands it over with its envelope and A gets the receipt', async () => {
    const messageId = newMessageId();
    const instanceIdentifier = randomUUID();

    const answer = await engineA.send(outbound(messageId, BUYER, { instanceIdentifier }));

    expect(answer).toMatchObject({
      status: 200,
      body: {
        status: 'sent',
        messageId,
        receipt: { refToMessageId: messageId },
        receiverEndpoint: engineB.as4Url,
        // How it travelled, for Peppol Reporting: the SMP endpoint's profile and B's seat id (its certificate's CN).
        transportProfile: 'peppol-transport-as4-v2_0',
        receiverSeatId: pki.apB.commonName,
      },
    });
    expect(pki.apB.commonName).toBe('PDE000002');
    expect(Date.parse(String((answer.body.receipt as { timestamp: string }).timestamp))).not.toBeNaN();
    const [handed] = callbackB.handedOver(messageId);
    expect(handed.secret).toBe(engineB.secret);
    expect(handed.document).toMatchObject({
      messageId,
      senderParticipantId: SUPPLIER,
      receiverParticipantId: BUYER,
      documentTypeId: INVOICE,
      processId: BILLING,
      countryC1: 'BE',
      instanceIdentifier,
    });
    // Sent without the MLS extension: the callback names no MLS_TO / MLS_TYPE.
    expect(handed.document).not.toHaveProperty('mlsTo');
    expect(handed.document).not.toHaveProperty('mlsType');
    expect(handed.document.payload).toContain('<cbc:ID>AS4-0001</cbc:ID>');
    expect(handed.document.payload).toContain('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    // The C2 that signed is engine A's certificate.
    expect(handed.document.senderCertificate.replace(/\s+/g, '')).toBe(pki.apA.certificatePem.replace(/\s+/g, ''));
    expect(callbackA.received).toEqual([]);
  });

  it('given a message sent without an instanceIdentifier, when B hands it over, then its InstanceIdentifier is derived from the MessageId, the same on a retry', async () => {
    const messageId = newMessageId();
    callbackB.answerNextWith(503);

    await engineA.send(outbound(messageId, BUYER));
    await engineA.send(outbound(messageId, BUYER));

    const [refused, taken] = callbackB.handedOver(messageId);
    expect(taken.document.instanceIdentifier).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.document.instanceIdentifier).toBe(taken.document.instanceIdentifier);
  });

  it("given the sender's SBDH asks for its MLS elsewhere and only on failure (MLS_TO, MLS_TYPE), when B hands it over, then the callback carries mlsTo and mlsType", async () => {
    const messageId = newMessageId();

    const answer = await engineA.send(outbound(messageId, BUYER, { mlsTo: '0242:000123', mlsType: 'FAILURE_ONLY' }));

    expect(answer.status).toBe(200);
    expect(callbackB.handedOver(messageId)[0].document).toMatchObject({ mlsTo: '0242:000123', mlsType: 'FAILURE_ONLY' });
  });

  it('given an mlsType the Business Message Envelope does not define, when A is asked to send, then 400 and nothing reaches B', async () => {
    const messageId = newMessageId();

    const answer = await engineA.send(outbound(messageId, BUYER, { mlsType: 'SOMETIMES' }));

    expect(answer).toMatchObject({ status: 400, body: { status: 'failed', retriable: false } });
    expect(answer.body.message).toContain('mlsType');
    expect(callbackB.handedOver(messageId)).toEqual([]);
  });

  it('given a message B already handed over, when A sends the same MessageId again, then A gets a receipt and B hands it over only once', async () => {
    const messageId = newMessageId();
    const first = await engineA.send(outbound(messageId, BUYER));

    const again = await engineA.send(outbound(messageId, BUYER));

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body).toMatchObject({ status: 'sent', receipt: { refToMessageId: messageId } });
    expect(callbackB.handedOver(messageId)).toHaveLength(1);
  });

  it('given B handed a message over and was then killed (kill -9) and restarted, when A sends the same MessageId, then a receipt and still one hand-over', async () => {
    const messageId = newMessageId();
    const first = await engineA.send(outbound(messageId, BUYER));
    await engineB.crashAndRestart();

    const again = await engineA.send(outbound(messageId, BUYER));

    expect([first.status, again.status]).toEqual([200, 200]);
    expect(callbackB.handedOver(messageId)).toHaveLength(1);
  });

  it('given a receiver no SMP knows, when A sends to it, then 422 PEPPOL.RECEIVER_NOT_FOUND, final', async () => {
    const answer = await engineA.send(outbound(newMessageId(), UNKNOWN));

    expect(answer).toMatchObject({ status: 422, body: { status: 'failed', code: 'PEPPOL.RECEIVER_NOT_FOUND', retriable: false } });
  });

  it("given B's gateway does not host the receiver (callback 404), when A sends, then 422 PEPPOL.AS4_REFUSED naming PEPPOL:NOT_SERVICED", async () => {
    const messageId = newMessageId();

    const answer = await engineA.send(outbound(messageId, MOVED_AWAY));

    expect(answer).toMatchObject({ status: 422, body: { status: 'failed', code: 'PEPPOL.AS4_REFUSED', retriable: false } });
    expect(answer.body.message).toContain('PEPPOL:NOT_SERVICED');
    expect(callbackB.handedOver(messageId).map((h) => h.answeredWith)).toEqual([404]);
  });

  it('given an SMP answer signed by a certificate outside the SMP CA, when A sends, then 422 PEPPOL.SMP_SIGNATURE_INVALID and nothing reaches B', async () => {
    const messageId = newMessageId();

    const answer = await engineA.send(outbound(messageId, FORGED));

    expect(answer).toMatchObject({ status: 422, body: { status: 'failed', code: 'PEPPOL.SMP_SIGNATURE_INVALID', retriable: false } });
    expect(callbackB.handedOver(messageId)).toEqual([]);
  });

  it("given B's gateway is unavailable once (callback 503), when A sends, then 503 retriable, and A's retry with the same MessageId is handed over", async () => {
    const messageId = newMessageId();
    callbackB.answerNextWith(503);

    const first = await engineA.send(outbound(messageId, BUYER));
    const retry = await engineA.send(outbound(messageId, BUYER));

    expect(first).toMatchObject({ status: 503, body: { code: 'PEPPOL.ACCESS_POINT_UNAVAILABLE', retriable: true } });
    expect(retry).toMatchObject({ status: 200, body: { status: 'sent' } });
    expect(callbackB.handedOver(messageId).map((h) => h.answeredWith)).toEqual([503, 200]);
  });

  it('given a keystore whose certificate no CA of the truststore issued, when an engine starts, then it refuses with the reason', async () => {
    await expect(startAs4Engine({ name: 'rogue', pki, ap: pki.rogue, smpUrl: smp.url, callbackUrl: callbackA.url })).rejects.toThrow(
      /refused to start[\s\S]*PXX000009[\s\S]*not accepted by the CA in PEPPOL_TRUSTSTORE/,
    );
  });

  it('given a keystore whose certificate has expired, when an engine starts, then it refuses, saying since when', async () => {
    await expect(startAs4Engine({ name: 'expired', pki, ap: pki.expired, smpUrl: smp.url, callbackUrl: callbackA.url })).rejects.toThrow(
      /refused to start[\s\S]*PBE000008[^"]* expired on \d{4}-\d{2}-\d{2}T/,
    );
  });

  it('given a wrong secret, when the control API is called, then 401 and nothing is sent', async () => {
    const before = callbackB.received.length;

    const response = await fetch(`${engineA.controlUrl}/outbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-engine-secret': `${engineA.secret}x` },
      body: JSON.stringify(outbound(newMessageId(), BUYER)),
    });

    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 'ENGINE.UNAUTHORIZED' });
    expect(callbackB.received).toHaveLength(before);
  });
});
