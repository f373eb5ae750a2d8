/**
 * The MyInvois (LHDN, Malaysia) authority connector: one interface, two modes (DESIGN.md
 * "Areas"). `sandbox` (default) behaves as the MyInvois SDK documents (state in PostgreSQL, shared);
 * `live` is an intermediary client for the real REST API. Types mirror the wire format of
 * https://sdk.myinvois.hasil.gov.my (see README.md for what is confirmed and what is assumed).
 */
import { createHash } from 'node:crypto';

export type MyInvoisMode = 'sandbox' | 'live';

/** The supplier's client id/secret issued by LHDN for this service provider (seed "Supplier"). */
export interface MyInvoisCredentials {
  /** OAuth `client_id`. Also the key of the authority's per-client rate limits. */
  readonly clientId: string;
  /** OAuth `client_secret`; never logged, never returned. */
  readonly clientSecret: string;
  /** TIN of the taxpayer the intermediary acts for: sent as header `onbehalfof` on login. */
  readonly onBehalfOfTin: string;
}

/** An access token from `POST /connect/token`, with what the connector needs to use it. */
export interface AccessToken {
  /** Wire `access_token` (a JWT); sent as `Authorization: Bearer`. */
  readonly accessToken: string;
  /** Epoch ms when the token stops working: login time + wire `expires_in` seconds. */
  readonly expiresAt: number;
  /** The client id the token was issued to (rate limits are per client id). */
  readonly clientId: string;
  /** The taxpayer the token acts for. */
  readonly onBehalfOfTin: string;
}

/** `idType` of Validate Taxpayer's TIN (`GET /api/v1.0/taxpayer/validate/{tin}`). */
export type TinIdType = 'NRIC' | 'PASSPORT' | 'BRN' | 'ARMY';

export interface TinCheck {
  readonly tin: string;
  readonly idType: TinIdType;
  readonly idValue: string;
}

/** Wire `format` of a submitted document; all documents of a submission share one format. */
export type DocumentFormat = 'XML' | 'JSON';

/** One document of a submission, before encoding (the connector base64-encodes `document`). */
export interface SubmissionDocument {
  readonly format: DocumentFormat;
  /** The exact bytes submitted (a string is taken as its UTF-8 bytes). */
  readonly document: Uint8Array | string;
  /** Wire `documentHash`: SHA-256 hex of exactly those bytes (use {@link documentHash}). */
  readonly documentHash: string;
  /** Wire `codeNumber`: the internal id (invoice number) the response maps back to. */
  readonly codeNumber: string;
}

/** The authority's error object (Standard Error Response / rejected document `error`). */
export interface AuthorityError {
  readonly code: string;
  readonly message: string;
  readonly target?: string | null;
  readonly propertyPath?: string | null;
  readonly details?: readonly AuthorityError[] | null;
}

/** Wire 202 body of `POST /api/v1.0/documentsubmissions`. */
export interface SubmissionResponse {
  readonly submissionUid: string;
  readonly acceptedDocuments: readonly { readonly uuid: string; readonly invoiceCodeNumber: string }[];
  readonly rejectedDocuments: readonly { readonly invoiceCodeNumber: string; readonly error: AuthorityError }[];
}

export type OverallStatus = 'in progress' | 'valid' | 'partially valid' | 'invalid';
export type DocumentStatus = 'Submitted' | 'Valid' | 'Invalid' | 'Cancelled';

/** One entry of `documentSummary` in Get Submission. */
export interface DocumentSummary {
  readonly uuid: string;
  readonly submissionUid: string;
  /** Assigned once the document is valid (used in the validation link / QR); empty before. */
  readonly longId: string;
  /** The document's internal id (invoice number). */
  readonly internalId: string;
  readonly typeName: string;
  readonly typeVersionName: string;
  readonly issuerTin: string;
  readonly issuerName?: string;
  readonly receiverId?: string;
  readonly receiverName?: string;
  readonly dateTimeIssued: string;
  readonly dateTimeReceived: string;
  readonly dateTimeValidated?: string | null;
  readonly totalExcludingTax?: number;
  readonly totalDiscount?: number;
  readonly totalNetAmount?: number;
  readonly totalPayableAmount?: number;
  readonly status: DocumentStatus;
  readonly cancelDateTime?: string | null;
  readonly rejectRequestDateTime?: string | null;
  readonly documentStatusReason?: string | null;
  readonly createdByUserId?: string;
}

/** Wire 200 body of `GET /api/v1.0/documentsubmissions/{submissionUid}`. */
export interface SubmissionStatus {
  readonly submissionUid: string;
  readonly documentCount: number;
  readonly dateTimeReceived: string;
  readonly overallStatus: OverallStatus;
  readonly documentSummary: readonly DocumentSummary[];
}

/** Filters of Get Recent Documents (`GET /api/v1.0/documents/recent`); times in UTC. */
export interface RecentDocumentsQuery {
  readonly pageNo?: number;
  readonly pageSize?: number;
  /** Mandatory together with `submissionDateTo`. */
  readonly submissionDateFrom?: string;
  readonly submissionDateTo?: string;
  readonly invoiceDirection?: 'Sent' | 'Received';
  readonly status?: DocumentStatus;
}

/** One entry of Get Recent Documents' `result` (the fields the worker reads; more may come). */
export interface RecentDocument {
  readonly uuid: string;
  readonly submissionUid: string;
  readonly longId: string;
  readonly internalId: string;
  readonly typeName: string;
  readonly status: DocumentStatus;
  readonly dateTimeReceived: string;
  readonly issuerTin?: string;
  /** The buyer's TIN (the only party that may reject the document). */
  readonly receiverId?: string;
  /** Set once the receiver requested rejection (then the issuer may cancel). */
  readonly rejectRequestDateTime?: string | null;
  /** The reason of a rejection request or cancellation, or why the document is invalid. */
  readonly documentStatusReason?: string | null;
}

/** Wire 200 body of Get Recent Documents (newest submission first). */
export interface RecentDocuments {
  readonly result: readonly RecentDocument[];
  readonly metadata: { readonly totalPages: number; readonly totalCount: number };
}

/** Wire 200 body of `PUT /api/v1.0/documents/state/{uuid}/state`. */
export interface DocumentStateChange {
  readonly uuid: string;
  readonly status: string;
}

/**
 * What the reporting worker calls. Every method throws `AppError`: `rate_limited` (retriable,
 * `details.retryAfterMs`), `unavailable` (retriable), `unauthenticated` with code
 * `MYINVOIS.TOKEN_REJECTED` (retriable after a new login), anything else is final.
 */
/** The connector's calls that reach MyInvois (counted and timed as authority calls of area `my`). */
export const MYINVOIS_OPERATIONS: readonly string[] = ['login', 'validateTin', 'submitDocuments', 'getSubmission', 'recentDocuments', 'cancelDocument', 'rejectDocument'];

export interface MyInvoisConnector {
  readonly mode: MyInvoisMode;
  /** Login as intermediary system; a bad id/secret is `MYINVOIS.INVALID_CREDENTIALS`, not retriable. */
  login(credentials: MyInvoisCredentials): Promise<AccessToken>;
  /** True when the authority knows the TIN with that id (HTTP 200), false when it does not (404). */
  validateTin(token: AccessToken, check: TinCheck): Promise<boolean>;
  submitDocuments(token: AccessToken, documents: readonly SubmissionDocument[]): Promise<SubmissionResponse>;
  /** Poll every 3–5 s until `overallStatus` is not `in progress` (notes/national-systems.md). */
  getSubmission(token: AccessToken, submissionUid: string, page?: { pageNo?: number; pageSize?: number }): Promise<SubmissionStatus>;
  /** Get Recent Documents (12 RPM): what MyInvois already has, e.g. after a submit whose answer was lost. */
  recentDocuments(token: AccessToken, query: RecentDocumentsQuery): Promise<RecentDocuments>;
  /** Issuer cancels within 72 h of validation. */
  cancelDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange>;
  /** The document's receiver (buyer) requests rejection within 72 h of validation; anyone else is `MYINVOIS.REJECT_NOT_RECEIVER` (forbidden). */
  rejectDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange>;
}

/** The bytes of a document as submitted. */
export function documentBytes(document: Uint8Array | string): Buffer {
  return typeof document === 'string' ? Buffer.from(document, 'utf8') : Buffer.from(document);
}

/** SHA-256 hex of the exact submitted bytes (a mismatch is "Document hash is not valid"). */
export function documentHash(document: Uint8Array | string): string {
  return createHash('sha256').update(documentBytes(document)).digest('hex');
}

/** Builds a {@link SubmissionDocument} with its hash computed from the bytes. */
export function prepareDocument(format: DocumentFormat, codeNumber: string, document: Uint8Array | string): SubmissionDocument {
  return { format, codeNumber, document, documentHash: documentHash(document) };
}
