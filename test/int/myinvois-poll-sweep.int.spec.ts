// #8: MyInvois polls are timed by the read model's next_poll_at, swept by one worker, not by poll
// events travelling through Kafka while a partition sleeps.
import type { DataSource } from 'typeorm';
import type { EventStore } from '@einvoice/domain/infrastructure';
import { PollSweep, dueSubmissions } from '../../apps/reporting-worker/src/myinvois/poll-sweep';
import { createMyInvoisHandler } from '../../apps/reporting-worker/src/myinvois/report-myinvois';
import { openTestDatabase } from '../support/database';
import { appendMyInvoisSubmission, sandboxWorker, storeMyInvoisSupplier, workerContext as context } from '../support/myinvois-worker';

describe('#8 MyInvois poll sweep over next_poll_at (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  it('polls a submission when it is due, records when the next poll is, and not before', async () => {
    const seller = await storeMyInvoisSupplier(dataSource);
    // A long interval: the second round must find nothing due.
    const deps = { ...sandboxWorker(store).deps, pollIntervalMs: 60_000 };
    const { event, data, streamId } = await appendMyInvoisSubmission(store, seller, [`SWEEP-${seller.supplierId.slice(0, 8)}`]);
    await createMyInvoisHandler(deps)(event, context);
    const nextPollAt = async () => (await dataSource.query(`SELECT next_poll_at FROM myinvois_documents WHERE submission_id = $1`, [data.submissionId]))[0].next_poll_at;
    expect(await dueSubmissions(dataSource, 10_000)).toContain(data.submissionId);

    const sweep = new PollSweep(deps, { dataSource, lockName: `sweep-${seller.supplierId}`, intervalMs: 60_000 });
    expect(await sweep.runOnce()).toBe(true);
    const polls = (await store.readStream(streamId)).filter((e) => e.type === 'MyInvoisSubmissionPolled');
    expect(polls).toHaveLength(1);
    const due = new Date(await nextPollAt()).getTime();
    expect(due).toBe(Date.parse((polls[0].data as { nextPollAt: string }).nextPollAt));
    expect(await dueSubmissions(dataSource, 10_000)).not.toContain(data.submissionId);

    await sweep.runOnce();
    expect((await store.readStream(streamId)).filter((e) => e.type === 'MyInvoisSubmissionPolled')).toHaveLength(1);
  });
});
