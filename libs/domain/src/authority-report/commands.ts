import type { Command } from '../events';
import type { AuthorityErrorData, AuthorityReportAttemptedData, AuthorityReportRequestedData } from './events';

export type RequestAuthorityReport = Command<'RequestAuthorityReport', AuthorityReportRequestedData>;
/** Marks a call about to be made; only while no answer is recorded. */
export type RecordReportAttempt = Command<'RecordReportAttempt', AuthorityReportAttemptedData>;

/** The authority's answer (to a call, or found by `recover`): taken with its receipt, or refused with its error. */
export type AuthorityAnswerData =
  | { readonly kind: 'accepted'; readonly receipt: Record<string, unknown>; readonly recovered: boolean; readonly at: string }
  | { readonly kind: 'rejected'; readonly error: AuthorityErrorData; readonly at: string };
export type RecordAuthorityAnswer = Command<'RecordAuthorityAnswer', { readonly reportId: string; readonly answer: AuthorityAnswerData }>;

export type AuthorityReportCommand = RequestAuthorityReport | RecordReportAttempt | RecordAuthorityAnswer;
