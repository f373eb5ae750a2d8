import type { Event } from '@einvoice/domain';
import type { SubmissionError } from '../../reporting/report';

/**
 * A buyer (a Malaysian supplier onboarded here, receiver of a document at MyInvois) asked to
 * reject a document it received (SDK "04 reject document": the recipient only, within 72 h of
 * validation, once). The reporting worker calls Reject Document with the buyer's token.
 */
export interface MyInvoisBuyerRejectionRequestedData {
  readonly rejectionId: string;
  readonly tenantId: string;
  /** The buyer: the onboarded supplier whose TIN is the document's receiver. */
  readonly supplierId: string;
  /** The MyInvois uuid of the received document. */
  readonly uuid: string;
  /** Sent to MyInvois; 1 to 300 characters. */
  readonly reason: string;
  readonly requestedAt: string;
}
export type MyInvoisBuyerRejectionRequested = Event<'MyInvoisBuyerRejectionRequested', MyInvoisBuyerRejectionRequestedData>;

/** MyInvois recorded the rejection request ("Requested for Rejection"); the issuer then may cancel. */
export interface MyInvoisBuyerRejectionRecordedData {
  readonly rejectionId: string;
  readonly uuid: string;
  readonly rejectedAt: string;
}
export type MyInvoisBuyerRejectionRecorded = Event<'MyInvoisBuyerRejectionRecorded', MyInvoisBuyerRejectionRecordedData>;

/** How MyInvois refused, in the error model's terms (the gateway's HTTP status follows from it). */
export type RejectionRefusalKind = 'validation' | 'forbidden' | 'not_found' | 'conflict';

/**
 * MyInvois refused the rejection: not the document's receiver (`forbidden`), the 72 h passed or
 * already rejected (`conflict`), no such document (`not_found`). `error` is the authority's.
 */
export interface MyInvoisBuyerRejectionRefusedData {
  readonly rejectionId: string;
  readonly uuid: string;
  readonly kind: RejectionRefusalKind;
  readonly error: SubmissionError;
  readonly refusedAt: string;
}
export type MyInvoisBuyerRejectionRefused = Event<'MyInvoisBuyerRejectionRefused', MyInvoisBuyerRejectionRefusedData>;

export type MyInvoisRejectionEvent = MyInvoisBuyerRejectionRequested | MyInvoisBuyerRejectionRecorded | MyInvoisBuyerRejectionRefused;

/**
 * Stream kind `myinvois` (documents topic, consumed by the reporting worker): one stream per
 * buyer and received document, so a repeated request lands on the same stream.
 */
export const myInvoisRejectionStreamId = (rejectionId: string): string => `myinvois-rejection-${rejectionId}`;
