/**
 * MyInvois's own answers to its own routes: a submission's (seed 000 "submission response", several
 * documents per request) and a buyer's rejection of a document it received (SDK "04 reject document").
 */
import { AppError, type AuthorityErrorData, issue } from '@einvoice/domain';
import { myInvoisDocumentHref } from './present';
import { type MyInvoisReceipt, type MyInvoisRejectionReceipt, type SubmissionError, myInvoisErrorOf } from './reporting/report';
import type { RejectedDocument } from './submission';

/** A document of a submission as the read model holds it (`pending` until Submit Documents answered). */
export interface SubmittedDocument {
  readonly documentId: string;
  readonly number: string;
  readonly state: string;
  readonly receipt?: MyInvoisReceipt;
  readonly error?: AuthorityErrorData;
}

/**
 * The seed's submission response, plus the documents still waiting for MyInvois and where to poll them:
 * 202 while any is (its first answer, stored for an Idempotency-Key replay, has them all), else 200.
 * `refused` are the documents refused before submission.
 */
export function submissionAnswer(submissionId: string, refused: readonly RejectedDocument[], documents: readonly SubmittedDocument[]) {
  const open = documents.filter((d) => d.state === 'pending');
  const submissionUid = documents.find((d) => d.receipt?.submissionUid)?.receipt?.submissionUid ?? null;
  const accepted = documents.filter((d) => d.receipt?.uuid && d.state !== 'rejected').map((d) => ({ uuid: d.receipt!.uuid, invoiceCodeNumber: d.number }));
  const rejected = [
    ...refused,
    ...documents.filter((d) => d.state === 'rejected').map((d) => ({ invoiceCodeNumber: d.number, error: (d.error ? myInvoisErrorOf(d.error) : null) as SubmissionError })),
  ];
  const body = {
    status: 'submitted',
    data: {
      submissionId,
      submissionResponse: {
        submissionUid,
        acceptedDocuments: accepted,
        rejectedDocuments: rejected,
        pendingDocuments: open.map((d) => ({ documentId: d.documentId, invoiceCodeNumber: d.number, href: myInvoisDocumentHref(d.documentId) })),
      },
    },
  };
  return { statusCode: open.length ? (202 as const) : (200 as const), body };
}

/** A single document's refusal is the request's: 400, or 409 for a duplicate ID. */
export function asRequestError(error: SubmissionError): AppError {
  const issues = (error.details ?? []).map((d) => issue(d.propertyPath ?? d.target ?? '', d.code, d.message));
  return new AppError(error.code === 'DOCUMENT.DUPLICATE_ID' ? 'conflict' : 'validation', error.code, error.message, { issues });
}

/** A buyer's rejection as the read model holds it: a report of direction `incoming` (reporting/buyer-rejection.ts). */
export interface BuyerRejectionRecord {
  /** The MyInvois uuid of the received document. */
  readonly uuid: string;
  /** pending (with MyInvois) | reported (MyInvois recorded it) | rejected (MyInvois refused it) */
  readonly state: 'pending' | 'reported' | 'rejected';
  readonly reason: string;
  readonly requestedAt: string;
  readonly answeredAt?: string;
  readonly error?: AuthorityErrorData;
  readonly receipt?: MyInvoisRejectionReceipt;
}

const REJECTION_STATES = { pending: 'requested', reported: 'rejected', rejected: 'refused' } as const;

/** Where a buyer's rejection is read. */
export const rejectionHref = (uuid: string) => `/api/einvoice/received/${uuid}/rejection`;

/** `GET /api/einvoice/received/{uuid}/rejection`'s data, and the 200 of the request once MyInvois recorded it. */
export function rejectionView(record: BuyerRejectionRecord) {
  return {
    uuid: record.uuid,
    state: REJECTION_STATES[record.state],
    reason: record.reason,
    requestedAt: record.requestedAt,
    answeredAt: record.answeredAt ?? null,
    error: record.state === 'rejected' && record.error ? myInvoisErrorOf(record.error) : null,
  };
}

/** MyInvois's refusal of a rejection in the one error shape: its status from how it refused, its code and message as the issue. */
export function rejectionRefusal(record: BuyerRejectionRecord): AppError {
  const error = record.error ? myInvoisErrorOf(record.error) : { code: 'MYINVOIS.REJECT_REFUSED', message: 'Refused.' };
  return new AppError(record.receipt?.refusal ?? 'conflict', 'MYINVOIS.REJECT_REFUSED', `MyInvois refused the rejection: ${error.message}`, {
    issues: [issue('uuid', error.code, error.message)],
    details: { authorityError: error },
  });
}
