import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;
// Due polls are looked for every 100 ms: a verdict three polls away comes well within the 3 s wait.
const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100' });
const document = (ID: string, extra: Record<string, unknown> = {}) => ({ ID, IssueDate: '2026-11-24', Total: 121.5, ...extra });

/**
 * #8: an area added the way docs/adding-an-area.md describes (libs/areas/src/toy, one controller, one
 * registry line) works end to end over HTTP with the four apps: onboarding, a synchronous answer from
 * its (sandbox) authority, the authority's refusal in the one error shape, and the 202 fallback when
 * the authority's answer does not come within the wait.
 */
describe('#8 the toy area: an area as a plug-in, over HTTP', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess | undefined;
  let client: Client;
  let supplier: string;
  const headers = () => ({ supplier_uuid: supplier });

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e toy area');
    const started = await startGateway({ AUTHORITY_WAIT_MS: '3000' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startApp('reporting-worker', workerEnv);
    const onboarded = await client.post('/toy/einvoice/onboard', { registered_name: 'Toy Maker', tax_id: `TOY${String(Date.now() % 1e6).padStart(6, '0')}` });
    expect(onboarded.status).toBe(201);
    supplier = onboarded.body.data.supplier_uuid;
    // The worker has joined its group once a first document is answered.
    await eventually('the first toy document reported', async () => {
      const answer = await client.post('/toy/einvoice/documents', document(id(`WARMUP-${Date.now()}`)), headers());
      return answer.status === 200 ? answer : undefined;
    });
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('refuses a bad onboarding body in the one error shape, naming the field', async () => {
    const answer = await client.post('/toy/einvoice/onboard', { registered_name: 'Toy Maker', tax_id: 'XYZ' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'tax_id', code: 'FIELD.INVALID_FORMAT' })]);
  });

  it('answers 200 with the authority\'s receipt, and GET shows the same document', async () => {
    const answer = await client.post('/toy/einvoice/documents', document(id('OK')), headers());
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ documentNumber: id('OK'), state: 'reported', ruleSetId: 'toy:invoice:1.0' });
    expect(answer.body.data.authority.receiptNumber).toMatch(/^TOY-\d{8}$/);
    const read = await client.get(`/toy/einvoice/documents/${answer.body.data.documentId}`, headers());
    expect(read.body.data).toEqual(answer.body.data);
  });

  it('answers the authority\'s refusal as a 400 with its own code, and a duplicate ID as a 409', async () => {
    const refused = await client.post('/toy/einvoice/documents', document(id('REFUSE-1')), headers());
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'ID', code: 'TOY-E001' })]);
    const rules = await client.post('/toy/einvoice/documents', document(id('R'), { Total: -1 }), headers());
    expect(rules.body.errors).toEqual([expect.objectContaining({ path: 'Total', code: 'TOY-R-001' })]);
    const again = await client.post('/toy/einvoice/documents', document(id('OK')), headers());
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('DOCUMENT.DUPLICATE_ID');
  });

  it('answers 202 with where to read the outcome when the authority does not answer in time, and GET has it later', async () => {
    await worker?.stop();
    worker = undefined;
    const pending = await client.post('/toy/einvoice/documents', document(id('LATE')), headers());
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ status: 'pending', data: { state: 'pending' } });
    const href: string = pending.body.data.href;
    expect((await client.get(href, headers())).body.data.state).toBe('pending');
    worker = startApp('reporting-worker', workerEnv);
    const done = await eventually('the late document reported', async () => {
      const read = await client.get(href, headers());
      return read.body.data.state === 'reported' ? read : undefined;
    });
    expect(done.body.data.authority.receiptNumber).toMatch(/^TOY-/);
  });

  it('waits, for a document the authority takes for processing only, for the verdict the poll sweep records', async () => {
    // Three polls 200 ms apart (libs/areas/src/toy/README.md) come within the 3 s wait.
    const answer = await client.post('/toy/einvoice/documents', document(id('SLOW')), headers());
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ state: 'reported', authority: { receiptNumber: expect.stringMatching(/^TOY-/), verdict: 'valid' } });
    const invalid = await client.post('/toy/einvoice/documents', document(id('SLOW-BAD')), headers());
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toEqual([expect.objectContaining({ path: 'Total', code: 'TOY-E003' })]);
  });

  it('cancels a reported document (200), answers the authority\'s refusal as a 409, and refuses what cannot be cancelled', async () => {
    const reported = await client.post('/toy/einvoice/documents', document(id('CANCEL')), headers());
    const path = `/toy/einvoice/documents/${reported.body.data.documentId}/cancel`;
    const blank = await client.post(path, { reason: ' ' }, headers());
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual([expect.objectContaining({ path: 'reason' })]);
    const cancelled = await client.post(path, { reason: 'Wrong buyer' }, headers());
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ state: 'cancelled', cancellation: { reason: 'Wrong buyer', error: null } });
    const again = await client.post(path, { reason: 'Wrong buyer' }, headers());
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('AUTHORITY.NOT_CANCELLABLE');

    const kept = await client.post('/toy/einvoice/documents', document(id('KEEP-1')), headers());
    const refused = await client.post(`/toy/einvoice/documents/${kept.body.data.documentId}/cancel`, { reason: 'Wrong buyer' }, headers());
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'TOY-E004' })]);
    expect((await client.get(`/toy/einvoice/documents/${kept.body.data.documentId}`, headers())).body.data.state).toBe('reported');
    const unknown = await client.post(`/toy/einvoice/documents/00000000-0000-4000-8000-000000000000/cancel`, { reason: 'x' }, headers());
    expect(unknown.status).toBe(404);
  });
});
