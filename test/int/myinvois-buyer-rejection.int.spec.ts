// A buyer's rejection of a document it received, as a report of the generic reporting pipeline (#8),
// sent by the reporting worker's batch sweep against real PostgreSQL and the in-memory sandbox: a
// request whose first Reject Document call reached MyInvois (answer lost in a crash) is recorded as
// done, not as MyInvois's "only once" refusal; a request no event ever delivered is found and sent once.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type AuthorityReportRequestedData, type RecordedEvent, authorityReportDecider, authorityReportStreamId, createLogger } from '@einvoice/domain';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { openTestDatabase } from '../support/database';
import { customer, invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { sandboxWorker, storeMyInvoisSupplier } from '../support/myinvois-worker';
import { dueBatches, sendBatch } from '../../apps/reporting-worker/src/authority/report-batch-sweep';
import type { AuthorityReportingDependencies } from '../../apps/reporting-worker/src/authority/report-to-authority';

describe('#8 MyInvois buyer rejection on the reporting pipeline (batch sweep, real PostgreSQL, sandbox)', () => {
  const run = Date.now().toString(36);
  // The sweep looks for every due batch of an area: this file's reports go under an area code of its
  // own (MyInvois's connector under it), so other suites' pending MyInvois reports are not taken.
  const area = `my-rejection-${run}`;
  const policy = { maxReports: 100, maxWaitMs: 0, issuerCallsAtOnce: 4 };
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  /** A valid invoice from an issuer to an onboarded buyer, and the buyer's rejection request recorded as the gateway records it. */
  async function requestedRejection(reason: string) {
    const issuer = await storeMyInvoisSupplier(dataSource);
    const buyer = await storeMyInvoisSupplier(dataSource, customer.CustomerTIN);
    const { sandbox, connector } = sandboxWorker(store);
    const issuerToken = await sandbox.login(issuer.credentials);
    const prepared = myinvois.prepareSubmission('invoice', [invoiceBody({ ID: `RJ-${randomUUID().slice(0, 8)}` })], issuer.supplier, new Set(), { submissionId: randomUUID(), transportMode: 'myinvois' });
    const submission = await sandbox.submitDocuments(issuerToken, prepared.documents.map((d) => myinvois.prepareDocument('JSON', d.parsed.number, d.rendered.bytes)));
    const [{ uuid }] = submission.acceptedDocuments;
    await sandbox.getSubmission(issuerToken, submission.submissionUid); // first poll: Submitted
    expect((await sandbox.getSubmission(issuerToken, submission.submissionUid)).overallStatus).toBe('valid');

    const asked = { tenantId: buyer.tenantId, buyerId: buyer.supplierId, uuid, reason, ruleSetId: 'myinvois:document:1.1', requestedAt: new Date().toISOString() };
    const request: AuthorityReportRequestedData = { ...myinvois.buyerRejectionRequest(asked, []), area };
    const streamId = authorityReportStreamId(request.reportId);
    await store.transaction((uow) => handleCommand(uow, authorityReportDecider, streamId, { type: 'RequestAuthorityReport', data: request }, { tenantId: buyer.tenantId }));
    const deps: AuthorityReportingDependencies = {
      store,
      connectors: new Map([[area, connector]]),
      batchPolicies: new Map([[area, policy]]),
      groupId: `reporting-${run}`,
      log: createLogger('test', 'error'),
    };
    const batch = { supplierId: buyer.supplierId, batchKey: request.batchKey as string };
    const history = () => store.readStream(streamId) as Promise<RecordedEvent[]>;
    const row = async () => (await dataSource.query(`SELECT direction, document_type, document_number, report_state, authority FROM documents WHERE id = $1`, [request.documentId]))[0];
    const buyerToken = () => sandbox.login(buyer.credentials);
    return { sandbox, uuid, request, deps, batch, history, row, buyerToken, send: () => sendBatch(deps, area, batch, policy) };
  }

  it('rejects at MyInvois with the buyer\'s token when nothing was sent before: reported, no longer pending', async () => {
    const { sandbox, uuid, history, row, send } = await requestedRejection('Not ordered');

    expect(await send()).toMatchObject({ sent: 1, recovered: 0, unanswered: 0 });

    expect((await history()).map((e) => e.type)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
    expect(await row()).toMatchObject({ direction: 'incoming', document_type: 'rejection', document_number: uuid, report_state: 'reported', authority: { receipt: {} } });
    const buyerView = await sandbox.recentDocuments(await sandbox.login({ clientId: 'x', clientSecret: 'y', onBehalfOfTin: customer.CustomerTIN }), { invoiceDirection: 'Received' });
    expect(buyerView.result.find((d) => d.uuid === uuid)).toMatchObject({ documentStatusReason: 'Not ordered', rejectRequestDateTime: expect.any(String) });
  });

  it('records a rejection MyInvois already holds with this request\'s reason as done (a call whose answer was lost)', async () => {
    const { sandbox, uuid, history, buyerToken, send } = await requestedRejection('Wrong quantity on line 1');
    await sandbox.rejectDocument(await buyerToken(), uuid, 'Wrong quantity on line 1'); // the first worker's call, answer lost

    await send();

    const events = await history();
    expect(events.map((e) => e.type)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
    expect(events[2].data).toMatchObject({ final: true, receipt: {} });
  });

  it('after an attempt whose answer was lost, asks MyInvois first (recover) and does not call Reject Document again', async () => {
    const { sandbox, uuid, request, history, buyerToken, send } = await requestedRejection('Damaged goods');
    await store.transaction((uow) =>
      handleCommand(uow, authorityReportDecider, authorityReportStreamId(request.reportId), {
        type: 'RecordReportAttempt', data: { reportId: request.reportId, attempt: 1, attemptedAt: new Date().toISOString() },
      }, { tenantId: request.tenantId }),
    );
    await sandbox.rejectDocument(await buyerToken(), uuid, 'Damaged goods'); // that attempt's call
    const reject = jest.spyOn(sandbox, 'rejectDocument');

    expect(await send()).toMatchObject({ sent: 0, recovered: 1 });

    expect(reject).not.toHaveBeenCalled();
    expect((await history()).at(-1)).toMatchObject({ type: 'AuthorityReportAccepted', data: { recovered: true, final: true } });
  });

  it('records MyInvois\'s refusal, with how it refused and its error as stated, when the document was rejected before with another reason', async () => {
    const { sandbox, uuid, history, row, buyerToken, send } = await requestedRejection('Wrong price');
    await sandbox.rejectDocument(await buyerToken(), uuid, 'Rejected in the MyInvois portal');

    await send();

    const events = await history();
    expect(events.map((e) => e.type)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportRejected']);
    expect(events[2].data).toMatchObject({ error: { code: 'IncorrectState' }, receipt: { refusal: 'conflict' } });
    expect(await row()).toMatchObject({ report_state: 'rejected', authority: { receipt: { refusal: 'conflict' } } });
  });

  it('a request whose event was never handled (dead-lettered) is found by the batch sweep in documents and sent once', async () => {
    const { sandbox, batch, history, deps, send } = await requestedRejection('Duplicate of another invoice');
    const reject = jest.spyOn(sandbox, 'rejectDocument');

    expect(await dueBatches(deps.store.dataSource, area, policy, 1_000)).toContainEqual(batch);
    await send();
    await send();

    expect(reject).toHaveBeenCalledTimes(1);
    expect((await history()).map((e) => e.type)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
    expect(await dueBatches(deps.store.dataSource, area, policy, 1_000)).not.toContainEqual(batch);
  });
});
