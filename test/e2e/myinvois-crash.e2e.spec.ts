import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { FakeMyInvoisServer } from '../fakes/myinvois/server';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { myInvoisDocuments, onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, startApp, startGateway, testEnv } from '../support/stack';
import { waitUntil } from '../support/wait';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;

/**
 * ISSUE 4 item 9: a worker restart in the middle of a bulk submits nothing twice. The "authority"
 * (the fake MyInvois, in this test process) outlives the worker: it records the submission, then
 * holds its 2xx while the worker is killed (-9); the restarted worker finds the attempt marker,
 * asks Get Recent Documents, and records what MyInvois already has instead of resubmitting.
 */
describe('#4 MyInvois: a worker killed after MyInvois received a bulk (answer not read) submits nothing twice, live mode against the fake', () => {
  let dataSource: DataSource;
  let fake: FakeMyInvoisServer;
  let gateway: AppProcess;
  let worker: AppProcess;
  let client: Client;
  let supplier: string;

  const headers = () => ({ supplier_uuid: supplier, transport_mode: 'peppol' });
  const untilState = (key: string, state: string) => myInvoisDocuments(client, () => supplier).untilState(key, state);
  const live = () => ({ MYINVOIS_MODE: 'live', MYINVOIS_API_URL: fake.url });
  const startWorker = () => startApp('reporting-worker', testEnv({ ...live(), MYINVOIS_POLL_MS: '500' }));
  const submitsOf = (code: string) => fake.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1.0/documentsubmissions' && r.body.includes(JSON.stringify(code)));

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    fake = new FakeMyInvoisServer({ validationDelayMs: 1000 });
    await fake.start();
    const { apiKey } = await createTenant(dataSource, 'e2e myinvois crash');
    const started = await startGateway({ ...live(), MYINVOIS_WAIT_MS: '2000' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startWorker();
    supplier = await onboardMyInvoisSupplier(client, `client-${run}`);
    // Warm-up: the worker has joined its group once a first document is answered.
    await client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: id('WARMUP') }), headers());
    await untilState(id('WARMUP'), 'valid');
  });

  afterAll(async () => {
    fake?.delaySubmit(0);
    await worker?.stop();
    await gateway?.stop();
    await fake?.stop();
    await dataSource?.destroy();
  });

  it('kill -9 between MyInvois receiving the bulk and the worker reading its 2xx: one submission, the first uuids, recovered', async () => {
    fake.delaySubmit(10_000);
    const codes = Array.from({ length: 5 }, (_, i) => id(`CRASH-${i}`));
    const posting = client.post('/api/einvoice/generate/invoice/bulk', codes.map((ID) => invoiceBody({ ID })), headers());
    await waitUntil('MyInvois received the bulk', async () => codes.every((code) => submitsOf(code).length === 1), 30_000);
    await worker.crash();
    fake.delaySubmit(0);

    const answer = await posting;
    expect(answer.status).toBe(202);
    const pending: { documentId: string; invoiceCodeNumber: string }[] = answer.body.data.submissionResponse.pendingDocuments;
    expect(pending.map((p) => p.invoiceCodeNumber).sort()).toEqual([...codes].sort());

    worker = startWorker();
    const valid = new Map<string, { uuid: string; submissionUid: string }>();
    for (const p of pending) valid.set(p.invoiceCodeNumber, await untilState(p.documentId, 'valid'));

    // Exactly one Submit Documents carried each document: the restarted worker did not resubmit.
    for (const code of codes) expect(submitsOf(code)).toHaveLength(1);
    const first = fake.submissions.find((s) => s.acceptedDocuments.some((d) => d.invoiceCodeNumber === codes[0]));
    expect(first?.acceptedDocuments.map((d) => d.invoiceCodeNumber).sort()).toEqual([...codes].sort());
    for (const d of first?.acceptedDocuments ?? []) {
      expect(valid.get(d.invoiceCodeNumber)).toMatchObject({ uuid: d.uuid, submissionUid: first?.submissionUid });
    }
    // It asked Get Recent Documents instead, and recorded the documents as recovered.
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/api/v1.0/documents/recent?'))).toBe(true);
    const events = await dataSource.query(
      `SELECT type, data FROM events WHERE stream_id IN (SELECT 'report-' || report_id FROM documents WHERE batch_key = $1) ORDER BY stream_id, stream_position`,
      [answer.body.data.submissionId],
    );
    expect(events.filter((e: { type: string }) => e.type === 'AuthorityReportAttempted')).toHaveLength(5);
    const accepted = events.filter((e: { type: string }) => e.type === 'AuthorityReportAccepted');
    expect(accepted).toHaveLength(5);
    expect(accepted.every((e: { data: { recovered?: boolean } }) => e.data.recovered === true)).toBe(true);
  });

  it('one login for the supplier in all: the gateway at onboarding, both workers reuse its token (shared, sealed, in Redis)', () => {
    expect(fake.logins(`client-${run}`)).toBe(1);
  });
});
