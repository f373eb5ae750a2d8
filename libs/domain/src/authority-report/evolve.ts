import type { AuthorityReportEvent } from './events';

/** What deciding needs to know of a report. */
export type AuthorityReportState =
  | { readonly status: 'none' }
  /**
   * Not answered yet; `attempts` calls were started, `turnedAway` of them refused before the authority
   * took anything (429); the others' answers are lost or in flight. `firstAttemptAt`: when the first
   * call that may have reached the authority started (from there `recover` looks); unset while none may have.
   */
  | { readonly status: 'requested'; readonly documentId: string; readonly attempts: number; readonly turnedAway: number; readonly firstAttemptAt?: string }
  /** Taken for processing; `polls` polls found no verdict yet. */
  | { readonly status: 'processing'; readonly documentId: string; readonly polls: number }
  /** Accepted for good (answered final, or validated); `cancelling` while a cancellation is in flight. */
  | {
      readonly status: 'accepted';
      readonly documentId: string;
      readonly cancelling: boolean;
      readonly amending?: { readonly amendmentId: string; readonly change: Record<string, unknown> };
      /** The authority told that the buyer asked to reject it. */
      readonly buyerRejected?: boolean;
      /** Its Peppol copy is not sent. */
      readonly copyWithheld?: boolean;
    }
  | { readonly status: 'rejected'; readonly documentId: string }
  | { readonly status: 'cancelled'; readonly documentId: string };

export const initialAuthorityReportState: AuthorityReportState = { status: 'none' };

export function evolveAuthorityReport(state: AuthorityReportState, event: AuthorityReportEvent): AuthorityReportState {
  switch (event.type) {
    case 'AuthorityReportRequested':
      return { status: 'requested', documentId: event.data.documentId, attempts: 0, turnedAway: 0 };
    case 'AuthorityReportAttempted':
      return state.status === 'requested'
        ? { ...state, attempts: event.data.attempt, firstAttemptAt: state.firstAttemptAt ?? event.data.attemptedAt }
        : state;
    case 'AuthorityReportAttemptTurnedAway': {
      if (state.status !== 'requested') return state;
      const turnedAway = state.turnedAway + 1;
      // Every call so far turned away: none is in doubt, the next is sent as a first one.
      return { ...state, turnedAway, firstAttemptAt: turnedAway >= state.attempts ? undefined : state.firstAttemptAt };
    }
    case 'AuthorityReportAccepted':
      // Schema-1 events carry no `final` and were final (the registry upcasts them; a raw fold agrees).
      return event.data.final === false
        ? { status: 'processing', documentId: event.data.documentId, polls: 0 }
        : { status: 'accepted', documentId: event.data.documentId, cancelling: false };
    case 'AuthorityReportRejected':
    case 'AuthorityReportInvalidated':
      return { status: 'rejected', documentId: event.data.documentId };
    case 'AuthorityReportPolled':
      return state.status === 'processing' ? { ...state, polls: event.data.pollNo } : state;
    case 'AuthorityReportValidated':
      return { status: 'accepted', documentId: event.data.documentId, cancelling: false };
    case 'AuthorityReportCancellationRequested':
      return state.status === 'accepted' ? { ...state, cancelling: true } : state;
    case 'AuthorityReportCancellationRefused':
      return state.status === 'accepted' ? { ...state, cancelling: false } : state;
    case 'AuthorityReportCancelled':
      return { status: 'cancelled', documentId: event.data.documentId };
    case 'AuthorityReportAmendmentRequested':
      return state.status === 'accepted' ? { ...state, amending: { amendmentId: event.data.amendmentId, change: event.data.change } } : state;
    case 'AuthorityReportAmended':
    case 'AuthorityReportAmendmentRefused':
      return state.status === 'accepted' ? { ...state, amending: undefined } : state;
    case 'AuthorityReportBuyerRejected':
      return state.status === 'accepted' ? { ...state, buyerRejected: true } : state;
    case 'AuthorityReportPeppolCopyWithheld':
      return state.status === 'accepted' ? { ...state, copyWithheld: true } : state;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
