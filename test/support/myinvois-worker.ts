// The reporting-worker's MyInvois handler on real PostgreSQL against the in-memory sandbox:
// a supplier with stored (sealed) credentials, the handler, and submissions as the gateway appends them.
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RecordedEvent, SecretBox } from '@einvoice/domain';
import { MyInvoisDocumentsSubmittedData, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { type EventStore, type MessageContext, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { invoiceBody, supplier as supplierFixture } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { MyInvoisReportingDependencies, createMyInvoisHandler, pollDue } from '../../apps/reporting-worker/src/myinvois/report-myinvois';
import { submittedDocumentOf } from '../../apps/gateway/src/areas/myinvois/peppol-leg';

/** Handler calls outside Kafka: nothing to heartbeat. */
export const workerContext: MessageContext = { topic: 't', partition: 0, offset: '0', attempt: 1, headers: {}, heartbeat: async () => undefined };

export const testSecrets = SecretBox.fromKey(randomBytes(32));

/** A Malaysian supplier (read model row) with its MyInvois credentials stored sealed, as onboarding leaves them. */
export async function storeMyInvoisSupplier(dataSource: DataSource, tin = supplierFixture.tin) {
  const supplierId = randomUUID();
  const tenantId = randomUUID();
  const credentials = { clientId: `client-${supplierId}`, clientSecret: 'secret', onBehalfOfTin: tin };
  await dataSource.query(
    `INSERT INTO suppliers (id, tenant_id, area, registered_name, profile, created_at, version) VALUES ($1, $2, 'my', $3, $4, now(), 1)`,
    [supplierId, tenantId, supplierFixture.registeredName, { registeredName: supplierFixture.registeredName, country: 'MYS', identifiers: [{ scheme: 'MY:TIN', id: tin }] }],
  );
  await dataSource.query(`INSERT INTO authority_credentials (supplier_id, authority, client_id, client_secret_sealed) VALUES ($1, $2, $3, $4)`, [
    supplierId, myinvois.MYINVOIS_AUTHORITY, credentials.clientId, testSecrets.seal(credentials.clientSecret),
  ]);
  return { supplierId, tenantId, credentials, supplier: { ...supplierFixture, tin } };
}

/** The MyInvois handler of a reporting worker on its own sandbox (validation at the second poll, no waits). */
export function sandboxWorker(store: EventStore) {
  const sandbox = new myinvois.SandboxMyInvois({ validationDelayMs: 0 });
  const deps: MyInvoisReportingDependencies = {
    store,
    connector: sandbox,
    tokens: new myinvois.TokenCache((c) => sandbox.login(c)),
    secrets: testSecrets,
    groupId: `reporting-${randomUUID()}`,
    log: () => undefined,
    pollIntervalMs: 0,
    maxPolls: 5,
    maxRetryAfterMs: 0, minDeferMs: 1_000,
  };
  return { sandbox, deps, handler: createMyInvoisHandler(deps), poll: pollWith(deps) };
}

/** One prepared document as the gateway puts it in `MyInvoisDocumentsSubmitted`. */
export { submittedDocumentOf };

/**
 * A bulk of invoices with internal ids `ids` for `seller` (from storeMyInvoisSupplier), appended as
 * the gateway appends it (MyInvoisDocumentsSubmitted, MyInvois only); the sandbox's DV302 key
 * includes the ids, so callers make them unique per run.
 */
export async function appendMyInvoisSubmission(
  store: EventStore,
  seller: Awaited<ReturnType<typeof storeMyInvoisSupplier>>,
  ids: readonly string[],
): Promise<{ data: MyInvoisDocumentsSubmittedData; event: RecordedEvent; streamId: string }> {
  const prepared = myinvois.prepareSubmission('invoice', ids.map((ID) => invoiceBody({ ID })), seller.supplier, new Set());
  if (prepared.rejected.length > 0) throw new Error(`fixture documents refused: ${JSON.stringify(prepared.rejected)}`);
  const data: MyInvoisDocumentsSubmittedData = {
    submissionId: randomUUID(),
    tenantId: seller.tenantId,
    supplierId: seller.supplierId,
    kind: 'invoice',
    documents: prepared.documents.map(submittedDocumentOf),
    submittedAt: new Date().toISOString(),
  };
  const streamId = myInvoisSubmissionStreamId(data.submissionId);
  const metadata = { tenantId: seller.tenantId, correlationId: randomUUID() };
  const [event] = await store.transaction((uow) => handleCommand(uow, myInvoisSubmissionDecider, streamId, { type: 'SubmitToMyInvois', data }, metadata));
  return { data, event, streamId };
}

/** One poll of a submission as the worker's poll sweep makes it when its `next_poll_at` comes (poll-sweep.ts). */
export function pollWith(deps: MyInvoisReportingDependencies) {
  return (submissionId: string) => pollDue(deps, submissionId, (tenantId) => ({ tenantId, correlationId: randomUUID() }), workerContext);
}
