import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { generalPublic, invoiceBody, line, seller, sst } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { myInvoisDocuments, onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;

const workerEnv = testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000' });

describe('#4 MyInvois submission over HTTP: gateway + reporting-worker, sandbox mode', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess;
  let client: Client;
  let supplier: string;

  const headers = () => ({ supplier_uuid: supplier, transport_mode: 'peppol' });
  const rows = async () => Number((await dataSource.query(`SELECT count(*) AS n FROM documents WHERE supplier_id = $1 AND area = 'my'`, [supplier]))[0].n);
  const stateOf = (key: string) => myInvoisDocuments(client, () => supplier).stateOf(key);
  const untilState = (key: string, state: string) => myInvoisDocuments(client, () => supplier).untilState(key, state);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e myinvois submission');
    const started = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000', BODY_LIMIT_BYTES: String(8 * 1024 * 1024) });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startApp('reporting-worker', workerEnv);
    supplier = await onboardMyInvoisSupplier(client, `client-${run}`);
    // Warm-up: the worker has joined its group once a first document is answered.
    await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('WARMUP') }), headers());
    await untilState(id('WARMUP'), 'valid');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('a single document is accepted with a MyInvois uuid (200, seed shape), then becomes valid after the validation delay', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('ONE') }), headers());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status: 'submitted',
      data: {
        submissionId: expect.any(String),
        submissionResponse: {
          submissionUid: expect.any(String),
          acceptedDocuments: [{ uuid: expect.any(String), invoiceCodeNumber: id('ONE') }],
          rejectedDocuments: [],
          pendingDocuments: [],
        },
      },
    });
    const uuid = answer.body.data.submissionResponse.acceptedDocuments[0].uuid;
    expect((await stateOf(uuid)).body.data).toMatchObject({ uuid, state: expect.stringMatching(/^(submitted|valid)$/) });
    const valid = await untilState(uuid, 'valid');
    expect(valid).toMatchObject({ invoiceCodeNumber: id('ONE'), submissionUid: answer.body.data.submissionResponse.submissionUid, longId: expect.any(String) });
    expect(valid.longId).not.toBe('');
  });

  it('a bulk answers per document: accepted and rejected together (invalid, repeated in the bulk, already submitted)', async () => {
    const bulk = [
      invoiceBody({ ID: id('B-1') }),
      invoiceBody({ ID: id('B-2'), IssueDate: '15/03/2026' }),
      invoiceBody({ ID: id('B-3') }),
      invoiceBody({ ID: id('B-1') }),
      invoiceBody({ ID: id('WARMUP') }),
    ];
    const answer = await client.post('/api/einvoice/generate/invoice/bulk', bulk, headers());
    expect(answer.status).toBe(200);
    const response = answer.body.data.submissionResponse;
    expect(response.submissionUid).toEqual(expect.any(String));
    expect(response.acceptedDocuments.map((d: { invoiceCodeNumber: string }) => d.invoiceCodeNumber).sort()).toEqual([id('B-1'), id('B-3')]);
    expect(response.rejectedDocuments).toEqual([
      {
        invoiceCodeNumber: id('B-2'),
        error: { code: 'REQUEST.INVALID', message: expect.any(String), target: id('B-2'), propertyPath: null, details: [expect.objectContaining({ code: expect.any(String), propertyPath: 'IssueDate', target: 'IssueDate' })] },
      },
      { invoiceCodeNumber: id('B-1'), error: expect.objectContaining({ code: 'DOCUMENT.DUPLICATE_ID', target: id('B-1') }) },
      { invoiceCodeNumber: id('WARMUP'), error: expect.objectContaining({ code: 'DOCUMENT.DUPLICATE_ID' }) },
    ]);
    // One submissionUid for the accepted documents, one row each.
    const stored = await dataSource.query(`SELECT DISTINCT authority->'receipt'->>'submissionUid' AS submission_uid FROM documents WHERE batch_key = $1 AND report_state <> 'rejected'`, [answer.body.data.submissionId]);
    expect(stored).toEqual([{ submission_uid: response.submissionUid }]);
  });

  it('an ID submitted earlier is a 409 DOCUMENT.DUPLICATE_ID for a single submission', async () => {
    const again = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('ONE') }), headers());
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({ path: 'ID', code: 'DOCUMENT.DUPLICATE_ID' });
  });

  it('over 100 documents is a 400 and over 5 MB a 413, in the one error shape, before anything is stored', async () => {
    const before = await rows();
    const tooMany = await client.post('/api/einvoice/generate/invoice/bulk', Array.from({ length: 101 }, (_, i) => invoiceBody({ ID: id(`MANY-${i}`) })), headers());
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ status: 'bad_request', errors: [expect.objectContaining({ code: 'MYINVOIS.TOO_MANY_DOCUMENTS' })] });
    // 100 documents of ~58 KB rendered each: within the count and per-document limits, over 5 MB in all.
    const lines = Array.from({ length: 60 }, (_, i) => line(`Item ${i} ${'x'.repeat(250)}`, 1, 10, [sst()]));
    const big = Array.from({ length: 100 }, (_, i) => invoiceBody({ ID: id(`BIG-${i}`), InvoiceLines: lines }));
    const tooBig = await client.post('/api/einvoice/generate/invoice/bulk', big, headers());
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ status: 'payload_too_large', errors: [expect.objectContaining({ code: 'MYINVOIS.MAXIMUM_SIZE_EXCEEDED' })] });
    expect(await rows()).toBe(before);
  });

  it('a consolidated general-public document is accepted', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice/consolidated', invoiceBody({ ID: id('CONS'), CustomerParty: generalPublic }), headers());
    expect(answer.status).toBe(200);
    expect(answer.body.data.submissionResponse).toMatchObject({ acceptedDocuments: [{ uuid: expect.any(String), invoiceCodeNumber: id('CONS') }], rejectedDocuments: [] });
    expect((await stateOf(id('CONS'))).body.data.kind).toBe('consolidated');
  });

  it('a self-billed document (SupplierParty, no CustomerParty) is accepted and becomes valid', async () => {
    const { CustomerParty: _buyer, ...rest } = invoiceBody({ ID: id('SELF') });
    const body = { ...rest, SupplierParty: seller, InvoiceLines: [line('Oil palm fruit', 1000, 0.8, [{ TaxType: '06' }])] };
    const answer = await client.post('/api/einvoice/generate/invoice/self-billed', body, headers());
    expect(answer.status).toBe(200);
    expect(answer.body.data.submissionResponse.acceptedDocuments).toEqual([{ uuid: expect.any(String), invoiceCodeNumber: id('SELF') }]);
    expect(await untilState(id('SELF'), 'valid')).toMatchObject({ kind: 'self-billed' });
  });

  it('a document MyInvois finds invalid moves to invalid, and its ID can be submitted again', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('INVALID') }), headers());
    expect(answer.status).toBe(200);
    const uuid = answer.body.data.submissionResponse.acceptedDocuments[0].uuid;
    expect(await untilState(uuid, 'invalid')).toMatchObject({ error: { code: 'Invalid', message: expect.any(String) } });
    const corrected = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('INVALID') }), headers());
    expect(corrected.status).toBe(200);
    expect(corrected.body.data.submissionResponse.acceptedDocuments).toEqual([{ uuid: expect.any(String), invoiceCodeNumber: id('INVALID') }]);
    // The resubmission (same ID, still marked INVALID) is a new document at MyInvois and ends invalid too.
    await untilState(corrected.body.data.submissionResponse.acceptedDocuments[0].uuid, 'invalid');
  });

  it('a valid document is cancelled (200), once (409 MYINVOIS.NOT_CANCELLABLE after), and its ID is free again', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('CANCEL') }), headers());
    const uuid = answer.body.data.submissionResponse.acceptedDocuments[0].uuid;
    await untilState(uuid, 'valid');
    const noReason = await client.post(`/api/einvoice/documents/${uuid}/cancel`, {}, { supplier_uuid: supplier });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0].path).toBe('reason');
    const cancelled = await client.post(`/api/einvoice/documents/${uuid}/cancel`, { reason: 'Wrong buyer' }, { supplier_uuid: supplier });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'success', data: { uuid, state: 'cancelled' } });
    expect((await stateOf(uuid)).body.data.state).toBe('cancelled');
    const again = await client.post(`/api/einvoice/documents/${uuid}/cancel`, { reason: 'Wrong buyer' }, { supplier_uuid: supplier });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('MYINVOIS.NOT_CANCELLABLE');
    const reissued = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('CANCEL') }), headers());
    expect(reissued.status).toBe(200);
    expect(reissued.body.data.submissionResponse.acceptedDocuments).toEqual([{ uuid: expect.any(String), invoiceCodeNumber: id('CANCEL') }]);
    await untilState(reissued.body.data.submissionResponse.acceptedDocuments[0].uuid, 'valid');
  });

  it('with the worker killed (-9): 202 with the pending documents and where to poll; the restarted worker submits the bulk once', async () => {
    await worker.crash();
    const bulk = Array.from({ length: 5 }, (_, i) => invoiceBody({ ID: id(`LATE-${i}`) }));
    const answer = await client.post('/api/einvoice/generate/invoice/bulk', bulk, headers());
    expect(answer.status).toBe(202);
    const pending = answer.body.data.submissionResponse.pendingDocuments;
    expect(pending).toHaveLength(5);
    expect(pending[0]).toEqual({ documentId: expect.any(String), invoiceCodeNumber: id('LATE-0'), href: `/api/einvoice/documents/${pending[0].documentId}` });
    expect((await client.get(pending[0].href, { supplier_uuid: supplier })).body.data.state).toBe('pending');

    worker = startApp('reporting-worker', workerEnv);
    for (const p of pending) await untilState(p.documentId, 'valid');
    const uids = await dataSource.query(
      `SELECT count(DISTINCT authority->'receipt'->>'submissionUid') AS n, count(*) AS docs FROM documents WHERE batch_key = $1`,
      [answer.body.data.submissionId],
    );
    expect(uids).toEqual([{ n: '1', docs: '5' }]);
    // Each document answered once (one Submit Documents answer recorded per report).
    const answers = await dataSource.query(
      `SELECT count(*) AS n FROM events WHERE type = 'AuthorityReportAccepted' AND stream_id IN (SELECT 'report-' || report_id FROM documents WHERE batch_key = $1)`,
      [answer.body.data.submissionId],
    );
    expect(answers).toEqual([{ n: '5' }]);
  });
});
