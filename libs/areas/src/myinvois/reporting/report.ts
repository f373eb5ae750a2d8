/**
 * A MyInvois document as a report of the generic reporting pipeline (libs/domain/src/authority-report,
 * #8): one report per document, the caller's submission being the reports' `batchKey` (MyInvois takes
 * them in one Submit Documents call), the document's exact text as the report's document (its
 * SHA-256 is MyInvois's `documentHash`), and what MyInvois answered as the receipt.
 */
import type { AuthorityErrorData } from '@einvoice/domain';
import type { AuthorityError as MyInvoisError, DocumentFormat } from '../connector/connector';

/**
 * The authority's error object, as MyInvois answers a rejected document (SDK "Submit Documents",
 * `rejectedDocuments[].error`); also the shape of the gateway's own per-document rejections, so a
 * client reads one shape whichever side refused.
 */
export type SubmissionError = MyInvoisError;

/** Which endpoint a document came through (seed 000: single or bulk invoice, consolidated, self-billed). */
export type MyInvoisSubmissionKind = 'invoice' | 'consolidated' | 'self-billed';

/**
 * Why a Peppol copy never leaves (`peppol.reason` in GET /api/einvoice/documents/{id}). Codes are the
 * service's own: MyInvois decides legal validity, the copy only follows it. (An ID already sent over
 * Peppol is the reporting pipeline's `PEPPOL.WITHHELD_ID_ALREADY_SENT`.)
 */
export const PEPPOL_WITHHELD = {
  invalid: (reason: string): SubmissionError => ({ code: 'PEPPOL.WITHHELD_INVALID', message: `MyInvois found the document invalid (${reason}); its Peppol copy is not sent.` }),
  rejected: (error: SubmissionError): SubmissionError => ({
    code: 'PEPPOL.WITHHELD_REJECTED',
    message: `MyInvois rejected the document (${error.code}: ${error.message}); its Peppol copy is not sent.`,
  }),
} as const;

/**
 * How long after its validation a document may still be rejected by its buyer (or cancelled by its
 * issuer): 72 h (SDK "03 cancel document", "04 reject document").
 */
export const REJECTION_WINDOW_MS = 72 * 3_600_000;

/** The report's `payload` (opaque to the platform): what Submit Documents needs beyond the bytes. */
export interface MyInvoisReportPayload {
  /** The caller's submission (the seed's `submissionId`), also the reports' `batchKey`. */
  readonly submissionId: string;
  readonly kind: MyInvoisSubmissionKind;
  readonly format: DocumentFormat;
  /** Wire `codeNumber`: the caller's `ID`, by which MyInvois's answer names the document. */
  readonly invoiceCodeNumber: string;
}

/**
 * The payload of a buyer's own rejection of a document it received (SDK "04 reject document"), a
 * report of direction `incoming` sent with the buyer's credentials (buyer-rejection.ts).
 */
export interface MyInvoisRejectionPayload {
  readonly action: 'reject';
  /** The MyInvois uuid of the received document. */
  readonly uuid: string;
  /** Sent to MyInvois; 1 to 300 characters. */
  readonly reason: string;
}

/** What a MyInvois report carries: a document to submit, or a buyer's rejection. */
export type MyInvoisPayload = MyInvoisReportPayload | MyInvoisRejectionPayload;

export function isRejectionPayload(payload: MyInvoisPayload): payload is MyInvoisRejectionPayload {
  return (payload as MyInvoisRejectionPayload).action === 'reject';
}

/** How MyInvois refused a buyer's rejection, in the error model's terms (the gateway's HTTP status follows from it). */
export type RejectionRefusalKind = 'validation' | 'forbidden' | 'not_found' | 'conflict';

/**
 * The receipt of a buyer's rejection: nothing when MyInvois recorded it (Reject Document answers no
 * id; the document's uuid is the report's number, not a receipt's `uuid`, which names documents the
 * supplier issued); when refused, how (`refusal`: the gateway's status). MyInvois's error is the
 * report's `error`, as for a refused document.
 */
export interface MyInvoisRejectionReceipt {
  readonly refusal?: RejectionRefusalKind;
}

/** The report's receipt: what MyInvois said of the document, merged answer after answer. */
export interface MyInvoisReceipt {
  /** MyInvois's id of the document (Submit Documents' `acceptedDocuments[].uuid`). */
  readonly uuid: string;
  /** The MyInvois submission it sits in (a recovered document may sit in an earlier one). */
  readonly submissionUid: string;
  /** Get Submission's status of the document: Submitted until its verdict. */
  readonly status?: 'Submitted' | 'Valid' | 'Invalid' | 'Cancelled';
  /** Assigned once valid (the validation link's second half). */
  readonly longId?: string;
}

/** MyInvois's error as the pipeline records it (`target` and `propertyPath` kept). */
export function authorityErrorOf(error: MyInvoisError): AuthorityErrorData {
  return {
    code: error.code,
    message: error.message,
    ...(error.propertyPath ? { path: error.propertyPath } : {}),
    ...(error.target ? { target: error.target } : {}),
    ...(error.details?.length ? { details: error.details.map(authorityErrorOf) } : {}),
  };
}

/** The recorded error in MyInvois's shape, as GET and the webhooks show it (`null` where it said nothing). */
export function myInvoisErrorOf(error: AuthorityErrorData): MyInvoisError {
  return {
    code: error.code,
    message: error.message,
    target: error.target ?? null,
    propertyPath: error.path ?? null,
    details: error.details?.length ? error.details.map(myInvoisErrorOf) : null,
  };
}
