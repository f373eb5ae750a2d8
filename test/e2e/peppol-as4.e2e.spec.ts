/**
 * #46 Peppol for real, end to end: two installations of the service on loopback, each with its own
 * database, apps and AS4 engine (phase4, engines/as4), are two Peppol access points. A Belgian
 * supplier's invoice submitted at A is found through B's signed SMP, crosses real Peppol AS4 (signed,
 * encrypted, SBDH) to B, is checked and recorded by B for its hosted receiver, whose webhook fires; B's
 * Message Level Status comes back the same way (found through A's SMP, which publishes A's service
 * provider id) and makes A's document Delivered. No stand-in: the only test part is the SML's role,
 * played by a router over the two SMPs (test/support/peppol-test-sml.ts).
 */
import { randomBytes } from 'node:crypto';
import { MLS_DOCUMENT_TYPE_ID } from '../../libs/areas/src/peppol-ubl/mls';
import { as4MessageId } from '../../libs/domain/src/document/events';
import { buildAs4Engine } from '../support/as4-engine';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { createPeppolTestPki, type PeppolTestPki } from '../support/peppol-pki';
import { startPeppolInstallation, type PeppolInstallation } from '../support/peppol-installation';
import { TestSmlRouter } from '../support/peppol-test-sml';
import { PeppolTestSmp } from '../support/peppol-test-smp';
import { eventually, freePort, runCli } from '../support/stack';
import { WebhookReceiver, webhookTestEnv } from '../support/webhook-receiver';

jest.setTimeout(600_000);

const BIS_INVOICE = 'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
const BIS_PROCESS = 'cenbii-procid-ubl::urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

const seller = (vat = beVat()) => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: vat }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
const invoice = (ID: string, buyerVat: string) => ({
  ID, DocumentType: '380', IssueDate: '2026-03-15',
  CustomerParty: { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: buyerVat }] },
  InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
  TotalIncludingVat: 121,
});
const newNumber = () => `AS4-${randomBytes(5).toString('hex')}`;

describe('#46 Peppol AS4 between two installations, each with its own engine', () => {
  let pki: PeppolTestPki;
  let sml: TestSmlRouter;
  let forgedSmp: PeppolTestSmp;
  let webhooks: WebhookReceiver;
  let a: PeppolInstallation;
  let b: PeppolInstallation;
  let clientA: Client;
  let clientB: Client;
  /** B's supplier hosting the receiver, and its VAT number (the buyer of A's invoices). */
  let receiver: { supplier: string; vat: string; participantId: string };
  /** A's supplier, the seller. */
  let sender: string;

  beforeAll(async () => {
    const [build] = await Promise.all([buildAs4Engine(), (async () => (pki = await createPeppolTestPki()))()]);
    console.log(`AS4 engine build: ${build.built ? `${build.buildMs} ms` : 'up to date'}`);
    const [portA, portB] = [await freePort(), await freePort()];
    // A participant whose SMP answer is signed by a certificate no SMP CA issued: asked after A's and B's SMPs.
    forgedSmp = await new PeppolTestSmp(pki.rogue).start();
    sml = await new TestSmlRouter([`http://127.0.0.1:${portA}/smp`, `http://127.0.0.1:${portB}/smp`, forgedSmp.url.replace(/\/$/, '')]).start();
    webhooks = await new WebhookReceiver().start();
    const started = await Promise.allSettled([
      startPeppolInstallation({ name: 'apa', pki, ap: pki.apA, country: 'BE', port: portA, smlUrl: sml.url }),
      startPeppolInstallation({ name: 'apb', pki, ap: pki.apB, country: 'DE', port: portB, smlUrl: sml.url, workers: ['webhook-dispatcher'], env: webhookTestEnv }),
    ]);
    [a, b] = started.map((s) => (s.status === 'fulfilled' ? s.value : undefined)) as PeppolInstallation[];
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    clientA = new Client(a.url, a.apiKey);
    clientB = new Client(b.url, b.apiKey);

    const vat = beVat();
    const onboarded = await clientB.post('/be/einvoice/onboard', seller(vat));
    expect(onboarded.status).toBe(201);
    const [row] = await b.dataSource.query(`SELECT participant_id FROM supplier_participants WHERE supplier_id = $1`, [onboarded.body.data.supplier_uuid]);
    receiver = { supplier: onboarded.body.data.supplier_uuid, vat, participantId: row.participant_id };
    const subscribed = await clientB.post('/be/einvoice/webhooks', { url: webhooks.url, events: ['DocumentReceived'] }, { supplier_uuid: receiver.supplier });
    expect(subscribed.status).toBe(201);
    // B's SMP serves the receiver once its (sandbox) SML registration is done.
    await eventually('the receiver in B\'s SMP', async () => ((await fetch(`${b.url}/smp/${encodeURIComponent(receiver.participantId)}`)).status === 200 ? true : undefined));
    const senderAnswer = await clientA.post('/be/einvoice/onboard', seller());
    expect(senderAnswer.status).toBe(201);
    sender = senderAnswer.body.data.supplier_uuid;
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await Promise.all([sml?.close(), forgedSmp?.close(), webhooks?.close()]);
    await pki?.destroy();
  });

  const submit = async (buyerVat: string, ID = newNumber()): Promise<string> => {
    const submitted = await clientA.post('/be/einvoice/generate/invoice', invoice(ID, buyerVat), { supplier_uuid: sender, transport_mode: 'peppol' });
    expect(submitted.status).toBe(202);
    return submitted.body.data.DocumentID;
  };
  const statusAtA = async (documentId: string) => (await clientA.get(`/be/einvoice/delivery-status/${documentId}`, { supplier_uuid: sender })).body.data;
  const untilFinal = (documentId: string) =>
    eventually(`${documentId} final`, async () => {
      const status = await statusAtA(documentId);
      return ['Delivered', 'Failed'].includes(status.DeliveryStatus) ? status : undefined;
    }, 120_000);
  const eventsAtA = async (documentId: string): Promise<Array<{ type: string; data: Record<string, unknown> }>> =>
    a.dataSource.query(`SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_position`, [`document-${documentId}`]);
  /** What B recorded as received from A's document (by its number: B's copy has its own id). */
  const receivedAtB = async (number: string): Promise<Array<{ id: string }>> =>
    b.dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1 AND direction = 'incoming' AND document_number = $2`, [receiver.supplier, number]);

  it('given a receiver hosted at B, when A\'s supplier submits an invoice, then it crosses AS4 to B, B records it and fires its webhook, and B\'s MLS AP makes it Delivered at A', async () => {
    const number = newNumber();

    const documentId = await submit(receiver.vat, number);

    expect(await untilFinal(documentId)).toMatchObject({ DeliveryStatus: 'Delivered' });
    const events = await eventsAtA(documentId);
    expect(events.map((e) => e.type)).toEqual(['DocumentSubmitted', 'DocumentSent', 'DocumentDelivered']);
    // Sent: B's AS4 receipt for the MessageId derived from the document id, and how it travelled (Peppol Reporting's facts).
    expect(events[1].data).toMatchObject({
      receipt: { refToMessageId: as4MessageId(documentId) },
      receiverEndpoint: b.engine.as4Url,
      peppol: { documentTypeId: BIS_INVOICE, processId: BIS_PROCESS, countryC1: 'BE', transport: { profile: 'peppol-transport-as4-v2_0', otherAccessPoint: pki.apB.commonName } },
    });
    // Delivered: B's MLS, positive.
    expect(events[2].data.mls).toMatchObject({ responseCode: 'AP' });

    // At B: one incoming copy for the receiver, the document element A rendered to the byte (whitespace
    // too: a signature inside a document would not survive less; the SBDH carries no XML declaration of
    // the payload's own), and its DocumentReceived webhook.
    const copies = await receivedAtB(number);
    expect(copies).toHaveLength(1);
    const [copy] = copies;
    const documentElement = (xml: string) => xml.replace(/^<\?xml[^>]*\?>/, '').trim();
    const sentXml = (await clientA.get(`/be/einvoice/get-document/${documentId}/xml`, { supplier_uuid: sender })).body;
    const receivedXml = (await clientB.get(`/be/einvoice/get-document/${copy.id}/xml`, { supplier_uuid: receiver.supplier })).body;
    expect(documentElement(receivedXml)).toBe(documentElement(sentXml));
    const hook = await eventually('B\'s webhook', async () => webhooks.received.find((w) => JSON.parse(w.body).uuid === copy.id));
    expect(JSON.parse(hook.body)).toMatchObject({ Event: 'DocumentReceived', uuid: copy.id, DocumentId: number, Status: 'Delivered' });

    // Discovery went through each installation's own SMP: B's for the receiver, A's for where B's MLS goes.
    expect(sml.lookups.some((l) => decodeURIComponent(l).includes(receiver.participantId))).toBe(true);
    expect(sml.lookups.some((l) => decodeURIComponent(l).includes(`iso6523-actorid-upis::${a.serviceProviderId}`) && decodeURIComponent(l).includes(MLS_DOCUMENT_TYPE_ID))).toBe(true);
  });

  it('given a copy that breaks BR-02 reaches B under the MessageId of a document of A, then B answers an MLS RE that makes it Failed with B\'s reason, and the same MessageId again is one hand-over, one MLS', async () => {
    // A's own worker would never send what its validation refuses, so the test stands in for it: with A's
    // worker stopped, the document waits as submitted, and the test hands A's engine the copy broken in transit.
    await a.apps.get('delivery-worker')!.stop();
    const number = newNumber();
    const documentId = await submit(receiver.vat, number);
    const xml: string = (await clientA.get(`/be/einvoice/get-document/${documentId}/xml`, { supplier_uuid: sender })).body;
    const broken = {
      messageId: as4MessageId(documentId), instanceIdentifier: documentId,
      senderParticipantId: (await a.dataSource.query(`SELECT participant_id FROM supplier_participants WHERE supplier_id = $1`, [sender]))[0].participant_id,
      receiverParticipantId: receiver.participantId, documentTypeId: BIS_INVOICE, processId: BIS_PROCESS, countryC1: 'BE',
      payload: xml.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, ''), mlsTo: a.serviceProviderId, mlsType: 'ALWAYS_SEND',
    };

    expect(await a.engine.send(broken)).toMatchObject({ status: 200, body: { status: 'sent' } });

    expect(await untilFinal(documentId)).toMatchObject({ DeliveryStatus: 'Failed', DeliveryFailure: { code: 'PEPPOL.REJECTED_BY_RECEIVER' } });
    const failed = (await eventsAtA(documentId)).find((e) => e.type === 'DocumentDeliveryFailed')!;
    expect(failed.data.mls).toMatchObject({ responseCode: 'RE' });
    expect(JSON.stringify(failed.data)).toContain('BR-02');
    // Again under the same MessageId (a sender's retry): B's engine answers a receipt and hands nothing over.
    expect(await a.engine.send(broken)).toMatchObject({ status: 200, body: { status: 'sent' } });
    // A's worker back: it sends the document itself (same MessageId), and nothing changes: Failed stays, B has no copy.
    a.start('delivery-worker');
    const prefix = a.env.KAFKA_TOPIC_PREFIX;
    await eventually('A\'s worker took the document', async () => {
      const [{ n }] = await a.dataSource.query(
        `SELECT count(*)::int AS n FROM processed_events p JOIN events e ON e.event_id = p.event_id WHERE p.consumer_group = $1 AND e.stream_id = $2`,
        [`${prefix}.delivery-worker`, `document-${documentId}`]);
      return n > 0 ? true : undefined;
    }, 120_000);
    expect((await statusAtA(documentId)).DeliveryStatus).toBe('Failed');
    expect(await receivedAtB(number)).toEqual([]);
    const [{ mls }] = await b.dataSource.query(
      `SELECT count(*)::int AS mls FROM events WHERE type = 'PeppolTransmissionRequested' AND data::text LIKE $1`, [`%${documentId}%`]);
    expect(mls).toBe(1);
  });

  it('given receivers no SMP serves, or whose SMP answer is signed outside the SMP CA, then the document fails at A with the reason, and nothing reaches B', async () => {
    const unknown = await submit(beVat());
    expect(await untilFinal(unknown)).toMatchObject({ DeliveryStatus: 'Failed', DeliveryFailure: { code: 'PEPPOL.RECEIVER_NOT_FOUND' } });

    const forgedVat = beVat();
    forgedSmp.register({ participantId: `iso6523-actorid-upis::9925:${forgedVat.toLowerCase()}`, documentTypeId: BIS_INVOICE, processId: BIS_PROCESS, endpointUrl: b.engine.as4Url, apCertificatePem: pki.apB.certificatePem });
    const forged = await submit(forgedVat);
    expect(await untilFinal(forged)).toMatchObject({ DeliveryStatus: 'Failed', DeliveryFailure: { code: 'PEPPOL.SMP_SIGNATURE_INVALID' } });
  });

  it('given A\'s delivery worker and A\'s engine killed (kill -9) mid-send, then every document is delivered exactly once (B\'s count), none lost', async () => {
    const numbers = Array.from({ length: 12 }, newNumber);
    const ids: string[] = [];
    for (const [i, number] of numbers.entries()) {
      ids.push(await submit(receiver.vat, number));
      if (i === 3) await a.apps.get('delivery-worker')!.crash();
      if (i === 4) a.start('delivery-worker');
      if (i === 7) await a.engine.crashAndRestart();
    }

    // A send that found A's engine down for longer than the consumer's retries (a few seconds; the JVM
    // takes longer to start on a loaded machine), or B's MLS that did, is dead-lettered, not lost: the
    // operator replays it (`cli dlq replay`), and the same MessageId makes the retry safe at B.
    const replayed = new Set<string>();
    const replayDeadLetters = (installation: PeppolInstallation) => {
      for (const line of runCli(['dlq', 'list'], installation.env).stdout.split('\n').filter(Boolean)) {
        const letter = JSON.parse(line) as { id: string; replayedAt?: string | null };
        const key = `${installation.serviceProviderId} ${letter.id}`;
        if (letter.replayedAt || replayed.has(key)) continue;
        replayed.add(key);
        expect(runCli(['dlq', 'replay', letter.id], installation.env).status).toBe(0);
      }
    };
    const statuses = await eventually('every document Delivered at A', async () => {
      const now = await Promise.all(ids.map(async (id) => (await statusAtA(id)).DeliveryStatus as string));
      if (now.every((s) => s === 'Delivered')) return now;
      [a, b].forEach(replayDeadLetters);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return undefined;
    }, 240_000);
    expect(statuses).toEqual(ids.map(() => 'Delivered'));
    for (const number of numbers) expect(await receivedAtB(number)).toHaveLength(1);
    console.log(`kill -9 of A's worker and engine: ${replayed.size} dead letter(s) replayed`);
  });
});
