// The buyer's rejection in the reporting-worker against real PostgreSQL and the in-memory sandbox:
// a redelivered request whose first Reject Document call reached MyInvois (answer lost in a crash)
// is recorded as done, not as MyInvois's "only once" refusal.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RecordedEvent } from '@einvoice/domain';
import { myInvoisRejectionDecider, myInvoisRejectionStreamId } from '@einvoice/areas';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { openTestDatabase } from '../support/database';
import { customer, invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { sandboxWorker, storeMyInvoisSupplier, workerContext as context } from '../support/myinvois-worker';
import { RejectionRetry } from '../../apps/reporting-worker/src/myinvois/rejection-retry';

describe('buyer rejection after a lost Reject Document answer', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  /** A valid invoice from an issuer to an onboarded buyer, and the buyer's rejection request recorded by the gateway. */
  async function requestedRejection(reason: string) {
    const issuer = await storeMyInvoisSupplier(dataSource);
    const buyer = await storeMyInvoisSupplier(dataSource, customer.CustomerTIN);
    const { sandbox, handler } = sandboxWorker(store);
    const issuerToken = await sandbox.login(issuer.credentials);
    const prepared = myinvois.prepareSubmission('invoice', [invoiceBody({ ID: `RJ-${randomUUID().slice(0, 8)}` })], issuer.supplier, new Set());
    const submission = await sandbox.submitDocuments(issuerToken, prepared.documents.map((d) => d.submission));
    const [{ uuid }] = submission.acceptedDocuments;
    await sandbox.getSubmission(issuerToken, submission.submissionUid); // first poll: Submitted
    expect((await sandbox.getSubmission(issuerToken, submission.submissionUid)).overallStatus).toBe('valid');

    const rejectionId = randomUUID();
    const streamId = myInvoisRejectionStreamId(rejectionId);
    const data = { rejectionId, tenantId: buyer.tenantId, supplierId: buyer.supplierId, uuid, reason, requestedAt: new Date().toISOString() };
    await store.transaction((uow) => handleCommand(uow, myInvoisRejectionDecider, streamId, { type: 'RequestBuyerRejection', data }, { tenantId: buyer.tenantId }));
    const history = () => store.transaction((uow) => uow.readStream(streamId)) as Promise<RecordedEvent[]>;
    const buyerToken = () => sandbox.login(buyer.credentials);
    return { sandbox, uuid, history, buyerToken, handle: handler };
  }

  it('records a rejection MyInvois already holds with this request\'s reason as done', async () => {
    const { sandbox, uuid, history, buyerToken, handle } = await requestedRejection('Wrong quantity on line 1');
    await sandbox.rejectDocument(await buyerToken(), uuid, 'Wrong quantity on line 1'); // the first worker's call, answer lost

    await handle((await history())[0], context);

    expect((await history()).map((e) => e.type)).toEqual(['MyInvoisBuyerRejectionRequested', 'MyInvoisBuyerRejectionRecorded']);
  });

  it('records MyInvois\'s refusal when the document was rejected before with another reason', async () => {
    const { sandbox, uuid, history, buyerToken, handle } = await requestedRejection('Wrong price');
    await sandbox.rejectDocument(await buyerToken(), uuid, 'Rejected in the MyInvois portal');

    await handle((await history())[0], context);

    const events = await history();
    expect(events.map((e) => e.type)).toEqual(['MyInvoisBuyerRejectionRequested', 'MyInvoisBuyerRejectionRefused']);
    expect(events[1].data).toMatchObject({ kind: 'conflict' });
  });

  it('a request whose event was never handled (dead-lettered) is answered by the rejection retry, once', async () => {
    const { history, handle } = await requestedRejection('Duplicate of another invoice');
    const sweep = new RejectionRetry({
      dataSource, store, log: () => undefined, lockName: `stale-${randomUUID()}`, intervalMs: 60_000, unansweredAfterMs: 0,
      handler: handle, now: () => Date.now() + 1_000,
    });

    await sweep.runOnce();
    await sweep.runOnce();

    expect((await history()).map((e) => e.type)).toEqual(['MyInvoisBuyerRejectionRequested', 'MyInvoisBuyerRejectionRecorded']);
  });

  it('rejects at MyInvois when nothing was sent before', async () => {
    const { sandbox, uuid, history, handle } = await requestedRejection('Not ordered');

    await handle((await history())[0], context);

    expect((await history()).map((e) => e.type)).toEqual(['MyInvoisBuyerRejectionRequested', 'MyInvoisBuyerRejectionRecorded']);
    const issuerView = await sandbox.recentDocuments(await sandbox.login({ clientId: 'x', clientSecret: 'y', onBehalfOfTin: customer.CustomerTIN }), { invoiceDirection: 'Received' });
    expect(issuerView.result.find((d) => d.uuid === uuid)).toMatchObject({ documentStatusReason: 'Not ordered', rejectRequestDateTime: expect.any(String) });
  });
});
