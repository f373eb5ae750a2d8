import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { conformanceDir } from '../../libs/areas/src/conformance/location';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const FIXTURES = path.join(__dirname, '../../libs/areas/src/uae/fixtures');
const run = Date.now().toString(36);
let tinSeq = 0;
/** A fresh 10-digit TIN for this run (ibr-148-ae: `1` and nine digits). */
const freshTin = () => `1${String((Date.now() * 7 + tinSeq++ * 7919) % 1e9).padStart(9, '0')}`;
const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100', UAE_SANDBOX_FTA_MLS_MS: '200' });

interface Fixture {
  readonly example: string;
  readonly issuer: { peppolId: string; legalName: string; trn?: string; legalId?: { id: string; scheme: string; authority?: string }; streetAddress: string; city: string; emiratesCode: string };
  /** The document, at the root or under `document` (both forms of the seed). */
  readonly request: Record<string, unknown>;
}

const participantBody = (tin: string, over: Record<string, unknown> = {}) => ({
  peppol_id: `0235:${tin}`,
  legal_name: 'Gulf Widgets LLC',
  trn: `${tin}00003`,
  // PINT AE ibr-150-ae: a seller addressed under 0235 states its legal registration.
  legal_id: { id: `TL-${tin}`, scheme: 'TL', authority: 'Dubai Economy and Tourism' },
  street_address: 'Sheikh Zayed Road 1',
  city: 'Dubai',
  emirates_code: 'DXB',
  country_code: 'AE',
  ...over,
});

const invoice = (identifier: string, receiverPeppolId: string, over: Record<string, unknown> = {}) => ({
  document_identifier: identifier,
  issue_date: '2026-07-01',
  document_type: '380',
  document_currency: 'AED',
  due_date: '2026-07-31',
  flags: {},
  receiving_party: { peppol_id: receiverPeppolId, legal_name: 'Abu Dhabi Buyer LLC', street_address: 'Khalifa Street 9', city: 'Abu Dhabi', emirates_code: 'AUH', country_code: 'AE', trn: '134567890123003' },
  payment_means: [{ type_code: '30', payment_account_id: 'AE070331234567890123456' }],
  lines: [{ item_name: 'Widget', quantity: '10', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '5' }],
  ...over,
});

/**
 * #10 the UAE area over HTTP with the four apps: participants, two validation phases, the 202 with
 * both tracks finishing after it (delivery to a participant hosted here, the FTA report of the sent
 * and of the received copy), reads, attachments, validate and numbers, the event feeds, the Unified API.
 */
describe('#10 UAE: the Regional and Unified APIs of seed 001, over HTTP', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  const workers: AppProcess[] = [];
  let seller: Client;
  let buyer: Client;
  let stranger: Client;
  let sellerId: string;
  let buyerId: string;
  let buyerPeppolId: string;
  const documents = () => `/v1/participants/${sellerId}/documents`;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const started = await startGateway();
    gateway = started.app;
    seller = new Client(started.url, (await createTenant(dataSource, `e2e uae seller ${run}`)).apiKey);
    buyer = new Client(started.url, (await createTenant(dataSource, `e2e uae buyer ${run}`)).apiKey);
    stranger = new Client(started.url, (await createTenant(dataSource, `e2e uae stranger ${run}`)).apiKey);
    workers.push(startApp('delivery-worker', workerEnv), startApp('reporting-worker', workerEnv));
    const onboarded = await seller.post('/v1/participants', participantBody(freshTin()));
    expect(onboarded.status).toBe(201);
    sellerId = onboarded.body.data.participant_id;
    buyerPeppolId = `0235:${freshTin()}`;
    const hosted = await buyer.post('/v1/participants', participantBody(buyerPeppolId.slice(5), { legal_name: 'Abu Dhabi Buyer LLC', emirates_code: 'AUH' }));
    expect(hosted.status).toBe(201);
    buyerId = hosted.body.data.participant_id;
    await untilWorkersReady(started, 'delivery-worker', 'reporting-worker');
  });

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  /** The record once both tracks have finished. */
  const settled = (client: Client, participant: string, documentId: string) =>
    eventually(`document ${documentId} settled`, async () => {
      const read = await client.get(`/v1/participants/${participant}/documents/${documentId}`);
      return read.body.data && read.body.data.status !== 'accepted' ? read.body.data : undefined;
    });

  it('onboards a participant: 201 with its id, the field named on a bad body, 409 for a Peppol id registered already, and it is a Peppol receiver', async () => {
    const tin = freshTin();
    const answer = await seller.post('/v1/participants', participantBody(tin));
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ status: 'success', data: { participant_id: expect.any(String), peppol_id: `0235:${tin}` } });
    const again = await stranger.post('/v1/participants', participantBody(tin));
    expect(again.status).toBe(409);
    const bad = await seller.post('/v1/participants', participantBody(freshTin(), { peppol_id: '0088:123', emirates_code: 'XX' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['emirates_code', 'peppol_id']);
    const lookup = await seller.get(`/1.0/participant/lookup?pid=${encodeURIComponent(`iso6523-actorid-upis::0235:${tin}`)}`);
    expect(lookup.status).toBe(200);
  });

  it('accepts a document with 202 and both tracks queued; it is delivered to the hosted buyer, reported for both sides, and completed', async () => {
    const answer = await seller.post(documents(), invoice(`INV-${run}-1`, buyerPeppolId));
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      status: 'success',
      data: { document_id: expect.any(String), document_identifier: `INV-${run}-1`, status: 'accepted', reporting: { status: 'queued' }, exchange: { status: 'processing' } },
    });
    const id = answer.body.data.document_id;
    const record = await settled(seller, sellerId, id);
    expect(record).toMatchObject({
      document_id: id,
      document_identifier: `INV-${run}-1`,
      direction: 'outgoing',
      document_type: '380',
      issue_date: '2026-07-01',
      status: 'completed',
      reporting: { status: 'reported', reported_at: expect.any(String) },
      exchange: { status: 'delivered', mls: { code: 'AP', received_at: expect.any(String) } },
      attachments: [],
      document: expect.objectContaining({ document_identifier: `INV-${run}-1` }),
    });
    const xml = await seller.get(`${documents()}/${id}/xml`);
    expect(xml.headers.get('content-type')).toContain('application/xml');
    expect(xml.body).toContain('<cbc:CustomizationID>urn:peppol:pint:billing-1@ae-1</cbc:CustomizationID>');

    const incoming = await eventually('the buyer lists the received document', async () => {
      const list = await buyer.get(`/v1/participants/${buyerId}/documents?direction=incoming`);
      return list.body.data.find((d: { document_identifier: string }) => d.document_identifier === `INV-${run}-1`);
    });
    expect(incoming).toMatchObject({ direction: 'incoming', exchange: { status: 'delivered' } });
    const received = await settled(buyer, buyerId, incoming.document_id);
    expect(received.reporting.status).toBe('reported');
    expect((await buyer.get(`/v1/participants/${buyerId}/documents/${incoming.document_id}/xml`)).body).toBe(xml.body);
    const feed = await buyer.get(`/v1/participants/${buyerId}/events?direction=received`);
    expect(feed.body.data).toEqual({ direction: 'incoming' });
    expect(feed.body.events).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'document.received', document_id: incoming.document_id, direction: 'incoming' })]));
  });

  it('marks the exchange failed with the receiver\'s MLS reason (RE, BV) while reporting goes on; the summary needs attention', async () => {
    const answer = await seller.post(documents(), invoice(`INV-${run}-RE`, '0235:1999999901'));
    expect(answer.status).toBe(202);
    const id = answer.body.data.document_id;
    const record = await eventually('the exchange failed and the report answered', async () => {
      const read = (await seller.get(`${documents()}/${id}`)).body.data;
      return read.exchange.status === 'failed' && read.reporting.status !== 'queued' ? read : undefined;
    });
    expect(record).toMatchObject({
      status: 'attention',
      reporting: { status: 'reported' },
      exchange: { status: 'failed', mls: { code: 'RE' }, error: { code: 'PEPPOL.REJECTED_BY_RECEIVER', reason_code: 'BV' } },
    });
    const feed = await eventually('document.failed on the feed', async () => {
      const page = await seller.get(`/v1/participants/${sellerId}/events?direction=outgoing&limit=500`);
      return page.body.events.find((e: { document_id: string; type: string }) => e.document_id === id && e.type === 'document.failed');
    });
    expect(feed).toMatchObject({ status: 'attention', exchange: { status: 'failed' } });
  });

  it('phase 1 refuses with the seed\'s message, dotted paths and codes, storing nothing and leaving the number free', async () => {
    const body = invoice(`INV-${run}-P1`, buyerPeppolId) as Record<string, unknown>;
    delete body.document_currency;
    (body.receiving_party as Record<string, unknown>).peppol_id = undefined;
    body.contract_value = 1200;
    const answer = await seller.post(documents(), body);
    expect(answer.status).toBe(400);
    expect(answer.body.status).toBe('bad_request');
    expect(answer.body.message).toBe('Document does not satisfy the regional schema.');
    expect(answer.body.errors).toEqual(expect.arrayContaining([
      { path: 'document_currency', code: 'FIELD.REQUIRED', message: 'document_currency is required', severity: 'error' },
      expect.objectContaining({ path: 'receiving_party.peppol_id', code: 'FIELD.REQUIRED' }),
      expect.objectContaining({ path: 'contract_value', code: 'FIELD.INVALID_TYPE', message: 'contract_value must be a string' }),
    ]));
    const fixed = await seller.post(documents(), invoice(`INV-${run}-P1`, buyerPeppolId));
    expect(fixed.status).toBe(202);
  });

  it('phase 2 refuses a broken PINT AE rule with the official rule id at path Document (our rules), never mixed with phase 1', async () => {
    const body = invoice(`INV-${run}-P2`, buyerPeppolId, { payment_means: [{ type_code: '30' }], lines: [{ item_name: 'Widget', quantity: '1', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '10' }] });
    const refused = await seller.post(documents(), body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Document is invalid');
    expect(refused.body.errors.map((e: { code: string }) => e.code).sort()).toEqual(['ibr-190-ae', 'ibr-192-ae']);
    expect(refused.body.errors.every((e: { path: string; severity: string }) => e.path === 'Document' && e.severity === 'error')).toBe(true);
    // A phase 1 error as well: only phase 1 answers.
    const both = await seller.post(documents(), { ...body, document_currency: undefined });
    expect(both.body.message).toBe('Document does not satisfy the regional schema.');
    expect((await seller.post(documents(), invoice(`INV-${run}-P2`, buyerPeppolId))).status).toBe(202);
  });

  describe('#44 seed contract gaps: refusals store nothing and leave the number free', () => {
    /** What a document number left behind: the number taken, the read-model row, the events carrying it. */
    const traces = async (identifier: string) => {
      const [row] = await dataSource.query(
        `SELECT (SELECT count(*)::int FROM uae_document_numbers WHERE document_identifier = $1) AS numbers,
                (SELECT count(*)::int FROM documents WHERE document_number LIKE '%:' || $1) AS documents,
                (SELECT count(*)::int FROM events WHERE data->>'documentNumber' LIKE '%:' || $1) AS events`,
        [identifier],
      );
      return row as { numbers: number; documents: number; events: number };
    };
    const nothing = { numbers: 0, documents: 0, events: 0 };

    it('refuses a 380 with flags.is_selfbilled under ibr-cl-01 (seed 001) in phase 2\'s form, on submit and validate; the corrected request takes the number', async () => {
      const identifier = `INV-${run}-SB`;
      const flagged = invoice(identifier, buyerPeppolId, { flags: { is_selfbilled: true } });
      for (const path of [documents(), `${documents()}/validate`]) {
        const refused = await seller.post(path, flagged);
        expect({ status: refused.status, body: refused.body }).toEqual({
          status: 400,
          body: {
            status: 'bad_request',
            message: 'Document is invalid',
            errors: [{ path: 'Document', code: 'ibr-cl-01', message: expect.stringMatching(/^\[ibr-cl-01\]-The document type code/), severity: 'error' }],
            request_id: expect.any(String),
          },
        });
      }
      expect(await traces(identifier)).toEqual(nothing);
      const fixed = await seller.post(documents(), invoice(identifier, buyerPeppolId, { flags: { is_selfbilled: false } }));
      expect({ status: fixed.status, errors: fixed.body.errors }).toEqual({ status: 202, errors: undefined });
      expect((await traces(identifier)).numbers).toBe(1);
    });

    it('refuses a card without network_id at payment_means[0].card.network_id (cac:CardAccount needs cbc:NetworkID, UBL 2.1 XSD); with it the card is rendered', async () => {
      const identifier = `INV-${run}-CARD`;
      const card = (over: Record<string, unknown>) => invoice(identifier, buyerPeppolId, {
        payment_means: [{ type_code: '54', card: { primary_account_number: 'XXXXXXXXXXXX1234', holder_name: 'A Holder', ...over } }],
      });
      const refused = await seller.post(documents(), card({}));
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        status: 'bad_request',
        message: 'Document does not satisfy the regional schema.',
        errors: [{ path: 'payment_means[0].card.network_id', code: 'FIELD.REQUIRED', message: expect.stringContaining('network_id is required once card is sent'), severity: 'error' }],
        request_id: expect.any(String),
      });
      expect(await traces(identifier)).toEqual(nothing);
      const fixed = await seller.post(documents(), card({ network_id: 'VISA' }));
      expect({ status: fixed.status, errors: fixed.body.errors }).toEqual({ status: 202, errors: undefined });
      const xml = await seller.get(`${documents()}/${fixed.body.data.document_id}/xml`);
      expect(xml.body).toMatch(/<cac:CardAccount>\s*<cbc:PrimaryAccountNumberID>XXXXXXXXXXXX1234<\/cbc:PrimaryAccountNumberID>\s*<cbc:NetworkID>VISA<\/cbc:NetworkID>/);
    });
  });

  it('takes each number once per financial year: duplicate → 409, a validated number → 409 retention rule, the next year is free', async () => {
    expect((await seller.post(documents(), invoice(`INV-${run}-D`, buyerPeppolId))).status).toBe(202);
    const duplicate = await seller.post(documents(), invoice(`INV-${run}-D`, buyerPeppolId));
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.errors[0].code).toBe('DOCUMENT.DUPLICATE_ID');
    const validated = await seller.post(`${documents()}/validate`, invoice(`INV-${run}-V`, buyerPeppolId));
    expect(validated.status).toBe(200);
    expect(validated.body).toEqual({ status: 'success', message: 'Document is valid.', data: { document_identifier: `INV-${run}-V` } });
    const blocked = await seller.post(documents(), invoice(`INV-${run}-V`, buyerPeppolId));
    expect(blocked.status).toBe(409);
    expect(blocked.body.message).toBe('The operation was blocked by a retention rule.');
    expect(blocked.body.errors[0].code).toBe('DOCUMENT.RETENTION_BLOCKED');
    expect((await seller.post(documents(), invoice(`INV-${run}-D`, buyerPeppolId, { issue_date: '2027-01-04' }))).status).toBe(202);
  });

  it('lists documents oldest first with since_id and next_since_id; another tenant\'s participant is a 404', async () => {
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await seller.post(documents(), invoice(`INV-${run}-L${n}`, buyerPeppolId))).body.data.document_id);
    const all = await eventually('the three listed', async () => {
      const list = await seller.get(`${documents()}?direction=outgoing&limit=100`);
      const listed = list.body.data.map((d: { document_id: string }) => d.document_id);
      return ids.every((id) => listed.includes(id)) ? listed : undefined;
    });
    expect(all.filter((id: string) => ids.includes(id))).toEqual(ids);
    const page = await seller.get(`${documents()}?direction=outgoing&since_id=${ids[0]}&limit=1`);
    expect(page.body.data.map((d: { document_id: string }) => d.document_id)).toEqual([all[all.indexOf(ids[0]) + 1]]);
    expect(page.body.next_since_id).toBe(page.body.data[0].document_id);
    expect(page.body.data[0].document).toBeUndefined();
    const foreign = await stranger.get(`${documents()}/${ids[0]}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].code).toBe('PARTICIPANT.NOT_FOUND');
    expect((await seller.get(`${documents()}/${buyerId}`)).status).toBe(404);
    expect((await seller.get(`${documents()}?direction=sideways`)).status).toBe(400);
  });

  it('stores embedded attachments once and serves them by index with their type and name', async () => {
    const content = Buffer.from(`timesheet ${run}`).toString('base64');
    const answer = await seller.post(documents(), invoice(`INV-${run}-A`, buyerPeppolId, {
      document_references: [{ document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'timesheet.pdf', content } }],
    }));
    expect(answer.status).toBe(202);
    const id = answer.body.data.document_id;
    const record = (await seller.get(`${documents()}/${id}`)).body.data;
    expect(record.attachments).toEqual([{ index: 1, filename: 'timesheet.pdf', mime_code: 'application/pdf', size_bytes: Buffer.from(content, 'base64').length }]);
    expect(JSON.stringify(record.document)).not.toContain(content);
    const file = await seller.bytes(`${documents()}/${id}/attachments/1`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toContain('timesheet.pdf');
    expect(file.body.toString('base64')).toBe(content);
    expect((await seller.get(`${documents()}/${id}/attachments/2`)).status).toBe(404);
    // Stored once: no event carries the bytes; the XML served (and the received copy's) has them back.
    const carrying = await dataSource.query(`SELECT count(*)::int AS n FROM events WHERE data::text LIKE $1`, [`%${content}%`]);
    expect(carrying[0].n).toBe(0);
    expect((await seller.get(`${documents()}/${id}/xml`)).body).toContain(`>${content}</cbc:EmbeddedDocumentBinaryObject>`);
    const received = await eventually('the buyer received it', async () => {
      const list = await buyer.get(`/v1/participants/${buyerId}/documents?direction=incoming&limit=100`);
      return list.body.data.find((d: { document_identifier: string }) => d.document_identifier === `INV-${run}-A`);
    });
    expect(received.attachments).toEqual(record.attachments);
    expect((await buyer.get(`/v1/participants/${buyerId}/documents/${received.document_id}/xml`)).body).toContain(content);
    expect((await buyer.bytes(`/v1/participants/${buyerId}/documents/${received.document_id}/attachments/1`)).body.toString('base64')).toBe(content);
  });

  it('keeps feeds with cursors, ack_cursor, forward-only acks and positions', async () => {
    const feed = `/v1/participants/${sellerId}/events`;
    expect((await seller.get(`${feed}/position?direction=sent`)).body).toEqual({ status: 'success', data: { direction: 'outgoing', acked: null } });
    const first = await seller.get(`${feed}?direction=sent&limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ direction: 'outgoing' });
    expect(first.body.events).toHaveLength(2);
    expect(first.body.events[0]).toEqual({
      id: expect.any(String), type: 'document.accepted', document_id: expect.any(String), document_identifier: expect.any(String), direction: 'outgoing',
      status: 'accepted', reporting: { status: 'queued' }, exchange: { status: 'processing' }, created_at: expect.any(String),
    });
    const second = await seller.get(`${feed}?direction=outgoing&ack_cursor=${first.body.next_cursor}&limit=2`);
    expect(second.body.events[0].id).not.toBe(first.body.events[0].id);
    expect((await seller.get(`${feed}/position?direction=outgoing`)).body.data.acked).toBe(first.body.next_cursor);
    const behind = await seller.post(`${feed}/ack`, { direction: 'outgoing', cursor: first.body.events[0].id });
    expect(behind.body).toEqual({ status: 'success', data: { direction: 'outgoing', acked: first.body.next_cursor } });
    const numeric = await seller.post(`${feed}/ack`, { direction: 'outgoing', cursor: 12 });
    expect(numeric.status).toBe(400);
    expect(numeric.body.errors[0].path).toBe('cursor');
    expect((await seller.get(`${feed}`)).status).toBe(400);
    // Caught up: an empty page keeps the cursor.
    let cursor = first.body.next_cursor as string;
    for (;;) {
      const page = await seller.get(`${feed}?direction=outgoing&cursor=${cursor}&limit=500`);
      if (page.body.events.length === 0) {
        expect(page.body.next_cursor).toBe(cursor);
        break;
      }
      cursor = page.body.next_cursor;
    }
  });

  it('serves the Unified API with `country` AE, and refuses another country at `country`', async () => {
    const unified = `/v1/unified/participants/${sellerId}/documents`;
    const answer = await seller.post(unified, { country: 'AE', ...invoice(`INV-${run}-U`, buyerPeppolId) });
    expect(answer.status).toBe(202);
    expect((await seller.get(`${unified}/${answer.body.data.document_id}`)).body.data.document_identifier).toBe(`INV-${run}-U`);
    const other = await seller.post(unified, { country: 'SA', ...invoice(`INV-${run}-U2`, buyerPeppolId) });
    expect(other.status).toBe(400);
    expect(other.body.errors).toEqual([{ path: 'country', code: 'FIELD.INVALID_VALUE', message: 'country must be one of: AE', severity: 'error' }]);
    expect((await seller.post(unified, invoice(`INV-${run}-U3`, buyerPeppolId))).body.errors).toEqual([{ path: 'country', code: 'FIELD.REQUIRED', message: 'country is required', severity: 'error' }]);
  });

  it('accepts every official PINT AE example sent as JSON; each is delivered and reported', async () => {
    const fixtures: Fixture[] = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(path.join(FIXTURES, f), 'utf8')) as Fixture);
    const sent: Array<{ example: string; id: string }> = [];
    for (const [n, f] of fixtures.entries()) {
      const issuer = await seller.post('/v1/participants', participantBody(freshTin(), {
        legal_name: f.issuer.legalName, trn: f.issuer.trn, legal_id: f.issuer.legalId, street_address: f.issuer.streetAddress, city: f.issuer.city, emirates_code: f.issuer.emiratesCode,
      }));
      expect(issuer.status).toBe(201);
      // Received here when the example's buyer is a UAE participant; else through the (sandbox) access point.
      const request = (f.request.document ?? f.request) as { receiving_party: { peppol_id: string }; document_identifier: string };
      const receiver = request.receiving_party.peppol_id.startsWith('0235:') ? buyerPeppolId : request.receiving_party.peppol_id;
      const body = { ...request, document_identifier: `${request.document_identifier}-${run}-${n}`, receiving_party: { ...request.receiving_party, peppol_id: receiver } };
      const answer = await seller.post(`/v1/participants/${issuer.body.data.participant_id}/documents`, body);
      expect({ example: f.example, status: answer.status, errors: answer.body.errors }).toEqual({ example: f.example, status: 202, errors: undefined });
      sent.push({ example: f.example, id: `${issuer.body.data.participant_id}/documents/${answer.body.data.document_id}` });
    }
    for (const s of sent) {
      const record = await eventually(`${s.example} completed`, async () => {
        const read = await seller.get(`/v1/participants/${s.id}`);
        return read.body.data?.status === 'completed' || read.body.data?.status === 'attention' ? read.body.data : undefined;
      });
      expect({ example: s.example, status: record.status, reporting: record.reporting.status, exchange: record.exchange.status })
        .toEqual({ example: s.example, status: 'completed', reporting: 'reported', exchange: 'delivered' });
    }
  });
});

describe('#10 UAE: UAE_OFFICIAL_SCHEMATRON=true runs the official PINT AE Schematron in the request path', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  let participantId: string;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    // The setting needs the official artefacts (CONFORMANCE_DIR): here the tests' own copy.
    const started = await startGateway({ UAE_OFFICIAL_SCHEMATRON: 'true', CONFORMANCE_DIR: conformanceDir });
    gateway = started.app;
    client = new Client(started.url, (await createTenant(dataSource, `e2e uae official ${run}`)).apiKey);
    participantId = (await client.post('/v1/participants', participantBody(freshTin()))).body.data.participant_id;
  });

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('refuses a rule broken on the rendered UBL with the official rule id at path Document, storing nothing; a valid document passes', async () => {
    const documents = `/v1/participants/${participantId}/documents`;
    const body = invoice(`INV-${run}-OFF`, '0235:1345678901', {
      lines: [{ item_name: 'Widget', quantity: '10', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '10' }],
    });
    const refused = await client.post(documents, body);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Document is invalid');
    expect(refused.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'Document', code: 'ibr-190-ae', severity: 'error' })]));
    expect(refused.body.errors.every((e: { path: string }) => e.path === 'Document')).toBe(true);
    // Nothing stored, the number still free.
    const valid = await client.post(documents, invoice(`INV-${run}-OFF`, '0235:1345678901'));
    expect({ status: valid.status, errors: valid.body.errors }).toEqual({ status: 202, errors: undefined });
  });
});
