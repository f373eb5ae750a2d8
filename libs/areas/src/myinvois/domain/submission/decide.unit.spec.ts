import { specification } from '@einvoice/domain';
import type { MyInvoisSubmissionCommand } from './commands';
import { myInvoisSubmissionDecider } from './decide';
import type { MyInvoisDocumentsSubmittedData, MyInvoisSubmissionAcceptedData, MyInvoisSubmissionEvent } from './events';

const submitted: MyInvoisDocumentsSubmittedData = {
  submissionId: 's-1',
  tenantId: 't-1',
  supplierId: 'sup-1',
  kind: 'invoice',
  documents: [
    { documentId: 'd-1', invoiceCodeNumber: 'INV-1', format: 'JSON', document: '{}', documentHash: 'h1' },
    { documentId: 'd-2', invoiceCodeNumber: 'INV-2', format: 'JSON', document: '{}', documentHash: 'h2' },
    { documentId: 'd-3', invoiceCodeNumber: 'INV-3', format: 'JSON', document: '{}', documentHash: 'h3' },
  ],
  submittedAt: '2026-03-15T10:00:00.000Z',
};
const accepted: MyInvoisSubmissionAcceptedData = {
  submissionId: 's-1',
  submissionUid: 'UID1',
  acceptedDocuments: [
    { documentId: 'd-1', uuid: 'U1', invoiceCodeNumber: 'INV-1' },
    { documentId: 'd-2', uuid: 'U2', invoiceCodeNumber: 'INV-2' },
  ],
  rejectedDocuments: [{ documentId: 'd-3', invoiceCodeNumber: 'INV-3', error: { code: 'DV302', message: 'Duplicated submission' } }],
  acceptedAt: '2026-03-15T10:00:01.000Z',
};
const at = '2026-03-15T10:00:05.000Z';
const next = '2026-03-15T10:00:08.000Z';
const poll = (pollNo: number, documents: Extract<MyInvoisSubmissionCommand, { type: 'RecordPoll' }>['data']['documents'], maxPolls = 10): MyInvoisSubmissionCommand => ({
  type: 'RecordPoll',
  data: { submissionId: 's-1', pollNo, maxPolls, documents, polledAt: at, nextPollAt: next },
});
const history: MyInvoisSubmissionEvent[] = [
  { type: 'MyInvoisDocumentsSubmitted', data: submitted },
  { type: 'MyInvoisSubmissionAccepted', data: accepted },
];

const spec = specification(myInvoisSubmissionDecider);

describe('#4 MyInvois submission decider', () => {
  it('given nothing, when SubmitToMyInvois, then MyInvoisDocumentsSubmitted; again: MYINVOIS.SUBMISSION_EXISTS', () => {
    spec.given([]).when({ type: 'SubmitToMyInvois', data: submitted }).then([{ type: 'MyInvoisDocumentsSubmitted', data: submitted }]);
    spec.given(history.slice(0, 1)).when({ type: 'SubmitToMyInvois', data: submitted }).thenThrows('MYINVOIS.SUBMISSION_EXISTS');
  });

  it('given a submitted submission, when the answer is recorded, then MyInvoisSubmissionAccepted', () => {
    spec.given(history.slice(0, 1)).when({ type: 'RecordSubmissionAccepted', data: accepted }).then([{ type: 'MyInvoisSubmissionAccepted', data: accepted }]);
  });

  it('given an answered submission, when an answer is recorded again (redelivered event), then nothing new: never a second submissionUid', () => {
    spec.given(history).when({ type: 'RecordSubmissionAccepted', data: { ...accepted, submissionUid: 'UID2' } }).then([]);
    spec.given(history).when({ type: 'RecordSubmissionRejected', data: { submissionId: 's-1', error: { code: 'X', message: 'x' }, rejectedAt: at } }).then([]);
  });

  it('given a submitted submission, when an attempt is recorded, then MyInvoisSubmissionAttempted; again after a lost answer: a second attempt', () => {
    const attempt = { submissionId: 's-1', attempt: 1, attemptedAt: at, codeNumbers: ['INV-1', 'INV-2', 'INV-3'] };
    spec.given(history.slice(0, 1)).when({ type: 'RecordSubmissionAttempt', data: attempt }).then([{ type: 'MyInvoisSubmissionAttempted', data: attempt }]);
    const second = { ...attempt, attempt: 2 };
    spec
      .given([history[0], { type: 'MyInvoisSubmissionAttempted', data: attempt }])
      .when({ type: 'RecordSubmissionAttempt', data: second })
      .then([{ type: 'MyInvoisSubmissionAttempted', data: second }]);
  });

  it('given an attempt turned away with a 429, when it is deferred, then MyInvoisSubmissionDeferred, and nothing of that attempt needs looking up; an earlier lost answer still does', () => {
    const attempt = (n: number) => ({ type: 'MyInvoisSubmissionAttempted' as const, data: { submissionId: 's-1', attempt: n, attemptedAt: `2026-03-15T10:00:0${n}.000Z`, codeNumbers: ['INV-1'] } });
    const deferral = (n: number) => ({ submissionId: 's-1', attempt: n, deferredAt: at, dueAt: next });
    spec.given([history[0], attempt(1)]).when({ type: 'RecordSubmissionDeferred', data: deferral(1) }).then([{ type: 'MyInvoisSubmissionDeferred', data: deferral(1) }]);
    const fold = (events: MyInvoisSubmissionEvent[]) => events.reduce(myInvoisSubmissionDecider.evolve, myInvoisSubmissionDecider.initialState);
    // Attempt 1 turned away: attempt 2 starts clean (no Get Recent Documents lookup).
    expect(fold([history[0], attempt(1), { type: 'MyInvoisSubmissionDeferred', data: deferral(1) }])).toEqual({ status: 'submitted', attempts: 1 });
    // Attempt 1's answer lost, attempt 2 turned away: the lookup still starts at attempt 1.
    expect(fold([history[0], attempt(1), attempt(2), { type: 'MyInvoisSubmissionDeferred', data: deferral(2) }])).toEqual({
      status: 'submitted', attempts: 2, firstAttemptAt: '2026-03-15T10:00:01.000Z', unansweredFrom: 1,
    });
    // Turned away before any attempt (login): nothing changes.
    expect(fold([history[0], attempt(1), { type: 'MyInvoisSubmissionDeferred', data: deferral(0) }])).toMatchObject({ firstAttemptAt: '2026-03-15T10:00:01.000Z' });
    // Answered meanwhile: nothing to defer.
    spec.given(history).when({ type: 'RecordSubmissionDeferred', data: deferral(1) }).then([]);
    spec.given([]).when({ type: 'RecordSubmissionDeferred', data: deferral(1) }).thenThrows('MYINVOIS.SUBMISSION_UNKNOWN');
  });

  it('given an attempt whose answer was lost, when the documents found at MyInvois are recorded (recovered), then MyInvoisSubmissionAccepted', () => {
    const attempt = { submissionId: 's-1', attempt: 1, attemptedAt: at, codeNumbers: ['INV-1', 'INV-2'] };
    const recovered = { ...accepted, acceptedDocuments: accepted.acceptedDocuments.map((d) => ({ ...d, submissionUid: 'UID1', recovered: true })), rejectedDocuments: [] };
    spec
      .given([history[0], { type: 'MyInvoisSubmissionAttempted', data: attempt }])
      .when({ type: 'RecordSubmissionAccepted', data: recovered })
      .then([{ type: 'MyInvoisSubmissionAccepted', data: recovered }]);
  });

  it('given an answered (or refused) submission, when an attempt is recorded, then MYINVOIS.SUBMISSION_ANSWERED: never submitted again; given nothing: MYINVOIS.SUBMISSION_UNKNOWN', () => {
    const attempt = { submissionId: 's-1', attempt: 2, attemptedAt: at, codeNumbers: ['INV-1'] };
    spec.given(history).when({ type: 'RecordSubmissionAttempt', data: attempt }).thenThrows('MYINVOIS.SUBMISSION_ANSWERED');
    spec
      .given([history[0], { type: 'MyInvoisSubmissionRejected', data: { submissionId: 's-1', error: { code: 'X', message: 'x' }, rejectedAt: at } }])
      .when({ type: 'RecordSubmissionAttempt', data: attempt })
      .thenThrows('MYINVOIS.SUBMISSION_ANSWERED');
    spec.given([]).when({ type: 'RecordSubmissionAttempt', data: attempt }).thenThrows('MYINVOIS.SUBMISSION_UNKNOWN');
  });

  it('given nothing, when an answer is recorded, then MYINVOIS.SUBMISSION_UNKNOWN', () => {
    spec.given([]).when({ type: 'RecordSubmissionAccepted', data: accepted }).thenThrows('MYINVOIS.SUBMISSION_UNKNOWN');
  });

  it('given a submitted submission, when MyInvois refuses it as a whole, then MyInvoisSubmissionRejected', () => {
    const data = { submissionId: 's-1', error: { code: 'MaximumSizeExceeded', message: 'too big' }, rejectedAt: at };
    spec.given(history.slice(0, 1)).when({ type: 'RecordSubmissionRejected', data }).then([{ type: 'MyInvoisSubmissionRejected', data }]);
  });

  it('given an answered submission, when a poll sees one Valid and one still Submitted, then Validated and another poll', () => {
    spec
      .given(history)
      .when(poll(1, [{ uuid: 'U1', status: 'Valid', longId: 'L1' }, { uuid: 'U2', status: 'Submitted', longId: '' }]))
      .then([
        { type: 'MyInvoisDocumentValidated', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', longId: 'L1', validatedAt: at } },
        { type: 'MyInvoisSubmissionPolled', data: { submissionId: 's-1', pollNo: 1, polledAt: at, nextPollAt: next } },
      ]);
  });

  it('given one document already valid, when a poll sees both final, then only the other is recorded, and no further poll', () => {
    spec
      .given([...history, { type: 'MyInvoisDocumentValidated', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', longId: 'L1', validatedAt: at } }])
      .when(poll(2, [{ uuid: 'U1', status: 'Valid', longId: 'L1' }, { uuid: 'U2', status: 'Invalid', longId: '', reason: 'bad' }]))
      .then([{ type: 'MyInvoisDocumentInvalidated', data: { submissionId: 's-1', documentId: 'd-2', uuid: 'U2', reason: 'bad', invalidatedAt: at } }]);
  });

  it('given an answered submission, when the last allowed poll still sees Submitted, then polling stops (no next poll)', () => {
    spec
      .given(history)
      .when(poll(3, [{ uuid: 'U1', status: 'Submitted', longId: '' }], 3))
      .then([{ type: 'MyInvoisSubmissionPolled', data: { submissionId: 's-1', pollNo: 3, polledAt: at, nextPollAt: null } }]);
  });

  describe('cancellation', () => {
    const validated: MyInvoisSubmissionEvent[] = [
      ...history,
      { type: 'MyInvoisDocumentValidated', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', longId: 'L1', validatedAt: at } },
    ];
    const request = { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', reason: 'Wrong buyer', requestedAt: at };
    const requested: MyInvoisSubmissionEvent = { type: 'MyInvoisDocumentCancellationRequested', data: request };

    it('given a valid document, when RequestCancellation, then MyInvoisDocumentCancellationRequested', () => {
      spec.given(validated).when({ type: 'RequestCancellation', data: request }).then([requested]);
    });

    it('given a document not (yet) valid or already being cancelled, when RequestCancellation, then MYINVOIS.NOT_CANCELLABLE', () => {
      spec.given(history).when({ type: 'RequestCancellation', data: request }).thenThrows('MYINVOIS.NOT_CANCELLABLE');
      spec.given([...validated, requested]).when({ type: 'RequestCancellation', data: request }).thenThrows('MYINVOIS.NOT_CANCELLABLE');
    });

    it('given a cancellation in flight, when MyInvois answers, then Cancelled or Refused once; a cancelled document cannot be cancelled again', () => {
      spec.given([...validated, requested]).when({ type: 'RecordCancellation', data: { submissionId: 's-1', uuid: 'U1', at } }).then([
        { type: 'MyInvoisDocumentCancelled', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', cancelledAt: at } },
      ]);
      const refused = { code: 'OperationPeriodOver', message: 'too late' };
      spec.given([...validated, requested]).when({ type: 'RecordCancellation', data: { submissionId: 's-1', uuid: 'U1', refused, at } }).then([
        { type: 'MyInvoisDocumentCancellationRefused', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', error: refused, refusedAt: at } },
      ]);
      const cancelled: MyInvoisSubmissionEvent = { type: 'MyInvoisDocumentCancelled', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', cancelledAt: at } };
      spec.given([...validated, requested, cancelled]).when({ type: 'RecordCancellation', data: { submissionId: 's-1', uuid: 'U1', at } }).then([]);
      spec.given([...validated, requested, cancelled]).when({ type: 'RequestCancellation', data: request }).thenThrows('MYINVOIS.NOT_CANCELLABLE');
    });
  });
  describe('rejection by the buyer (seen by the issuer\'s rejection watch)', () => {
    const validated: MyInvoisSubmissionEvent[] = [
      ...history,
      { type: 'MyInvoisDocumentValidated', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', longId: 'L1', validatedAt: at } },
    ];
    const seen = { submissionId: 's-1', uuid: 'U1', reason: 'Goods not received', requestedAt: '2026-03-16T09:00:00Z' };
    const rejected: MyInvoisSubmissionEvent = { type: 'MyInvoisDocumentRejectedByBuyer', data: { ...seen, documentId: 'd-1' } };

    it('given a valid document, when RecordRejectionByBuyer, then MyInvoisDocumentRejectedByBuyer with the buyer\'s reason', () => {
      spec.given(validated).when({ type: 'RecordRejectionByBuyer', data: seen }).then([rejected]);
    });

    it('given a rejection recorded, when the next scan records it again, then nothing new (rescans are idempotent)', () => {
      spec.given([...validated, rejected]).when({ type: 'RecordRejectionByBuyer', data: { ...seen, reason: 'again' } }).then([]);
    });

    it('given a document not valid (pending, invalid, cancelled, unknown), when RecordRejectionByBuyer, then MYINVOIS.NOT_VALID', () => {
      spec.given(history).when({ type: 'RecordRejectionByBuyer', data: seen }).thenThrows('MYINVOIS.NOT_VALID');
      spec.given(validated).when({ type: 'RecordRejectionByBuyer', data: { ...seen, uuid: 'U2' } }).thenThrows('MYINVOIS.NOT_VALID');
      spec.given([]).when({ type: 'RecordRejectionByBuyer', data: seen }).thenThrows('MYINVOIS.NOT_VALID');
      const cancelled: MyInvoisSubmissionEvent[] = [
        { type: 'MyInvoisDocumentCancellationRequested', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', reason: 'x', requestedAt: at } },
        { type: 'MyInvoisDocumentCancelled', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', cancelledAt: at } },
      ];
      spec.given([...validated, ...cancelled]).when({ type: 'RecordRejectionByBuyer', data: seen }).thenThrows('MYINVOIS.NOT_VALID');
    });

    it('given a cancellation in flight, when RecordRejectionByBuyer, then nothing yet; refused, then the rejection is recorded', () => {
      const cancelling: MyInvoisSubmissionEvent = { type: 'MyInvoisDocumentCancellationRequested', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', reason: 'x', requestedAt: at } };
      spec.given([...validated, cancelling]).when({ type: 'RecordRejectionByBuyer', data: seen }).then([]);
      const refused: MyInvoisSubmissionEvent = {
        type: 'MyInvoisDocumentCancellationRefused',
        data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', error: { code: 'X', message: 'x' }, refusedAt: at },
      };
      spec.given([...validated, cancelling, refused]).when({ type: 'RecordRejectionByBuyer', data: seen }).then([rejected]);
    });

    it('given a document rejected by its buyer, when its issuer cancels, then MyInvoisDocumentCancellationRequested (still valid at MyInvois)', () => {
      const cancel = { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', reason: 'Rejected by the buyer', requestedAt: at };
      spec.given([...validated, rejected]).when({ type: 'RequestCancellation', data: cancel }).then([{ type: 'MyInvoisDocumentCancellationRequested', data: cancel }]);
      spec
        .given([...validated, rejected, { type: 'MyInvoisDocumentCancellationRequested', data: cancel }])
        .when({ type: 'RecordCancellation', data: { submissionId: 's-1', uuid: 'U1', at } })
        .then([{ type: 'MyInvoisDocumentCancelled', data: { submissionId: 's-1', documentId: 'd-1', uuid: 'U1', cancelledAt: at } }]);
    });
  });
});
