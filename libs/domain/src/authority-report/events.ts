import type { Event } from '../events';

/** The authority's error as it states it (its own code and message), with the field when it names one. */
export interface AuthorityErrorData {
  readonly code: string;
  readonly message: string;
  readonly path?: string;
  /** What the error is about when the authority names it apart from the field (MyInvois's `target`: the document's ID). */
  readonly target?: string;
  /** Each error when the authority stated several (JoFotara's ERRORS[]): the 400 lists them all. */
  readonly details?: readonly AuthorityErrorData[];
}

/** The document a report carries: the exact bytes sent to the authority, what they are, and their SHA-256 (hex). */
export interface ReportedDocument {
  readonly bytes: string;
  readonly mediaType: string;
  readonly sha256: string;
}

/**
 * The gateway accepted a document for an area whose tax authority must take it (area registry
 * `authority`). `payload` belongs to the area (its connector reads it); the platform never looks inside.
 */
export interface AuthorityReportRequestedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly area: string;
  /**
   * `incoming`: the report is about a document the supplier received, not one it issues (MyInvois: a
   * buyer's rejection of a document it received, sent with the buyer's own credentials). Absent: outgoing.
   */
  readonly direction?: 'incoming';
  /** The rule set the document was validated under (area registry). */
  readonly ruleSetId: string;
  /** The caller's document number, unique per supplier while alive. */
  readonly documentNumber: string;
  readonly documentType: string;
  /** The caller's fields after defaults (GET shows them). */
  readonly fields: Record<string, unknown>;
  /** The amount payable where the area computed it (ParsedDocument.total): `documents.total`. Absent otherwise and on older events. */
  readonly total?: string;
  readonly document: ReportedDocument;
  readonly payload: Record<string, unknown>;
  readonly requestedAt: string;
  /** The record's place in its issuer's chain (areas with `documents.chain`): batches send in this order. */
  readonly chainPosition?: number;
  /**
   * Reports the caller submitted together, which the authority takes in one call (MyInvois: one
   * submission of up to 100 documents): the batch sweep sends them together, at once, and never with
   * other reports. Absent: the sweep gathers the issuer's reports by its area's batch policy.
   */
  readonly batchKey?: string;
  /**
   * A copy for the buyer over Peppol, released only once the authority accepts the document for good
   * (Poland `transport_mode: peppol`): the reporting worker then appends its `DocumentSubmitted`
   * (same document id) in the transaction that records the acceptance.
   */
  readonly peppolCopy?: PeppolCopyData;
}

/** The Peppol copy of a reported document, rendered at submission (UBL 2.1) and sent after the authority's acceptance. */
export interface PeppolCopyData {
  readonly documentType: string;
  readonly senderParticipantId: string;
  readonly receiverParticipantId: string;
  /** Country of the sending end user (C1): the supplier's, decided at submission (Peppol Reporting, #46). */
  readonly countryC1?: string;
  readonly xml: string;
}
export type AuthorityReportRequested = Event<'AuthorityReportRequested', AuthorityReportRequestedData>;

/**
 * The reporting worker is about to call the authority (committed before the call): a redelivery
 * that finds this marker without an answer asks the authority what it has (`recover`) before
 * submitting again, so nothing is reported twice on the strength of a lost answer.
 */
export interface AuthorityReportAttemptedData {
  readonly reportId: string;
  /** 1 for the first call. */
  readonly attempt: number;
  readonly attemptedAt: string;
  /** Sent in a batch (area registry `authority.batch`): the batch's id, shared by the reports of that call. */
  readonly batchId?: string;
}
export type AuthorityReportAttempted = Event<'AuthorityReportAttempted', AuthorityReportAttemptedData>;

/**
 * The authority turned attempt `attempt` away before taking anything (a 429: its rate limit): that
 * call is not in doubt, so the next one is sent without asking the authority first (`recover`, which
 * for MyInvois pages through the issuer's recent documents under a 12-a-minute limit: a bulk backlog
 * turned away once waited minutes for it, issue 11).
 */
export interface AuthorityReportAttemptTurnedAwayData {
  readonly reportId: string;
  /** The attempt turned away (AuthorityReportAttempted's `attempt`). */
  readonly attempt: number;
  readonly error: AuthorityErrorData;
  readonly turnedAwayAt: string;
  /** The wait the authority asked for before the next call (its Retry-After), when it said. */
  readonly retryAfterMs?: number;
  /** The report's document (set by the decider; events of before it have none). */
  readonly documentId?: string;
}
export type AuthorityReportAttemptTurnedAway = Event<'AuthorityReportAttemptTurnedAway', AuthorityReportAttemptTurnedAwayData>;

/** The authority took the document; `receipt` is what it answered (its ids, QR, codes...), opaque to the platform. */
export interface AuthorityReportAcceptedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly receipt: Record<string, unknown>;
  /** Found at the authority after an attempt whose answer was lost, not answered to a call. */
  readonly recovered: boolean;
  /**
   * Schema 2. False: taken for processing only; the verdict comes from polls (`AuthorityReportPolled`
   * until `AuthorityReportValidated` or `AuthorityReportInvalidated`). Schema-1 events were final.
   */
  readonly final: boolean;
  /** When not final: when to ask for the verdict first. */
  readonly nextPollAt?: string;
  readonly acceptedAt: string;
}
export type AuthorityReportAccepted = Event<'AuthorityReportAccepted', AuthorityReportAcceptedData>;

/** The authority refused the document, with its own error. */
export interface AuthorityReportRejectedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly error: AuthorityErrorData;
  readonly rejectedAt: string;
  /** What the authority said of the document besides its refusal (MyInvois: the submission it refused it in). */
  readonly receipt?: Record<string, unknown>;
}
export type AuthorityReportRejected = Event<'AuthorityReportRejected', AuthorityReportRejectedData>;

/** A poll found no verdict yet; `nextPollAt` null after the last allowed poll (the report stays unanswered, visibly). */
export interface AuthorityReportPolledData {
  readonly reportId: string;
  readonly documentId: string;
  readonly pollNo: number;
  readonly polledAt: string;
  readonly nextPollAt: string | null;
}
export type AuthorityReportPolled = Event<'AuthorityReportPolled', AuthorityReportPolledData>;

/** The verdict on a document taken for processing: valid, with what the authority added to its receipt. */
export interface AuthorityReportValidatedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly receipt: Record<string, unknown>;
  readonly validatedAt: string;
}
export type AuthorityReportValidated = Event<'AuthorityReportValidated', AuthorityReportValidatedData>;

/** The verdict on a document taken for processing: invalid, with the authority's error. */
export interface AuthorityReportInvalidatedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly error: AuthorityErrorData;
  readonly invalidatedAt: string;
  /** What the verdict added besides the error (UAE: the MLS; KSeF: its status), merged into the receipt. */
  readonly receipt?: Record<string, unknown>;
}
export type AuthorityReportInvalidated = Event<'AuthorityReportInvalidated', AuthorityReportInvalidatedData>;

/** The issuer asked to cancel an accepted document (where its area's authority allows it); the worker calls. */
export interface AuthorityReportCancellationRequestedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly reason: string;
  readonly requestedAt: string;
}
export type AuthorityReportCancellationRequested = Event<'AuthorityReportCancellationRequested', AuthorityReportCancellationRequestedData>;

export interface AuthorityReportCancelledData {
  readonly reportId: string;
  readonly documentId: string;
  readonly cancelledAt: string;
}
export type AuthorityReportCancelled = Event<'AuthorityReportCancelled', AuthorityReportCancelledData>;

/** The authority refused the cancellation (its error); the document stays accepted. */
export interface AuthorityReportCancellationRefusedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly error: AuthorityErrorData;
  readonly refusedAt: string;
}
export type AuthorityReportCancellationRefused = Event<'AuthorityReportCancellationRefused', AuthorityReportCancellationRefusedData>;

/**
 * The issuer asked to amend an accepted document at its authority (Nigeria: its payment status), where
 * its area's connector can (`amend`); `change` is the area's, merged into the document's fields once done.
 */
export interface AuthorityReportAmendmentRequestedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly amendmentId: string;
  readonly change: Record<string, unknown>;
  readonly requestedAt: string;
}
export type AuthorityReportAmendmentRequested = Event<'AuthorityReportAmendmentRequested', AuthorityReportAmendmentRequestedData>;

export interface AuthorityReportAmendedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly amendmentId: string;
  readonly change: Record<string, unknown>;
  readonly amendedAt: string;
}
export type AuthorityReportAmended = Event<'AuthorityReportAmended', AuthorityReportAmendedData>;

export interface AuthorityReportAmendmentRefusedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly amendmentId: string;
  readonly error: AuthorityErrorData;
  readonly refusedAt: string;
}
export type AuthorityReportAmendmentRefused = Event<'AuthorityReportAmendmentRefused', AuthorityReportAmendmentRefusedData>;

/**
 * The authority tells that the buyer asked to reject an accepted document (MyInvois: `rejectRequestDateTime`
 * and the buyer's reason in Get Recent Documents). The document stays accepted at the authority until
 * its issuer cancels it; recorded once.
 */
export interface AuthorityReportBuyerRejectedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly reason: string;
  readonly requestedAt: string;
}
export type AuthorityReportBuyerRejected = Event<'AuthorityReportBuyerRejected', AuthorityReportBuyerRejectedData>;

/**
 * The Peppol copy of an accepted document is not sent (`reason`: why, in the service's own code): its
 * number already went over Peppol for this supplier (Peppol document ids are unique per sender).
 */
export interface AuthorityReportPeppolCopyWithheldData {
  readonly reportId: string;
  readonly documentId: string;
  readonly reason: AuthorityErrorData;
  readonly withheldAt: string;
}
export type AuthorityReportPeppolCopyWithheld = Event<'AuthorityReportPeppolCopyWithheld', AuthorityReportPeppolCopyWithheldData>;

export type AuthorityReportEvent =
  | AuthorityReportRequested
  | AuthorityReportAttempted
  | AuthorityReportAttemptTurnedAway
  | AuthorityReportAccepted
  | AuthorityReportRejected
  | AuthorityReportPolled
  | AuthorityReportValidated
  | AuthorityReportInvalidated
  | AuthorityReportCancellationRequested
  | AuthorityReportCancelled
  | AuthorityReportCancellationRefused
  | AuthorityReportAmendmentRequested
  | AuthorityReportAmended
  | AuthorityReportAmendmentRefused
  | AuthorityReportBuyerRejected
  | AuthorityReportPeppolCopyWithheld;

/** Stream kind `report` (topic: documents, consumed by the reporting worker): one stream per reported document. */
export const authorityReportStreamId = (reportId: string): string => `report-${reportId}`;
