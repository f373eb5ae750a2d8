import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { customer, invoiceBody, onboardingBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { freshTin, myInvoisDocuments } from '../support/myinvois';
import { AppProcess, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;

describe('#4 MyInvois buyer rejection over HTTP (SDK "04 reject document"): the buyer rejects, the issuer sees it and cancels; sandbox mode', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess;
  /** Tenant 1 and its supplier S, the issuer. */
  let issuer: Client;
  let supplierS: string;
  /** Tenant 2 and its supplier B, the buyer of S's invoices. */
  let buyer: Client;
  let supplierB: string;
  let buyerTin: string;

  const documents = () => myInvoisDocuments(issuer, () => supplierS);
  /** S submits an invoice to the buyer with `tin`; resolves with its MyInvois uuid once valid. */
  const validInvoice = async (documentId: string, tin: string) => {
    const answer = await issuer.post('/api/einvoice/generate/invoice', invoiceBody({ ID: documentId, CustomerParty: { ...customer, CustomerTIN: tin } }), { supplier_uuid: supplierS, transport_mode: 'myinvois' });
    expect(answer.status).toBe(200);
    const uuid = answer.body.data.submissionResponse.acceptedDocuments[0].uuid as string;
    await documents().untilState(uuid, 'valid');
    return uuid;
  };
  const reject = (client: Client, supplier: string, uuid: string, body: unknown = { reason: 'Goods not received' }, headers: Record<string, string> = {}) =>
    client.post(`/api/einvoice/received/${uuid}/reject`, body, { supplier_uuid: supplier, ...headers });
  const typesOn = async (uuid: string): Promise<string[]> =>
    (await dataSource.query(`SELECT type FROM events WHERE stream_id = (SELECT 'report-' || report_id FROM documents WHERE authority->'receipt'->>'uuid' = $1) ORDER BY stream_position`, [uuid])).map(
      (e: { type: string }) => e.type,
    );

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const started = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' });
    gateway = started.app;
    issuer = new Client(started.url, (await createTenant(dataSource, 'e2e myinvois issuer')).apiKey);
    buyer = new Client(started.url, (await createTenant(dataSource, 'e2e myinvois buyer')).apiKey);
    worker = startApp(
      'reporting-worker',
      testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000', MYINVOIS_REJECTION_WATCH_MS: '500' }),
    );
    await untilWorkersReady(started, 'reporting-worker');
    const tinS = freshTin();
    do buyerTin = freshTin();
    while (buyerTin === tinS);
    const s = await issuer.post('/api/einvoice/onboard', onboardingBody({ tin_number: tinS, client_id: `issuer-${run}` }));
    const b = await buyer.post('/api/einvoice/onboard', onboardingBody({ registered_name: 'Syarikat Pembeli Bhd', tin_number: buyerTin, client_id: `buyer-${run}` }));
    expect([s.status, b.status]).toEqual([201, 201]);
    supplierS = s.body.data.supplier_uuid;
    supplierB = b.body.data.supplier_uuid;
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('B rejects the invoice it received (200); S sees rejected_by_buyer with B\'s reason, once; S cancels it (cancelled)', async () => {
    const uuid = await validInvoice(id('REJECT'), buyerTin);

    const noReason = await reject(buyer, supplierB, uuid, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0]).toMatchObject({ path: 'reason', code: 'FIELD.REQUIRED' });
    const tooLong = await reject(buyer, supplierB, uuid, { reason: 'x'.repeat(301) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors[0]).toMatchObject({ path: 'reason', code: 'FIELD.TOO_LONG' });

    const rejected = await reject(buyer, supplierB, uuid, { reason: 'Goods not received' }, { 'Idempotency-Key': id('reject') });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'success', data: { uuid, state: 'rejected', reason: 'Goods not received', error: null } });
    const replay = await reject(buyer, supplierB, uuid, { reason: 'Goods not received' }, { 'Idempotency-Key': id('reject') });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const read = await buyer.get(`/api/einvoice/received/${uuid}/rejection`, { supplier_uuid: supplierB });
    expect(read.body.data).toMatchObject({ uuid, state: 'rejected' });
    const again = await reject(buyer, supplierB, uuid);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('MYINVOIS.ALREADY_REJECTED');

    // The issuer learns it from MyInvois (Get Recent Documents), through the worker's rejection watch.
    const seen = await documents().untilState(uuid, 'rejected_by_buyer');
    expect(seen.rejectedByBuyer).toEqual({ reason: 'Goods not received', requestedAt: expect.any(String) });
    // Still valid at MyInvois: its ID stays taken until the issuer cancels.
    const reused = await issuer.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('REJECT'), CustomerParty: { ...customer, CustomerTIN: buyerTin } }), { supplier_uuid: supplierS, transport_mode: 'myinvois' });
    expect(reused.status).toBe(409);

    const cancelled = await issuer.post(`/api/einvoice/documents/${uuid}/cancel`, { reason: 'Rejected by the buyer' }, { supplier_uuid: supplierS, transport_mode: 'myinvois' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ state: 'cancelled', rejectedByBuyer: { reason: 'Goods not received' } });
    const types = await typesOn(uuid);
    expect(types.filter((t) => t === 'AuthorityReportBuyerRejected')).toHaveLength(1);
    expect(types.slice(-2)).toEqual(['AuthorityReportCancellationRequested', 'AuthorityReportCancelled']);
  });

  it("MyInvois's refusals reach the caller as 4xx with the authority's error: not the receiver (B, or S itself) 403, unknown uuid 404, cancelled 409", async () => {
    const notForB = await validInvoice(id('OTHER'), customer.CustomerTIN);
    const byB = await reject(buyer, supplierB, notForB);
    expect(byB.status).toBe(403);
    expect(byB.body.errors[0]).toMatchObject({ path: 'uuid', code: 'Forbidden', message: 'Rejection is allowed for recipient of the document only.' });
    expect((await buyer.get(`/api/einvoice/received/${notForB}/rejection`, { supplier_uuid: supplierB })).body.data).toMatchObject({ state: 'refused', error: { code: 'Forbidden' } });

    const own = await validInvoice(id('OWN'), buyerTin);
    const byIssuer = await reject(issuer, supplierS, own);
    expect(byIssuer.status).toBe(403);
    expect(byIssuer.body.errors[0].code).toBe('Forbidden');
    expect((await documents().stateOf(own)).body.data.state).toBe('valid');

    const unknown = await reject(buyer, supplierB, 'NOSUCHDOCUMENT0000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].path).toBe('uuid');

    expect((await issuer.post(`/api/einvoice/documents/${own}/cancel`, { reason: 'Wrong amount' }, { supplier_uuid: supplierS })).status).toBe(200);
    const afterCancel = await reject(buyer, supplierB, own);
    expect(afterCancel.status).toBe(409);
    expect(afterCancel.body.errors[0].code).toBe('IncorrectState');
  });

  it('another tenant\'s supplier is a 404; the issuer\'s old reject route is gone', async () => {
    expect((await reject(buyer, supplierS, 'ANYDOCUMENT')).status).toBe(404);
    expect((await buyer.get('/api/einvoice/received/ANYDOCUMENT/rejection', { supplier_uuid: supplierB })).status).toBe(404);
    expect((await issuer.post('/api/einvoice/documents/ANY/reject', { reason: 'x' }, { supplier_uuid: supplierS })).status).toBe(404);
  });
});
