// The reporting worker's stale sweep against real PostgreSQL and the in-memory sandbox: a document
// MyInvois validates only after the chain of polls has stopped still ends up `valid`, and a
// submission whose event was never handled (dead-lettered) is submitted after all, once.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, RecordedEvent } from '@einvoice/domain';
import { myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { openTestDatabase } from '../support/database';
import { invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { pollWith, sandboxWorker, storeMyInvoisSupplier, submittedDocumentOf, workerContext as context } from '../support/myinvois-worker';
import { createMyInvoisHandler } from '../../apps/reporting-worker/src/myinvois/report-myinvois';
import { StaleSweep, waitingSubmissions } from '../../apps/reporting-worker/src/myinvois/stale-sweep';
import { createBuyerRejectionHandler } from '../../apps/reporting-worker/src/myinvois/buyer-rejection';

describe('MyInvois stale sweep', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  /** A submission as the gateway records it; its event not handled yet. */
  async function submitted() {
    const { supplierId, tenantId, supplier, credentials } = await storeMyInvoisSupplier(dataSource);
    const worker = sandboxWorker(store);
    const deps = { ...worker.deps, maxPolls: 1 };
    const handle = createMyInvoisHandler(deps);
    const prepared = myinvois.prepareSubmission('invoice', ['S-1', 'S-2'].map((id) => invoiceBody({ ID: `${id}-${randomUUID().slice(0, 8)}` })), supplier, new Set());
    const data = { submissionId: randomUUID(), tenantId, supplierId, kind: 'invoice' as const, documents: prepared.documents.map(submittedDocumentOf), submittedAt: new Date().toISOString() };
    const streamId = myInvoisSubmissionStreamId(data.submissionId);
    await store.transaction((uow) => handleCommand(uow, myInvoisSubmissionDecider, streamId, { type: 'SubmitToMyInvois', data }, { tenantId }));
    const history = () => store.transaction((uow) => uow.readStream(streamId)) as Promise<RecordedEvent[]>;
    const states = async () => (await dataSource.query(`SELECT state FROM myinvois_documents WHERE submission_id = $1`, [data.submissionId])).map((r: { state: string }) => r.state);
    const sweep = (over: { staleAfterMs?: number; unansweredAfterMs?: number }) =>
      new StaleSweep(deps, {
        dataSource, lockName: `stale-${randomUUID()}`, intervalMs: 60_000, staleAfterMs: 3_600_000, unansweredAfterMs: 3_600_000,
        handler: handle, rejectionHandler: createBuyerRejectionHandler(deps), now: () => Date.now() + 1_000, ...over,
      });
    return { data, worker, deps, credentials, handle, history, states, sweep };
  }

  /** A submission the worker answered and polled once (MyInvois: still Submitted), with a chain of one poll: over. */
  async function pollsGaveUp() {
    const submission = await submitted();
    const { handle, history } = submission;
    await handle((await history())[0], context); // submitted: accepted
    await pollWith(submission.deps)(submission.data.submissionId); // first poll: still Submitted, and the last one
    return submission;
  }

  it('given the polls gave up on a submission, when the sweep runs, then MyInvois is asked again and its documents become valid', async () => {
    const { data, history, states, sweep } = await pollsGaveUp();
    expect(await states()).toEqual(['submitted', 'submitted']);
    const polls = async () => (await history()).filter((e) => e.type === 'MyInvoisSubmissionPolled').map((e) => e.data);
    expect(await polls()).toEqual([expect.objectContaining({ pollNo: 1, nextPollAt: null })]);

    expect(await sweep({ staleAfterMs: 0 }).runOnce()).toBe(true);

    expect(await states()).toEqual(['valid', 'valid']);
    const validated = (await history()).filter((e) => e.type === 'MyInvoisDocumentValidated');
    expect(validated.map((e) => (e.data as { documentId: string }).documentId).sort()).toEqual(data.documents.map((d) => d.documentId).sort());
    // Asked once more, not a new chain: no further poll is due.
    expect(await polls()).toEqual([expect.objectContaining({ pollNo: 1, nextPollAt: null })]);
  });

  it('given a submission whose event was never handled, when the sweep runs, then it is submitted, once, and a second round sends nothing', async () => {
    const { data, worker, credentials, history, states, sweep } = await submitted();
    expect(await states()).toEqual(['pending', 'pending']);

    await sweep({ unansweredAfterMs: 0 }).runOnce();
    expect(await states()).toEqual(['submitted', 'submitted']);
    await sweep({ unansweredAfterMs: 0 }).runOnce();

    expect((await history()).filter((e) => e.type === 'MyInvoisSubmissionAttempted')).toHaveLength(1);
    const token = await worker.sandbox.login(credentials);
    const held = (await worker.sandbox.recentDocuments(token, { pageSize: 100 })).result.map((d) => d.internalId);
    expect(held.filter((id) => data.documents.some((d) => d.invoiceCodeNumber === id))).toHaveLength(2);
  });

  it('an item that fails for good is set aside, not tried every round; a retriable failure is tried again', async () => {
    const { data } = await submitted();
    const { deps } = sandboxWorker(store);
    let calls = 0;
    let failure = new AppError('conflict', 'MYINVOIS.NO_CREDENTIALS', 'gone', { retriable: false });
    const failing = async (event: RecordedEvent) => {
      if (event.streamId !== myInvoisSubmissionStreamId(data.submissionId)) return;
      calls++;
      throw failure;
    };
    const sweep = new StaleSweep(deps, {
      dataSource, lockName: `stale-${randomUUID()}`, intervalMs: 60_000, staleAfterMs: 3_600_000, unansweredAfterMs: 0,
      handler: failing, rejectionHandler: async () => undefined, now: () => Date.now() + 1_000,
    });
    await sweep.runOnce();
    await sweep.runOnce();
    expect(calls).toBe(1);

    const { deps: other } = sandboxWorker(store);
    failure = new AppError('unavailable', 'MYINVOIS.UNAVAILABLE', 'down', { retriable: true });
    const retrying = new StaleSweep(other, {
      dataSource, lockName: `stale-${randomUUID()}`, intervalMs: 60_000, staleAfterMs: 3_600_000, unansweredAfterMs: 0,
      handler: failing, rejectionHandler: async () => undefined, now: () => Date.now() + 1_000,
    });
    await retrying.runOnce();
    await retrying.runOnce();
    expect(calls).toBe(3);
  });

  it('selects only submissions accepted before the stale limit', async () => {
    const { data } = await pollsGaveUp();
    expect(await waitingSubmissions(dataSource, 'submitted', new Date(Date.now() + 1_000), 10_000)).toContain(data.submissionId);
    expect(await waitingSubmissions(dataSource, 'submitted', new Date(Date.now() - 60_000), 10_000)).not.toContain(data.submissionId);
  });
});
