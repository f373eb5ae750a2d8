import type { Command } from '../events';
import type { AuthorityErrorData, AuthorityReportAttemptTurnedAwayData, AuthorityReportAttemptedData, AuthorityReportRequestedData } from './events';

export type RequestAuthorityReport = Command<'RequestAuthorityReport', AuthorityReportRequestedData>;
/** Marks a call about to be made; only while no answer is recorded. */
export type RecordReportAttempt = Command<'RecordReportAttempt', AuthorityReportAttemptedData>;
/** The call of the last attempt was turned away before the authority took anything (429). */
export type RecordAttemptTurnedAway = Command<'RecordAttemptTurnedAway', AuthorityReportAttemptTurnedAwayData>;

/**
 * The authority's answer (to a call, or found by `recover`): taken with its receipt (`final` false:
 * for processing, the verdict comes from polls, the first at `nextPollAt`), or refused with its error.
 */
export type AuthorityAnswerData =
  | { readonly kind: 'accepted'; readonly receipt: Record<string, unknown>; readonly recovered: boolean; readonly final: boolean; readonly nextPollAt?: string; readonly at: string }
  | { readonly kind: 'rejected'; readonly error: AuthorityErrorData; readonly receipt?: Record<string, unknown>; readonly at: string };
export type RecordAuthorityAnswer = Command<'RecordAuthorityAnswer', { readonly reportId: string; readonly answer: AuthorityAnswerData }>;

/** What a poll found: no verdict yet, valid (with what the authority added), or invalid. */
export type PollVerdict =
  | { readonly kind: 'pending' }
  | { readonly kind: 'accepted'; readonly receipt: Record<string, unknown> }
  | { readonly kind: 'rejected'; readonly error: AuthorityErrorData; readonly receipt?: Record<string, unknown> };

/** One poll's result; `maxPolls` bounds the polling (the area's policy), `nextPollAt`: when to ask next. */
export type RecordReportPoll = Command<
  'RecordReportPoll',
  { readonly reportId: string; readonly pollNo: number; readonly maxPolls: number; readonly verdict: PollVerdict; readonly polledAt: string; readonly nextPollAt: string }
>;

export type RequestReportCancellation = Command<'RequestReportCancellation', { readonly reportId: string; readonly reason: string; readonly requestedAt: string }>;

/** The authority's answer to a cancellation. */
export type RecordCancellationAnswer = Command<
  'RecordCancellationAnswer',
  { readonly reportId: string; readonly refused?: AuthorityErrorData; readonly at: string }
>;

/** Amend an accepted document at the authority (one amendment in flight at a time). */
export type RequestReportAmendment = Command<'RequestReportAmendment', { readonly reportId: string; readonly amendmentId: string; readonly change: Record<string, unknown>; readonly requestedAt: string }>;

/** The authority's answer to an amendment. */
export type RecordAmendmentAnswer = Command<'RecordAmendmentAnswer', { readonly reportId: string; readonly amendmentId: string; readonly refused?: AuthorityErrorData; readonly at: string }>;

/** What the authority told of the buyer's rejection of an accepted document (recorded once). */
export type RecordBuyerRejection = Command<'RecordBuyerRejection', { readonly reportId: string; readonly reason: string; readonly requestedAt: string }>;

/** The accepted document's Peppol copy is not sent, and why (the reporting worker, at its release). */
export type WithholdPeppolCopy = Command<'WithholdPeppolCopy', { readonly reportId: string; readonly reason: AuthorityErrorData; readonly withheldAt: string }>;

export type AuthorityReportCommand =
  | RequestAuthorityReport
  | RecordReportAttempt
  | RecordAttemptTurnedAway
  | RecordAuthorityAnswer
  | RecordReportPoll
  | RequestReportCancellation
  | RecordCancellationAnswer
  | RequestReportAmendment
  | RecordAmendmentAnswer
  | RecordBuyerRejection
  | WithholdPeppolCopy;
