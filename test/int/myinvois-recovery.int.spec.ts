// The reporting-worker's MyInvois handler against real PostgreSQL and the in-memory sandbox:
// the recovery branches after a Submit Documents call whose answer was lost (the e2e crash test
// covers "all found"; these cover "some found, the rest submitted" and "the rest refused").
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { RecordedEvent } from '@einvoice/domain';
import { MyInvoisDocumentsSubmittedData, MyInvoisSubmissionAcceptedData, myInvoisSubmissionDecider } from '@einvoice/areas';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { openTestDatabase } from '../support/database';
import { appendMyInvoisSubmission, sandboxWorker, storeMyInvoisSupplier, workerContext as context } from '../support/myinvois-worker';

describe('MyInvois reporting after a lost Submit Documents answer', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  /** A Malaysian supplier with stored credentials, a submission of `ids`, and the sandbox it talks to. */
  async function submission(ids: readonly string[]) {
    const seller = await storeMyInvoisSupplier(dataSource);
    const { credentials } = seller;
    // Unique internal ids per run: the sandbox's DV302 key includes them.
    const { data, streamId } = await appendMyInvoisSubmission(store, seller, ids.map((id) => `${id}-${seller.supplierId.slice(0, 8)}`));
    const metadata = { tenantId: seller.tenantId, correlationId: randomUUID() };
    const { sandbox, handler, poll } = sandboxWorker(store);

    /** What the first worker did before it died: committed its attempt, and MyInvois took `sent`. */
    async function lostAttempt(sent: readonly MyInvoisDocumentsSubmittedData['documents'][number][]) {
      await store.transaction((uow) =>
        handleCommand(uow, myInvoisSubmissionDecider, streamId, {
          type: 'RecordSubmissionAttempt',
          data: { submissionId: data.submissionId, attempt: 1, attemptedAt: new Date().toISOString(), codeNumbers: data.documents.map((d) => d.invoiceCodeNumber) },
        }, metadata),
      );
      const token = await sandbox.login(credentials);
      return sandbox.submitDocuments(token, sent.map((d) => myinvois.prepareDocument(d.format, d.invoiceCodeNumber, d.document)));
    }
    const history = () => store.transaction((uow) => uow.readStream(streamId)) as Promise<RecordedEvent[]>;
    /** Every document MyInvois holds for this supplier: a document submitted twice would show twice. */
    async function atMyInvois() {
      const token = await sandbox.login(credentials);
      return (await sandbox.recentDocuments(token, { pageSize: 100 })).result.map((d) => d.internalId).sort();
    }
    return { data, sandbox, handler, poll, lostAttempt, history, atMyInvois };
  }

  const answerOf = (events: readonly RecordedEvent[]) =>
    events.find((e) => e.type === 'MyInvoisSubmissionAccepted')?.data as MyInvoisSubmissionAcceptedData | undefined;

  it('records the documents MyInvois already has as recovered and submits only the rest', async () => {
    const { data, handler, lostAttempt, history, atMyInvois } = await submission(['R-1', 'R-2', 'R-3', 'R-4']);
    const lost = await lostAttempt(data.documents.slice(0, 2));

    const submitted = (await history())[0];
    await handler(submitted, context);
    await handler(submitted, context); // redelivered: answered before, nothing is sent again

    const answer = answerOf(await history());
    expect(answer?.rejectedDocuments).toEqual([]);
    const byCode = new Map(answer?.acceptedDocuments.map((d) => [d.invoiceCodeNumber, d]));
    for (const [i, doc] of data.documents.slice(0, 2).entries()) {
      expect(byCode.get(doc.invoiceCodeNumber)).toMatchObject({ documentId: doc.documentId, uuid: lost.acceptedDocuments[i].uuid, submissionUid: lost.submissionUid, recovered: true });
    }
    for (const doc of data.documents.slice(2)) {
      expect(byCode.get(doc.invoiceCodeNumber)).toMatchObject({ documentId: doc.documentId });
      expect(byCode.get(doc.invoiceCodeNumber)?.recovered).toBeUndefined();
    }
    expect(answer?.submissionUid).not.toBe(lost.submissionUid);
    expect(await atMyInvois()).toEqual(data.documents.map((d) => d.invoiceCodeNumber).sort());
    expect((await history()).filter((e) => e.type === 'MyInvoisSubmissionAttempted')).toHaveLength(2);
  });

  it('polls both submissions the documents ended up in until every document is valid', async () => {
    const { data, handler, lostAttempt, history, poll } = await submission(['P-1', 'P-2']);
    await lostAttempt(data.documents.slice(0, 1));
    await handler((await history())[0], context);

    // Poll as the worker's poll sweep does while documents stay `submitted` (next_poll_at).
    for (let i = 0; i < 5 && (await history()).filter((e) => e.type === 'MyInvoisDocumentValidated').length < data.documents.length; i++) {
      await poll(data.submissionId);
    }
    const validated = (await history()).filter((e) => e.type === 'MyInvoisDocumentValidated').map((e) => (e.data as { documentId: string }).documentId);
    expect(validated.sort()).toEqual(data.documents.map((d) => d.documentId).sort());
  });

  it('rejects only the rest, with the reason, when MyInvois refuses their submission as a whole', async () => {
    const { data, handler, lostAttempt, history, atMyInvois } = await submission(['X-1', 'X-2']);
    await lostAttempt(data.documents.slice(0, 1));
    // The rest now exceeds MyInvois's 300 KB per document: the whole second call is refused.
    const [found, rest] = data.documents;
    const oversized = `${rest.document}${' '.repeat(310_000)}`;
    const submitted = (await history())[0];
    const tooBig = { ...submitted, data: { ...data, documents: [found, { ...rest, document: oversized, documentHash: myinvois.documentHash(oversized) }] } };

    await handler(tooBig, context);

    const answer = answerOf(await history());
    expect(answer?.acceptedDocuments).toEqual([expect.objectContaining({ documentId: found.documentId, recovered: true })]);
    expect(answer?.rejectedDocuments).toEqual([expect.objectContaining({ documentId: rest.documentId, invoiceCodeNumber: rest.invoiceCodeNumber, error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) })]);
    expect(await atMyInvois()).toEqual([found.invoiceCodeNumber]);
  });

  it('submits everything when the earlier attempt never reached MyInvois', async () => {
    const { data, handler, lostAttempt, history, atMyInvois } = await submission(['N-1', 'N-2']);
    await lostAttempt([]).catch(() => undefined); // an empty call: MyInvois refuses it, as if it never arrived
    await handler((await history())[0], context);

    const answer = answerOf(await history());
    expect(answer?.acceptedDocuments.map((d) => d.recovered)).toEqual([undefined, undefined]);
    expect(await atMyInvois()).toEqual(data.documents.map((d) => d.invoiceCodeNumber).sort());
  });
});
