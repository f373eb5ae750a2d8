import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { invoiceBody, onboardingBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { freshTin, myInvoisDocuments } from '../support/myinvois';
import { AppProcess, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;

describe('#4 MyInvois document lifecycle over HTTP: rejection (buyer side), sandbox mode', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess;
  let client: Client;
  let supplier: string;

  const stateOf = (key: string) => myInvoisDocuments(client, () => supplier).stateOf(key);
  const untilState = (key: string, state: string) => myInvoisDocuments(client, () => supplier).untilState(key, state);
  const submit = async (documentId: string) => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: documentId }), { supplier_uuid: supplier });
    expect(answer.status).toBe(200);
    return answer.body.data.submissionResponse.acceptedDocuments[0].uuid as string;
  };
  const reject = (key: string, body: unknown = { reason: 'Goods not received' }) =>
    client.post(`/api/einvoice/documents/${encodeURIComponent(key)}/reject`, body, { supplier_uuid: supplier });

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e myinvois lifecycle');
    const started = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startApp('reporting-worker', testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000' }));
    const onboarded = await client.post('/api/einvoice/onboard', onboardingBody({ tin_number: freshTin(), client_id: `client-${run}` }));
    expect(onboarded.status).toBe(201);
    supplier = onboarded.body.data.supplier_uuid;
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('a valid document is rejected (200 rejected_by_buyer), once (409 after), and can then be cancelled by its issuer', async () => {
    const uuid = await submit(id('REJECT'));
    await untilState(uuid, 'valid');
    const noReason = await reject(uuid, {});
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors[0].path).toBe('reason');

    const rejected = await reject(uuid);
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'success', data: { uuid, state: 'rejected_by_buyer' } });
    expect((await stateOf(uuid)).body.data.state).toBe('rejected_by_buyer');

    const again = await reject(uuid);
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('MYINVOIS.NOT_REJECTABLE');
    // Still valid at MyInvois: its ID stays taken until the issuer cancels.
    const reused = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('REJECT') }), { supplier_uuid: supplier });
    expect(reused.status).toBe(409);

    const cancelled = await client.post(`/api/einvoice/documents/${uuid}/cancel`, { reason: 'Rejected by the buyer' }, { supplier_uuid: supplier });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.state).toBe('cancelled');
    const events = await dataSource.query(`SELECT type FROM events WHERE stream_id = (SELECT 'myinvois-' || submission_id FROM myinvois_documents WHERE uuid = $1) ORDER BY stream_position`, [uuid]);
    expect(events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['MyInvoisDocumentRejectionRequested', 'MyInvoisDocumentRejected', 'MyInvoisDocumentCancellationRequested', 'MyInvoisDocumentCancelled']),
    );
  });

  it('a pending, invalid or cancelled document cannot be rejected: 409 MYINVOIS.NOT_REJECTABLE with its state', async () => {
    const invalid = await submit(id('INVALID'));
    const early = await reject(invalid);
    expect(early.status).toBe(409);
    expect(early.body.errors[0]).toMatchObject({ code: 'MYINVOIS.NOT_REJECTABLE', message: expect.stringMatching(/submitted|pending|invalid/) });
    await untilState(invalid, 'invalid');
    const late = await reject(invalid);
    expect(late.status).toBe(409);
    expect(late.body.errors[0]).toMatchObject({ code: 'MYINVOIS.NOT_REJECTABLE', message: 'The document is invalid.' });

    const cancelledUuid = await submit(id('CANCELLED'));
    await untilState(cancelledUuid, 'valid');
    expect((await client.post(`/api/einvoice/documents/${cancelledUuid}/cancel`, { reason: 'x' }, { supplier_uuid: supplier })).status).toBe(200);
    const afterCancel = await reject(cancelledUuid);
    expect(afterCancel.status).toBe(409);
    expect(afterCancel.body.errors[0].code).toBe('MYINVOIS.NOT_REJECTABLE');
  });
});
