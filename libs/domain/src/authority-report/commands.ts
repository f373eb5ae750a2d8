import type { Command } from '../events';
import type { AuthorityErrorData, AuthorityReportAttemptedData, AuthorityReportRequestedData } from './events';

export type RequestAuthorityReport = Command<'RequestAuthorityReport', AuthorityReportRequestedData>;
/** Marks a call about to be made; only while no answer is recorded. */
export type RecordReportAttempt = Command<'RecordReportAttempt', AuthorityReportAttemptedData>;

/**
 * The authority's answer (to a call, or found by `recover`): taken with its receipt (`final` false:
 * for processing, the verdict comes from polls, the first at `nextPollAt`), or refused with its error.
 */
export type AuthorityAnswerData =
  | { readonly kind: 'accepted'; readonly receipt: Record<string, unknown>; readonly recovered: boolean; readonly final: boolean; readonly nextPollAt?: string; readonly at: string }
  | { readonly kind: 'rejected'; readonly error: AuthorityErrorData; readonly at: string };
export type RecordAuthorityAnswer = Command<'RecordAuthorityAnswer', { readonly reportId: string; readonly answer: AuthorityAnswerData }>;

/** What a poll found: no verdict yet, valid (with what the authority added), or invalid. */
export type PollVerdict =
  | { readonly kind: 'pending' }
  | { readonly kind: 'accepted'; readonly receipt: Record<string, unknown> }
  | { readonly kind: 'rejected'; readonly error: AuthorityErrorData };

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

export type AuthorityReportCommand =
  | RequestAuthorityReport
  | RecordReportAttempt
  | RecordAuthorityAnswer
  | RecordReportPoll
  | RequestReportCancellation
  | RecordCancellationAnswer
  | RequestReportAmendment
  | RecordAmendmentAnswer;
