import type { Command } from '@einvoice/domain';
import type {
  MyInvoisDocumentCancellationRequestedData,
  MyInvoisDocumentsSubmittedData,
  MyInvoisPeppolCopyWithheldData,
  MyInvoisSubmissionAcceptedData,
  MyInvoisSubmissionAttemptedData,
  MyInvoisSubmissionDeferredData,
  MyInvoisSubmissionRejectedData,
  SubmissionError,
} from './events';

/** One document's state in a Get Submission answer (SDK `documentSummary[].status`). */
export interface PolledDocument {
  readonly uuid: string;
  readonly status: 'Submitted' | 'Valid' | 'Invalid' | 'Cancelled';
  readonly longId: string;
  readonly reason?: string | null;
}

export type SubmitToMyInvois = Command<'SubmitToMyInvois', MyInvoisDocumentsSubmittedData>;
/** Marks a Submit Documents call about to be made; only while no answer is recorded. */
export type RecordSubmissionAttempt = Command<'RecordSubmissionAttempt', MyInvoisSubmissionAttemptedData>;
/** A Submit Documents call (or the calls before it) was turned away with a 429: try again at `dueAt`. */
export type RecordSubmissionDeferred = Command<'RecordSubmissionDeferred', MyInvoisSubmissionDeferredData>;
export type RecordSubmissionAccepted = Command<'RecordSubmissionAccepted', MyInvoisSubmissionAcceptedData>;
export type RecordSubmissionRejected = Command<'RecordSubmissionRejected', MyInvoisSubmissionRejectedData>;
/** What one Get Submission poll saw; `maxPolls` bounds the polling (notes: every 3–5 s); `nextPollAt`: when to ask next. */
export type RecordPoll = Command<
  'RecordPoll',
  {
    readonly submissionId: string;
    readonly pollNo: number;
    readonly maxPolls: number;
    readonly documents: readonly PolledDocument[];
    readonly polledAt: string;
    readonly nextPollAt: string;
  }
>;

export type RequestCancellation = Command<'RequestCancellation', MyInvoisDocumentCancellationRequestedData>;

/** MyInvois's answer to a cancellation: done, or refused with its error. */
export interface StateChangeAnswer {
  readonly submissionId: string;
  readonly uuid: string;
  readonly refused?: SubmissionError;
  readonly at: string;
}
export type RecordCancellation = Command<'RecordCancellation', StateChangeAnswer>;

/**
 * The issuer's side of a buyer's rejection (SDK "04 reject document"): the rejection-watch saw
 * `rejectRequestDateTime` on a valid document in Get Recent Documents (`documentStatusReason`
 * is the buyer's reason). Recorded once; a rescan decides nothing new.
 */
export type RecordRejectionByBuyer = Command<
  'RecordRejectionByBuyer',
  { readonly submissionId: string; readonly uuid: string; readonly reason: string; readonly requestedAt: string }
>;

/** The reporting worker did not send a valid document's Peppol copy (its ID went over Peppol before). */
export type WithholdPeppolCopy = Command<'WithholdPeppolCopy', MyInvoisPeppolCopyWithheldData>;
export type MyInvoisSubmissionCommand =
  | SubmitToMyInvois
  | RecordSubmissionAttempt
  | RecordSubmissionDeferred
  | RecordSubmissionAccepted
  | RecordSubmissionRejected
  | RecordPoll
  | RequestCancellation
  | RecordCancellation
  | RecordRejectionByBuyer
  | WithholdPeppolCopy;
