// Two handlers of one submission at the same time (a Kafka delivery and the stale sweep, or two
// workers after a rebalance), against real PostgreSQL and a slow in-memory sandbox: MyInvois gets
// the documents once; the loser is told to come back (retriable) and then finds the answer.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, RecordedEvent } from '@einvoice/domain';
import { EventStore } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../support/database';
import { appendMyInvoisSubmission, sandboxWorker, storeMyInvoisSupplier, workerContext as context } from '../support/myinvois-worker';
import { createMyInvoisHandler } from '../../apps/reporting-worker/src/myinvois/report-myinvois';

describe('MyInvois submission handled twice at once', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  it('submits once: the second handler gets MYINVOIS.SUBMISSION_IN_FLIGHT (retriable), and its retry records nothing new', async () => {
    const seller = await storeMyInvoisSupplier(dataSource);
    const { deps, sandbox } = sandboxWorker(store);
    let calls = 0;
    // Barriers, no timing: MyInvois holds its answer until the second handler has been refused,
    // and the second handler starts only once the first one's Submit Documents call is in flight.
    let inFlight!: () => void;
    const submitting = new Promise<void>((resolve) => (inFlight = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = Object.create(sandbox) as typeof sandbox;
    slow.submitDocuments = async (token, documents) => {
      calls++;
      inFlight();
      await released;
      return sandbox.submitDocuments(token, documents);
    };
    const handle = createMyInvoisHandler({ ...deps, connector: slow });
    const { event, streamId } = await appendMyInvoisSubmission(store, seller, [`RACE-1-${randomUUID().slice(0, 8)}`, `RACE-2-${randomUUID().slice(0, 8)}`]);

    const firstRun = handle(event, context);
    await submitting;
    const [second] = await Promise.allSettled([handle(event, context)]);
    release();
    const [first] = await Promise.allSettled([firstRun]);

    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('rejected');
    const refusal = (second as PromiseRejectedResult).reason as AppError;
    expect(refusal).toBeInstanceOf(AppError);
    expect({ code: refusal.code, retriable: refusal.retriable }).toEqual({ code: 'MYINVOIS.SUBMISSION_IN_FLIGHT', retriable: true });

    await handle(event, context); // the consumer's retry
    expect(calls).toBe(1);
    const history = (await store.transaction((uow) => uow.readStream(streamId))) as RecordedEvent[];
    expect(history.filter((e) => e.type === 'MyInvoisSubmissionAttempted')).toHaveLength(1);
    const accepted = history.filter((e) => e.type === 'MyInvoisSubmissionAccepted');
    expect(accepted).toHaveLength(1);
    expect((accepted[0].data as { rejectedDocuments: unknown[] }).rejectedDocuments).toEqual([]);
  });
});
