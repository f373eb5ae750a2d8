// transport_mode: peppol: the reporting-worker's poll step on real PostgreSQL against the sandbox
// (release-peppol-copies.ts): the PINT MY copy leaves only with its document's validation, once.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { myinvois } from '@einvoice/areas';
import { EventMetadata, RecordedEvent, documentDecider, documentStreamId } from '@einvoice/domain';
import { MyInvoisDocumentsSubmittedData, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../support/database';
import { documentSubmitted } from '../support/fixtures';
import { invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { freshTin } from '../support/myinvois';
import { sandboxWorker, storeMyInvoisSupplier, submittedDocumentOf, workerContext as ctx } from '../support/myinvois-worker';

describe('transport_mode: peppol: the reporting worker sends the PINT MY copy only once MyInvois says Valid (real PostgreSQL, sandbox MyInvois)', () => {
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  let store: EventStore;
  let handle: ReturnType<typeof sandboxWorker>['handler'];
  let seller: Awaited<ReturnType<typeof storeMyInvoisSupplier>>;
  let poll: (submissionId: string) => Promise<void>;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    ({ handler: handle, poll } = sandboxWorker(store));
    seller = await storeMyInvoisSupplier(dataSource, freshTin());
  });

  afterAll(() => dataSource?.destroy());

  /** Appends a MyInvoisDocumentsSubmitted as the gateway does, each document with its PINT MY copy. */
  async function submit(ids: string[], replaceDocument?: string): Promise<{ data: MyInvoisDocumentsSubmittedData; event: RecordedEvent }> {
    const { tenantId, supplierId, supplier } = seller;
    const prepared = myinvois.preparePeppolLeg(myinvois.prepareSubmission('invoice', ids.map((ID) => invoiceBody({ ID })), supplier, new Set()), supplier);
    const data: MyInvoisDocumentsSubmittedData = {
      submissionId: randomUUID(), tenantId, supplierId, kind: 'invoice', submittedAt: new Date().toISOString(),
      documents: prepared.documents.map((d) => ({
        ...submittedDocumentOf(d),
        ...(replaceDocument ? { document: replaceDocument } : {}),
        peppol: d.peppol && { documentId: randomUUID(), documentType: d.peppol.documentType, senderParticipantId: d.peppol.sender, receiverParticipantId: d.peppol.receiver, xml: d.peppol.xml, fields: { ID: d.document.body.ID } },
      })),
    };
    const [event] = await store.transaction((uow) => handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(data.submissionId), { type: 'SubmitToMyInvois', data }, { tenantId }));
    return { data, event };
  }

  const eventsOf = async (streamId: string, type: string): Promise<RecordedEvent[]> =>
    (await store.transaction((uow) => uow.readStream(streamId))).filter((e) => e.type === type);
  const copyEvents = (documentId: string) => eventsOf(documentStreamId(documentId), 'DocumentSubmitted');
  const rowOf = async (documentId: string) =>
    (await dataSource.query(`SELECT state, peppol_state, peppol_reason FROM myinvois_documents WHERE id = $1`, [documentId]))[0];

  /** Submits through the handler and polls until MyInvois has a final answer (the sandbox: the second poll). */
  async function submitAndPoll(ids: string[]) {
    const { data, event } = await submit(ids);
    await handle(event, ctx);
    const copyId = (d: MyInvoisDocumentsSubmittedData['documents'][number]) => d.peppol?.documentId ?? '';
    // The poll sweep's two polls (next_poll_at): the sandbox says Submitted, then its verdict.
    await poll(data.submissionId);
    const firstPoll = await Promise.all(data.documents.map(async (d) => ({ row: await rowOf(d.documentId), copies: (await copyEvents(copyId(d))).length })));
    await poll(data.submissionId);
    return { data, firstPoll };
  }

  it('valid: exactly one DocumentSubmitted of the copy, appended by the poll that saw Valid; another poll sends nothing again', async () => {
    const { data, firstPoll } = await submitAndPoll([`VALID-${run}`]);
    const [doc] = data.documents;
    // First poll: MyInvois still says Submitted; nothing left for Peppol.
    expect(firstPoll[0]).toEqual({ row: expect.objectContaining({ state: 'submitted', peppol_state: 'awaiting_validation' }), copies: 0 });

    const copies = await copyEvents(doc.peppol?.documentId ?? '');
    expect(copies).toHaveLength(1);
    expect(copies[0].data).toMatchObject({ area: 'my', transportMode: 'peppol', documentNumber: `VALID-${run}`, xml: doc.peppol && 'xml' in doc.peppol ? doc.peppol.xml : undefined, receiverParticipantId: 'iso6523-actorid-upis::0230:c20880050010' });
    // Caused by the same poll event as the validation: appended in its transaction.
    const [validated] = await eventsOf(myInvoisSubmissionStreamId(data.submissionId), 'MyInvoisDocumentValidated');
    // Appended by the same poll, in its transaction: one correlation id.
    expect(copies[0].metadata.correlationId).toBe(validated.metadata.correlationId);
    expect(BigInt(copies[0].globalPosition)).toBeGreaterThan(BigInt(validated.globalPosition));
    const [sent] = await dataSource.query(`SELECT delivery_status FROM documents WHERE id = $1`, [doc.peppol?.documentId]);
    expect(sent).toEqual({ delivery_status: 'Scheduled' });
    expect(await rowOf(doc.documentId)).toEqual({ state: 'valid', peppol_state: 'released', peppol_reason: null });

    await poll(data.submissionId); // a late poll (the sweep, a second worker): nothing new
    expect(await copyEvents(doc.peppol?.documentId ?? '')).toHaveLength(1);
    expect(await eventsOf(myInvoisSubmissionStreamId(data.submissionId), 'MyInvoisDocumentValidated')).toHaveLength(1);
  });

  it('invalid: no DocumentSubmitted ever; the copy is withheld with the reason', async () => {
    const { data } = await submitAndPoll([`INVALID-${run}`]);
    const [doc] = data.documents;
    expect(await copyEvents(doc.peppol?.documentId ?? '')).toHaveLength(0);
    expect(await rowOf(doc.documentId)).toEqual({ state: 'invalid', peppol_state: 'withheld', peppol_reason: expect.objectContaining({ code: 'PEPPOL.WITHHELD_INVALID' }) });
  });

  it('rejected by MyInvois at submission (here: a document MyInvois cannot read): the copy is withheld with the authority\'s code, nothing sent', async () => {
    const { data, event } = await submit([`REJ-${run}`], '{}');
    await handle(event, ctx);
    const [doc] = data.documents;
    expect(await rowOf(doc.documentId)).toEqual({
      state: 'rejected', peppol_state: 'withheld', peppol_reason: expect.objectContaining({ code: 'PEPPOL.WITHHELD_REJECTED', message: expect.stringContaining('BadArgument') }),
    });
    expect(await copyEvents(doc.peppol?.documentId ?? '')).toHaveLength(0);
  });

  it('an ID this supplier already sent over Peppol: MyInvois valid, the copy withheld (PEPPOL.WITHHELD_ID_ALREADY_SENT), never a second Peppol document', async () => {
    const id = `SENT-${run}`;
    const earlier = documentSubmitted({ supplierId: seller.supplierId, tenantId: seller.tenantId, area: 'my', documentNumber: id, fields: {} });
    const metadata: EventMetadata = { tenantId: seller.tenantId };
    await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(earlier.documentId), { type: 'SubmitDocument', data: earlier }, metadata));

    const { data } = await submitAndPoll([id]);
    const [doc] = data.documents;
    expect(await copyEvents(doc.peppol?.documentId ?? '')).toHaveLength(0);
    expect(await rowOf(doc.documentId)).toEqual({ state: 'valid', peppol_state: 'withheld', peppol_reason: expect.objectContaining({ code: 'PEPPOL.WITHHELD_ID_ALREADY_SENT' }) });
    expect(await eventsOf(myInvoisSubmissionStreamId(data.submissionId), 'MyInvoisPeppolCopyWithheld')).toHaveLength(1);
  });
});
