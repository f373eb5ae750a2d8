import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { myInvoisDocuments, onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;

/**
 * The sandbox MyInvois is one service for the whole stack, as MyInvois is: its state is in
 * PostgreSQL, so a reporting worker killed (-9) while a document waits for validation is replaced
 * by one that polls the same submission at the same "MyInvois", and can cancel it afterwards.
 */
describe('#4 MyInvois sandbox: a reporting worker killed before validation is replaced by one that finishes the job, sandbox mode', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess;
  let client: Client;
  let supplier: string;
  const clientId = `client-${run}`;

  // Documents stay Submitted for 6 s: long enough to kill the worker before MyInvois validates.
  const startWorker = () => startApp('reporting-worker', testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '6000' }));
  const documents = () => myInvoisDocuments(client, () => supplier);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e myinvois sandbox restart');
    const started = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startWorker();
    await untilWorkersReady(started, 'reporting-worker');
    supplier = await onboardMyInvoisSupplier(client, clientId);
    // Warm-up: the worker has joined its group once a first document is answered.
    expect((await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('WARMUP') }), { supplier_uuid: supplier, transport_mode: 'myinvois' })).status).toBe(200);
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('kill -9 after MyInvois accepted the document: the restarted worker sees it become valid, and cancel works', async () => {
    const answer = await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('RESTART') }), { supplier_uuid: supplier, transport_mode: 'myinvois' });
    expect(answer.status).toBe(200);
    const uuid: string = answer.body.data.submissionResponse.acceptedDocuments[0].uuid;
    await worker.crash();
    expect((await documents().stateOf(uuid)).body.data.state).toBe('submitted');

    worker = startWorker();
    await documents().untilState(uuid, 'valid');
    // Polled to the end at the same MyInvois: the restarted worker submitted nothing again.
    const [{ n }] = await dataSource.query(
      `SELECT count(*)::int AS n FROM myinvois_sandbox_documents WHERE summary->>'internalId' = $1`,
      [id('RESTART')],
    );
    expect(n).toBe(1);

    const cancelled = await client.post(`/api/einvoice/documents/${uuid}/cancel`, { reason: 'Wrong buyer' }, { supplier_uuid: supplier });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.state).toBe('cancelled');
  });
});
