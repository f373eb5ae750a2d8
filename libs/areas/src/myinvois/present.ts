/**
 * MyInvois's answers about one document it submitted, as the pipeline's routes give them
 * (`GET /api/einvoice/documents/{id}`, cancel): the report's view in MyInvois's words, and the
 * pipeline's refusals with MyInvois's codes (README "Submission").
 */
import { AppError, type AuthorityErrorData, issue, notFound } from '@einvoice/domain';
import type { DocumentRefusal, ReportedDocumentView } from '../registry/area';
import { PEPPOL_WITHHELD, type MyInvoisReceipt, type SubmissionError, myInvoisErrorOf } from './reporting/report';

/** A document's state as MyInvois's routes show it. */
export type MyInvoisDocumentState = 'pending' | 'submitted' | 'rejected' | 'valid' | 'invalid' | 'cancelling' | 'cancelled' | 'rejected_by_buyer';

/** Where one of its documents is read (the `href` of a 202). */
export const myInvoisDocumentHref = (documentId: string) => `/api/einvoice/documents/${documentId}`;

/** The state MyInvois's routes show, from the report's. */
function stateOf(view: ReportedDocumentView): MyInvoisDocumentState {
  switch (view.state) {
    case 'processing':
      return 'submitted';
    case 'reported':
      // The buyer asked MyInvois to reject it: still valid there (and its ID taken) until its issuer cancels it.
      return view.buyerRejection ? 'rejected_by_buyer' : 'valid';
    default:
      return view.state as MyInvoisDocumentState;
  }
}

/** The recorded error in MyInvois's shape (`null` without one). */
function errorOf(error: AuthorityErrorData | null | undefined): SubmissionError | null {
  return error ? myInvoisErrorOf(error) : null;
}

/** A document as GET shows it. */
function documentView(view: ReportedDocumentView) {
  const receipt = view.authority as Partial<MyInvoisReceipt> | null;
  return {
    documentId: view.documentId,
    invoiceCodeNumber: view.documentNumber,
    kind: view.documentType,
    state: stateOf(view),
    uuid: receipt?.uuid ?? null,
    longId: receipt?.longId || null,
    submissionUid: receipt?.submissionUid ?? null,
    // A refused cancellation's error, else MyInvois's refusal or verdict.
    error: errorOf(view.cancellation?.error ?? view.error),
    validatedAt: view.validatedAt ?? null,
    // The buyer asked MyInvois to reject it (seen by the reporting worker's buyer-rejection watch).
    rejectedByBuyer: view.buyerRejection ?? null,
    peppol: peppolView(view),
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
}

/**
 * transport_mode: peppol: where the PINT MY copy is. `awaiting_validation` until MyInvois says Valid,
 * then the delivery's Scheduled | Delivered | Failed; `withheld` (with `reason`) when it never leaves
 * (invalid, rejected, ID already sent over Peppol). Null when the document has no copy. The copy is
 * the document itself on the Peppol track (same id).
 */
function peppolView(view: ReportedDocumentView) {
  if (!view.peppolCopy) return null;
  const withheld = withheldReason(view);
  const deliveryStatus = withheld ? 'withheld' : (view.peppol?.deliveryStatus ?? 'awaiting_validation');
  return { documentId: view.documentId, deliveryStatus, reason: withheld };
}

/** Why a copy never leaves (codes of the service's own: MyInvois decides legal validity, the copy follows it). */
function withheldReason(view: ReportedDocumentView): SubmissionError | null {
  if (view.peppol) return null;
  if (view.peppolCopy?.withheld) return errorOf(view.peppolCopy.withheld);
  if (view.state === 'invalid') return PEPPOL_WITHHELD.invalid(view.error?.message ?? 'Invalid');
  if (view.state === 'rejected') return PEPPOL_WITHHELD.rejected(errorOf(view.error) ?? { code: 'REJECTED', message: 'Rejected' });
  return null;
}

/** `GET /api/einvoice/documents/{id}` and a cancellation's 200; `pending`: a cancellation's 202 (poll GET). */
export function presentMyInvoisDocument(view: ReportedDocumentView, variant?: string) {
  if (variant === 'pending') return { status: 'pending', data: { ...documentView(view), href: myInvoisDocumentHref(view.documentId) } };
  return { status: 'success', data: documentView(view) };
}

/** The pipeline's refusals in MyInvois's words (codes its clients know since #4). */
export function myInvoisRefusal(refusal: DocumentRefusal): AppError | undefined {
  switch (refusal.kind) {
    case 'authority_refused':
      // A submission's refusal: the pipeline's 400 with MyInvois's own codes.
      return undefined;
    case 'not_found':
      return notFound('DOCUMENT.NOT_FOUND', `No MyInvois document ${refusal.id} for this supplier.`);
    case 'not_cancellable': {
      const state = stateOf(refusal.view);
      return new AppError('conflict', 'MYINVOIS.NOT_CANCELLABLE', `Only a valid document (rejected by its buyer or not) can be cancelled; this one is ${state}.`, {
        issues: [issue('id', 'MYINVOIS.NOT_CANCELLABLE', `The document is ${state}.`)],
      });
    }
    case 'cancellation_refused': {
      const error = refusal.view.cancellation?.error;
      return new AppError('conflict', 'MYINVOIS.CANCEL_REFUSED', `MyInvois refused the cancellation: ${error?.message ?? ''}`, {
        issues: [issue('id', error?.code ?? 'MYINVOIS.CANCEL_REFUSED', error?.message ?? 'Refused.')],
      });
    }
    case 'no_peppol_copy':
      return notFound(
        'DOCUMENT.NO_PEPPOL_COPY',
        `MyInvois document ${refusal.view.documentId} has no Peppol copy (sent without transport_mode: peppol, consolidated, or to a generic TIN).`,
      );
    default: {
      const unknown: never = refusal;
      return unknown;
    }
  }
}
