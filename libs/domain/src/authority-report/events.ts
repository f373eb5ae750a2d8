import type { Event } from '../events';

/** The authority's error as it states it (its own code and message), with the field when it names one. */
export interface AuthorityErrorData {
  readonly code: string;
  readonly message: string;
  readonly path?: string;
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
  /** The rule set the document was validated under (area registry). */
  readonly ruleSetId: string;
  /** The caller's document number, unique per supplier while alive. */
  readonly documentNumber: string;
  readonly documentType: string;
  /** The caller's fields after defaults (GET shows them). */
  readonly fields: Record<string, unknown>;
  readonly document: ReportedDocument;
  readonly payload: Record<string, unknown>;
  readonly requestedAt: string;
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
}
export type AuthorityReportAttempted = Event<'AuthorityReportAttempted', AuthorityReportAttemptedData>;

/** The authority took the document; `receipt` is what it answered (its ids, QR, codes...), opaque to the platform. */
export interface AuthorityReportAcceptedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly receipt: Record<string, unknown>;
  /** Found at the authority after an attempt whose answer was lost, not answered to a call. */
  readonly recovered: boolean;
  readonly acceptedAt: string;
}
export type AuthorityReportAccepted = Event<'AuthorityReportAccepted', AuthorityReportAcceptedData>;

/** The authority refused the document, with its own error. */
export interface AuthorityReportRejectedData {
  readonly reportId: string;
  readonly documentId: string;
  readonly error: AuthorityErrorData;
  readonly rejectedAt: string;
}
export type AuthorityReportRejected = Event<'AuthorityReportRejected', AuthorityReportRejectedData>;

export type AuthorityReportEvent = AuthorityReportRequested | AuthorityReportAttempted | AuthorityReportAccepted | AuthorityReportRejected;

/** Stream kind `report` (topic: documents, consumed by the reporting worker): one stream per reported document. */
export const authorityReportStreamId = (reportId: string): string => `report-${reportId}`;
