import type { Event } from '@einvoice/domain';

/**
 * The authority's error object, as MyInvois answers a rejected document (SDK "Submit
 * Documents", `rejectedDocuments[].error`); also the shape of the gateway's own per-document
 * rejections, so a client reads one shape whichever side refused.
 */
export interface SubmissionError {
  readonly code: string;
  readonly message: string;
  readonly target?: string | null;
  readonly propertyPath?: string | null;
  readonly details?: readonly SubmissionError[] | null;
}

/** Which endpoint a document came through (seed 000: single or bulk invoice, consolidated, self-billed). */
export type MyInvoisSubmissionKind = 'invoice' | 'consolidated' | 'self-billed';

/** One document of a submission, exactly as it will be sent (the bytes the hash covers). */
export interface SubmittedMyInvoisDocument {
  /** Our id of the document (`GET /api/einvoice/documents/{documentId}`). */
  readonly documentId: string;
  /** The caller's `ID`: wire `codeNumber`, and the key the authority answers with. */
  readonly invoiceCodeNumber: string;
  readonly format: 'JSON' | 'XML';
  /** The rendered document, the exact text submitted. */
  readonly document: string;
  /** SHA-256 hex of `document` (wire `documentHash`). */
  readonly documentHash: string;
  /**
   * With `transport_mode: peppol`: the PINT MY copy, kept here until MyInvois says the document is
   * Valid; only then does the reporting worker append its `DocumentSubmitted` (peppol-copy.ts). Events
   * of schema 1 written before copies waited for validation carry a copy already sent at submission
   * (upcast to `MyInvoisPeppolCopySent`, domain/submission/schema.ts).
   */
  readonly peppol?: MyInvoisPeppolCopy | MyInvoisPeppolCopySent;
}

/** A Peppol copy that left with the submission (schema-1 events only): its `DocumentSubmitted` exists already. */
export interface MyInvoisPeppolCopySent {
  readonly documentId: string;
  readonly sentAtSubmission: true;
}

/** What the Peppol leg needs to send a MyInvois document's PINT MY copy once it is valid. */
export interface MyInvoisPeppolCopy {
  /** Reserved at submission: the id of its `DocumentSubmitted` (documents read model). */
  readonly documentId: string;
  /** UNTDID 1001 code of the PINT MY form (380, 381, 383, 389, 261, 527). */
  readonly documentType: string;
  /** `iso6523-actorid-upis::0230:<tin>` of the issuer and of its counterpart. */
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  /** The PINT MY XML, sent unchanged. */
  readonly xml: string;
  /** The caller's document fields (get-document and the receiver's copy show them). */
  readonly fields: Record<string, unknown>;
}

/** The gateway accepted a submission request: these documents go to MyInvois as one submission. */
export interface MyInvoisDocumentsSubmittedData {
  readonly submissionId: string;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly kind: MyInvoisSubmissionKind;
  readonly documents: readonly SubmittedMyInvoisDocument[];
  readonly submittedAt: string;
}
export type MyInvoisDocumentsSubmitted = Event<'MyInvoisDocumentsSubmitted', MyInvoisDocumentsSubmittedData>;

/**
 * The worker is about to call Submit Documents (committed before the call): a redelivery that
 * finds this marker without an answer asks MyInvois what it already has instead of resubmitting.
 */
export interface MyInvoisSubmissionAttemptedData {
  readonly submissionId: string;
  /** 1 for the first call. */
  readonly attempt: number;
  readonly attemptedAt: string;
  /** The internal ids (wire `codeNumber`) sent in this attempt. */
  readonly codeNumbers: readonly string[];
}
export type MyInvoisSubmissionAttempted = Event<'MyInvoisSubmissionAttempted', MyInvoisSubmissionAttemptedData>;

/**
 * MyInvois (or the worker's own per-client-id rate limit) turned a Submit Documents call away
 * before receiving anything (429): nothing of `attempt` reached MyInvois, so no lookup of what it
 * has is needed before the next try. The submission waits for the per-client-id scheduler
 * (reporting-worker submit-sweep.ts) until `dueAt`; `attempt` 0: turned away before any attempt
 * (login, the lookup of an earlier attempt's documents).
 */
export interface MyInvoisSubmissionDeferredData {
  readonly submissionId: string;
  readonly attempt: number;
  readonly deferredAt: string;
  readonly dueAt: string;
}
export type MyInvoisSubmissionDeferred = Event<'MyInvoisSubmissionDeferred', MyInvoisSubmissionDeferredData>;

/**
 * MyInvois answered 202: a submissionUid, a uuid per accepted document, an error per rejected one.
 * A document `recovered` was found at MyInvois (Get Recent Documents) after an attempt whose
 * answer was lost; it carries the submissionUid it was actually accepted in.
 */
export interface MyInvoisSubmissionAcceptedData {
  readonly submissionId: string;
  readonly submissionUid: string;
  readonly acceptedDocuments: readonly {
    readonly documentId: string;
    readonly uuid: string;
    readonly invoiceCodeNumber: string;
    readonly submissionUid?: string;
    readonly recovered?: boolean;
  }[];
  readonly rejectedDocuments: readonly { readonly documentId: string; readonly invoiceCodeNumber: string; readonly error: SubmissionError }[];
  readonly acceptedAt: string;
}
export type MyInvoisSubmissionAccepted = Event<'MyInvoisSubmissionAccepted', MyInvoisSubmissionAcceptedData>;

/** MyInvois refused the submission as a whole (4xx, not retriable): every document is rejected. */
export interface MyInvoisSubmissionRejectedData {
  readonly submissionId: string;
  readonly error: SubmissionError;
  readonly rejectedAt: string;
}
export type MyInvoisSubmissionRejected = Event<'MyInvoisSubmissionRejected', MyInvoisSubmissionRejectedData>;

/**
 * Get Submission still showed documents `Submitted`. `nextPollAt` is when to ask again (the read
 * model's `next_poll_at`, swept by the reporting worker's poll sweep); null once `maxPolls` polls were
 * made (the stale sweep asks later). Events written before #8 have no `nextPollAt`.
 */
export interface MyInvoisSubmissionPolledData {
  readonly submissionId: string;
  /** 1 for the first poll that left documents pending. */
  readonly pollNo: number;
  readonly polledAt: string;
  readonly nextPollAt?: string | null;
}
export type MyInvoisSubmissionPolled = Event<'MyInvoisSubmissionPolled', MyInvoisSubmissionPolledData>;

/** A document reached `Valid` at MyInvois; `longId` feeds the validation link / QR. */
export interface MyInvoisDocumentValidatedData {
  readonly submissionId: string;
  readonly documentId: string;
  readonly uuid: string;
  readonly longId: string;
  readonly validatedAt: string;
}
export type MyInvoisDocumentValidated = Event<'MyInvoisDocumentValidated', MyInvoisDocumentValidatedData>;

/** A document reached `Invalid` at MyInvois (the authority's `documentStatusReason`). */
export interface MyInvoisDocumentInvalidatedData {
  readonly submissionId: string;
  readonly documentId: string;
  readonly uuid: string;
  readonly reason: string;
  readonly invalidatedAt: string;
}
export type MyInvoisDocumentInvalidated = Event<'MyInvoisDocumentInvalidated', MyInvoisDocumentInvalidatedData>;

/** The supplier asked to cancel a valid document (SDK "03 cancel document": within 72 h of validation). */
export interface MyInvoisDocumentCancellationRequestedData {
  readonly submissionId: string;
  readonly documentId: string;
  readonly uuid: string;
  /** Sent to MyInvois; 1 to 300 characters. */
  readonly reason: string;
  readonly requestedAt: string;
}
export type MyInvoisDocumentCancellationRequested = Event<'MyInvoisDocumentCancellationRequested', MyInvoisDocumentCancellationRequestedData>;

/** MyInvois cancelled the document; its ID is free again. */
export interface MyInvoisDocumentCancelledData {
  readonly submissionId: string;
  readonly documentId: string;
  readonly uuid: string;
  readonly cancelledAt: string;
}
export type MyInvoisDocumentCancelled = Event<'MyInvoisDocumentCancelled', MyInvoisDocumentCancelledData>;

/** MyInvois refused the cancellation (e.g. `OperationPeriodOver`); the document stays valid. */
export interface MyInvoisDocumentCancellationRefusedData {
  readonly submissionId: string;
  readonly documentId: string;
  readonly uuid: string;
  readonly error: SubmissionError;
  readonly refusedAt: string;
}
export type MyInvoisDocumentCancellationRefused = Event<'MyInvoisDocumentCancellationRefused', MyInvoisDocumentCancellationRefusedData>;

/**
 * The buyer asked MyInvois to reject this valid document (SDK "04 reject document": the
 * recipient only, within 72 h of validation, once), seen by the issuer's rejection-watch in Get
 * Recent Documents (`rejectRequestDateTime`, `documentStatusReason`). The document stays valid
 * at MyInvois, its ID taken, until its issuer cancels it.
 */
export interface MyInvoisDocumentRejectedByBuyerData {
  readonly submissionId: string;
  readonly documentId: string;
  readonly uuid: string;
  /** The buyer's reason (`documentStatusReason`). */
  readonly reason: string;
  /** When the buyer asked (`rejectRequestDateTime`). */
  readonly requestedAt: string;
}
export type MyInvoisDocumentRejectedByBuyer = Event<'MyInvoisDocumentRejectedByBuyer', MyInvoisDocumentRejectedByBuyerData>;

/**
 * A valid document's Peppol copy was not sent: its ID already went over Peppol for this supplier
 * (an earlier document, since cancelled; Peppol document IDs are unique per supplier).
 * Invalid or rejected documents need no such event: their own event says why (read model).
 */
export interface MyInvoisPeppolCopyWithheldData {
  readonly submissionId: string;
  readonly documentId: string;
  readonly reason: SubmissionError;
  readonly withheldAt: string;
}
export type MyInvoisPeppolCopyWithheld = Event<'MyInvoisPeppolCopyWithheld', MyInvoisPeppolCopyWithheldData>;

export type MyInvoisSubmissionEvent =
  | MyInvoisDocumentsSubmitted
  | MyInvoisSubmissionAttempted
  | MyInvoisSubmissionDeferred
  | MyInvoisSubmissionAccepted
  | MyInvoisSubmissionRejected
  | MyInvoisSubmissionPolled
  | MyInvoisDocumentValidated
  | MyInvoisDocumentInvalidated
  | MyInvoisDocumentCancellationRequested
  | MyInvoisDocumentCancelled
  | MyInvoisDocumentCancellationRefused
  | MyInvoisDocumentRejectedByBuyer
  | MyInvoisPeppolCopyWithheld;

/** Stream kind `myinvois` (topic: documents, topics.ts): one stream per submission request. */
export const myInvoisSubmissionStreamId = (submissionId: string): string => `myinvois-${submissionId}`;
