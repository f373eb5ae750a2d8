import type { MyInvoisSubmissionEvent } from './events';

/** What deciding needs to know of a submission. */
export type MyInvoisSubmissionState =
  | { readonly status: 'none' }
  /**
   * Not answered yet; `attempts` Submit Documents calls were started. `firstAttemptAt` is the start
   * of the oldest attempt whose answer was lost (the lookup of what MyInvois already has starts
   * there), from attempt `unansweredFrom` on; none when every attempt so far was turned away (429).
   */
  | { readonly status: 'submitted'; readonly attempts: number; readonly firstAttemptAt?: string; readonly unansweredFrom?: number }
  | { readonly status: 'rejected' }
  /**
   * Answered by MyInvois. Each map goes from the authority uuid to our document id: `pending` not
   * yet final, `valid` valid (cancellable), `cancelling` with a cancellation in flight,
   * `rejected` rejected by its buyer (MyInvois allows one rejection request; the document stays
   * valid until its issuer cancels it). `validatedAt` goes from the uuid to its validation time.
   */
  | {
      readonly status: 'answered';
      readonly pending: Readonly<Record<string, string>>;
      readonly valid: Readonly<Record<string, string>>;
      readonly cancelling: Readonly<Record<string, string>>;
      readonly rejected: Readonly<Record<string, string>>;
      readonly validatedAt: Readonly<Record<string, string>>;
      /** Documents whose Peppol copy was withheld after validation. */
      readonly withheld: readonly string[];
      readonly polls: number;
    };

function without(map: Readonly<Record<string, string>>, key: string): Record<string, string> {
  const copy = { ...map };
  delete copy[key];
  return copy;
}

export const initialMyInvoisSubmissionState: MyInvoisSubmissionState = { status: 'none' };

export function evolveMyInvoisSubmission(state: MyInvoisSubmissionState, event: MyInvoisSubmissionEvent): MyInvoisSubmissionState {
  switch (event.type) {
    case 'MyInvoisDocumentsSubmitted':
      return { status: 'submitted', attempts: 0 };
    case 'MyInvoisSubmissionAttempted':
      if (state.status !== 'submitted') return state;
      return state.firstAttemptAt
        ? { ...state, attempts: event.data.attempt }
        : { status: 'submitted', attempts: event.data.attempt, firstAttemptAt: event.data.attemptedAt, unansweredFrom: event.data.attempt };
    case 'MyInvoisSubmissionDeferred':
      // Only when the attempt turned away is the first unanswered one: an earlier lost answer still needs its lookup.
      return state.status === 'submitted' && state.unansweredFrom === event.data.attempt && event.data.attempt > 0
        ? { status: 'submitted', attempts: state.attempts }
        : state;
    case 'MyInvoisSubmissionAccepted':
      return { status: 'answered', pending: Object.fromEntries(event.data.acceptedDocuments.map((d) => [d.uuid, d.documentId])), valid: {}, cancelling: {}, rejected: {}, validatedAt: {}, withheld: [], polls: 0 };
    case 'MyInvoisSubmissionRejected':
      return { status: 'rejected' };
    case 'MyInvoisSubmissionPolled':
      return state.status === 'answered' ? { ...state, polls: event.data.pollNo } : state;
    case 'MyInvoisDocumentValidated':
      if (state.status !== 'answered') return state;
      return {
        ...state,
        pending: without(state.pending, event.data.uuid),
        valid: { ...state.valid, [event.data.uuid]: event.data.documentId },
        validatedAt: { ...state.validatedAt, [event.data.uuid]: event.data.validatedAt },
      };
    case 'MyInvoisDocumentInvalidated':
      return state.status === 'answered' ? { ...state, pending: without(state.pending, event.data.uuid) } : state;
    case 'MyInvoisDocumentCancellationRequested':
      return state.status === 'answered' ? { ...state, cancelling: { ...state.cancelling, [event.data.uuid]: event.data.documentId } } : state;
    case 'MyInvoisDocumentCancelled':
      return state.status === 'answered' ? { ...state, valid: without(state.valid, event.data.uuid), cancelling: without(state.cancelling, event.data.uuid) } : state;
    case 'MyInvoisDocumentCancellationRefused':
      return state.status === 'answered' ? { ...state, cancelling: without(state.cancelling, event.data.uuid) } : state;
    case 'MyInvoisDocumentRejectedByBuyer':
      return state.status === 'answered' ? { ...state, rejected: { ...state.rejected, [event.data.uuid]: event.data.documentId } } : state;
    case 'MyInvoisPeppolCopyWithheld':
      return state.status === 'answered' ? { ...state, withheld: [...state.withheld, event.data.documentId] } : state;
    default:
      // Types retired since (the issuer-side rejection events of an earlier version): a stream that
      // holds one must stay usable, so they change nothing.
      return state;
  }
}
