import type { ReportedDocumentView } from '../registry/area';
import { rejectionRefusal, rejectionView, submissionAnswer } from './answers';
import { myInvoisRefusal, presentMyInvoisDocument } from './present';

/** A MyInvois document as the pipeline's read shows it (apps/gateway/src/pipeline/document-rows.ts `view`). */
const view = (over: Partial<ReportedDocumentView> = {}): ReportedDocumentView => ({
  documentId: 'd-1',
  documentNumber: 'INV-1',
  documentType: 'invoice',
  state: 'reported',
  ruleSetId: 'myinvois:document:1.1',
  authority: { uuid: 'U1', submissionUid: 'S1', longId: 'L1', status: 'Valid' },
  error: null,
  fields: {},
  sha256: 'h',
  peppol: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:01.000Z',
  ...over,
});

describe('#45 MyInvois bodies from the pipeline\'s view', () => {
  it('shows the report\'s state in MyInvois\'s words: processing is submitted, reported is valid, or rejected_by_buyer once its buyer asked', () => {
    expect(presentMyInvoisDocument(view({ state: 'processing' })).data.state).toBe('submitted');
    expect(presentMyInvoisDocument(view()).data).toEqual({
      documentId: 'd-1', invoiceCodeNumber: 'INV-1', kind: 'invoice', state: 'valid', uuid: 'U1', longId: 'L1', submissionUid: 'S1',
      error: null, validatedAt: null, rejectedByBuyer: null, peppol: null, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:01.000Z',
    });
    const rejected = { reason: 'Wrong', requestedAt: '2026-01-02T00:00:00.000Z' };
    expect(presentMyInvoisDocument(view({ buyerRejection: rejected })).data).toMatchObject({ state: 'rejected_by_buyer', rejectedByBuyer: rejected });
  });

  it('says where the PINT MY copy is: awaiting validation, its delivery, or withheld with why; null without one', () => {
    expect(presentMyInvoisDocument(view({ state: 'processing', peppolCopy: { withheld: null } })).data.peppol).toEqual({ documentId: 'd-1', deliveryStatus: 'awaiting_validation', reason: null });
    expect(presentMyInvoisDocument(view({ peppolCopy: { withheld: null }, peppol: { deliveryStatus: 'Delivered' } })).data.peppol).toMatchObject({ deliveryStatus: 'Delivered' });
    const invalid = presentMyInvoisDocument(view({ state: 'invalid', error: { code: 'Invalid', message: 'Bad TIN' }, peppolCopy: { withheld: null } })).data;
    expect(invalid.peppol).toMatchObject({ deliveryStatus: 'withheld', reason: { code: 'PEPPOL.WITHHELD_INVALID' } });
    expect(invalid.error).toEqual({ code: 'Invalid', message: 'Bad TIN', target: null, propertyPath: null, details: null });
    const sent = presentMyInvoisDocument(view({ peppolCopy: { withheld: { code: 'PEPPOL.WITHHELD_ID_ALREADY_SENT', message: 'sent' } } })).data.peppol;
    expect(sent).toMatchObject({ deliveryStatus: 'withheld', reason: { code: 'PEPPOL.WITHHELD_ID_ALREADY_SENT' } });
  });

  it('a cancellation\'s 202 is the document cancelling with where to poll; a refused cancellation\'s error comes first', () => {
    expect(presentMyInvoisDocument(view({ state: 'cancelling' }), 'pending')).toMatchObject({ status: 'pending', data: { state: 'cancelling', href: '/api/einvoice/documents/d-1' } });
    const refused = view({ cancellation: { reason: 'x', error: { code: 'OperationPeriodOver', message: 'Too late' } } });
    expect(presentMyInvoisDocument(refused).data.error).toMatchObject({ code: 'OperationPeriodOver' });
  });

  it('words the pipeline\'s refusals with MyInvois\'s codes', () => {
    expect(myInvoisRefusal({ kind: 'not_found', id: 'X' })).toMatchObject({ kind: 'not_found', code: 'DOCUMENT.NOT_FOUND', message: 'No MyInvois document X for this supplier.' });
    expect(myInvoisRefusal({ kind: 'not_cancellable', view: view({ state: 'cancelled' }) })).toMatchObject({
      kind: 'conflict', code: 'MYINVOIS.NOT_CANCELLABLE', issues: [expect.objectContaining({ path: 'id', message: 'The document is cancelled.' })],
    });
    const refused = view({ cancellation: { reason: 'x', error: { code: 'OperationPeriodOver', message: 'Too late' } } });
    expect(myInvoisRefusal({ kind: 'cancellation_refused', view: refused })).toMatchObject({
      kind: 'conflict', code: 'MYINVOIS.CANCEL_REFUSED', issues: [expect.objectContaining({ path: 'id', code: 'OperationPeriodOver' })],
    });
    expect(myInvoisRefusal({ kind: 'no_peppol_copy', view: view() })).toMatchObject({ kind: 'not_found', code: 'DOCUMENT.NO_PEPPOL_COPY' });
  });
});

describe('#45 MyInvois submission and rejection answers', () => {
  const refused = [{ invoiceCodeNumber: 'BAD', error: { code: 'REQUEST.INVALID', message: 'x', target: 'BAD', propertyPath: null, details: [] } }];

  it('202 with every document pending and where to poll while MyInvois has not answered; 200 with its answer once it has', () => {
    const pending = submissionAnswer('sub', refused, [{ documentId: 'd-1', number: 'A', state: 'pending' }]);
    expect(pending).toEqual({
      statusCode: 202,
      body: { status: 'submitted', data: { submissionId: 'sub', submissionResponse: {
        submissionUid: null, acceptedDocuments: [], rejectedDocuments: refused, pendingDocuments: [{ documentId: 'd-1', invoiceCodeNumber: 'A', href: '/api/einvoice/documents/d-1' }],
      } } },
    });
    const answered = submissionAnswer('sub', refused, [
      { documentId: 'd-1', number: 'A', state: 'processing', receipt: { uuid: 'U1', submissionUid: 'S1' } },
      { documentId: 'd-2', number: 'B', state: 'rejected', error: { code: 'DV302', message: 'dup' } },
    ]);
    expect(answered.statusCode).toBe(200);
    expect(answered.body.data.submissionResponse).toEqual({
      submissionUid: 'S1',
      acceptedDocuments: [{ uuid: 'U1', invoiceCodeNumber: 'A' }],
      rejectedDocuments: [...refused, { invoiceCodeNumber: 'B', error: { code: 'DV302', message: 'dup', target: null, propertyPath: null, details: null } }],
      pendingDocuments: [],
    });
    expect(submissionAnswer('sub', refused, []).statusCode).toBe(200);
  });

  it('a buyer\'s rejection: requested, rejected, or refused with MyInvois\'s error at the status its refusal says', () => {
    const record = { uuid: 'U1', reason: 'No', requestedAt: '2026-01-01T00:00:00.000Z' };
    expect(rejectionView({ ...record, state: 'pending' })).toEqual({ uuid: 'U1', state: 'requested', reason: 'No', requestedAt: record.requestedAt, answeredAt: null, error: null });
    const forbidden = { ...record, state: 'rejected' as const, error: { code: 'Forbidden', message: 'Not the receiver' }, receipt: { refusal: 'forbidden' as const } };
    expect(rejectionView(forbidden).error).toMatchObject({ code: 'Forbidden' });
    expect(rejectionRefusal(forbidden)).toMatchObject({ kind: 'forbidden', code: 'MYINVOIS.REJECT_REFUSED', issues: [expect.objectContaining({ path: 'uuid', code: 'Forbidden' })] });
  });
});
