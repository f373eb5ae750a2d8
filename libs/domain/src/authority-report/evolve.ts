import type { AuthorityReportEvent } from './events';

/** What deciding needs to know of a report. */
export type AuthorityReportState =
  | { readonly status: 'none' }
  /** Not answered yet; `attempts` calls were started (their answers lost, or in flight). */
  | { readonly status: 'requested'; readonly documentId: string; readonly attempts: number; readonly firstAttemptAt?: string }
  | { readonly status: 'accepted'; readonly documentId: string }
  | { readonly status: 'rejected'; readonly documentId: string };

export const initialAuthorityReportState: AuthorityReportState = { status: 'none' };

export function evolveAuthorityReport(state: AuthorityReportState, event: AuthorityReportEvent): AuthorityReportState {
  switch (event.type) {
    case 'AuthorityReportRequested':
      return { status: 'requested', documentId: event.data.documentId, attempts: 0 };
    case 'AuthorityReportAttempted':
      return state.status === 'requested'
        ? { ...state, attempts: event.data.attempt, firstAttemptAt: state.firstAttemptAt ?? event.data.attemptedAt }
        : state;
    case 'AuthorityReportAccepted':
      return { status: 'accepted', documentId: event.data.documentId };
    case 'AuthorityReportRejected':
      return { status: 'rejected', documentId: event.data.documentId };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
