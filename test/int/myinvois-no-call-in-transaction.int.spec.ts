// #8: no network call inside an open database transaction. The MyInvois handler's connector is
// wrapped so that every call first asks PostgreSQL whether one of this test's connections sits in an
// open transaction; submission, polls and cancellation must find none.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type RecordedEvent } from '@einvoice/domain';
import { myInvoisSubmissionDecider } from '@einvoice/areas';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { createMyInvoisHandler } from '../../apps/reporting-worker/src/myinvois/report-myinvois';
import { openTestDatabase } from '../support/database';
import { appendMyInvoisSubmission, pollWith, sandboxWorker, storeMyInvoisSupplier, workerContext as context } from '../support/myinvois-worker';

describe('#8 MyInvois reporting calls MyInvois with no transaction open', () => {
  let dataSource: DataSource;
  let store: EventStore;
  /** Per connector call: its name and the transactions open on this test's pool while it was made. */
  const calls: Array<{ call: string; openTransactions: number }> = [];

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  const openTransactions = async () =>
    Number(
      (
        await dataSource.query(
          `SELECT count(*) AS n FROM pg_stat_activity
           WHERE datname = current_database() AND application_name = 'einvoice-int-test' AND state LIKE 'idle in transaction%'`,
        )
      )[0].n,
    );

  /** The sandbox, each of whose calls first records how many transactions are open. */
  function watched(sandbox: myinvois.SandboxMyInvois): myinvois.MyInvoisConnector {
    return new Proxy(sandbox, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          calls.push({ call: String(property), openTransactions: await openTransactions() });
          return value.apply(target, args);
        };
      },
    });
  }

  it('submits, polls until valid and cancels, every call outside a transaction', async () => {
    const seller = await storeMyInvoisSupplier(dataSource);
    const { sandbox, deps } = sandboxWorker(store);
    const connector = watched(sandbox);
    const watchedDeps = { ...deps, connector, tokens: new myinvois.TokenCache((c) => connector.login(c)) };
    const handle = createMyInvoisHandler(watchedDeps);
    const poll = pollWith(watchedDeps);
    const { event, streamId, data } = await appendMyInvoisSubmission(store, seller, [`TX-${seller.supplierId.slice(0, 8)}`]);
    const history = () => store.readStream(streamId);
    const handleLast = async (type: string) => {
      const next = (await history()).filter((e: RecordedEvent) => e.type === type).at(-1);
      if (!next) throw new Error(`no ${type} in ${streamId}`);
      await handle(next, context);
    };

    await handle(event, context);
    for (let round = 0; round < 5 && !(await history()).some((e) => e.type === 'MyInvoisDocumentValidated'); round += 1) await poll(data.submissionId);
    const validated = (await history()).find((e) => e.type === 'MyInvoisDocumentValidated');
    expect(validated).toBeDefined();
    const uuid = (validated?.data as { uuid: string }).uuid;
    await store.transaction((uow) =>
      handleCommand(uow, myInvoisSubmissionDecider, streamId, {
        type: 'RequestCancellation',
        data: { submissionId: data.submissionId, documentId: data.documents[0].documentId, uuid, reason: 'Wrong buyer', requestedAt: new Date().toISOString() },
      }, { tenantId: seller.tenantId, correlationId: randomUUID() }),
    );
    await handleLast('MyInvoisDocumentCancellationRequested');
    expect((await history()).map((e) => e.type)).toContain('MyInvoisDocumentCancelled');

    expect(calls.map((c) => c.call)).toEqual(expect.arrayContaining(['login', 'submitDocuments', 'getSubmission', 'cancelDocument']));
    expect(calls.filter((c) => c.openTransactions > 0)).toEqual([]);
  });
});
