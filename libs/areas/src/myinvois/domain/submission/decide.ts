import { AppError, conflict } from '@einvoice/domain';
import type { MyInvoisSubmissionCommand } from './commands';
import type { MyInvoisSubmissionEvent } from './events';
import { MyInvoisSubmissionState, evolveMyInvoisSubmission, initialMyInvoisSubmissionState } from './evolve';

// Kept with the MyInvois report (reporting/report.ts), which outlives this aggregate.
export { REJECTION_WINDOW_MS } from '../../reporting/report';

function notValid(uuid: string): AppError {
  return new AppError('conflict', 'MYINVOIS.NOT_VALID', `Document ${uuid} is not valid in this submission: a buyer's rejection applies to valid documents only.`, { retriable: false });
}

function notSubmitted(): AppError {
  return new AppError('conflict', 'MYINVOIS.SUBMISSION_UNKNOWN', 'No such MyInvois submission.', { retriable: false });
}

/**
 * Pure decider of a MyInvois submission. The authority's answer is recorded once: a repeated
 * Record* (an at-least-once consumer) decides nothing new, so nothing is submitted twice on the
 * strength of a missing answer. A poll records each document's final state once, and asks for
 * when to poll again while documents are still `Submitted` (up to `maxPolls`; then `nextPollAt` null).
 */
export function decideMyInvoisSubmission(command: MyInvoisSubmissionCommand, state: MyInvoisSubmissionState): MyInvoisSubmissionEvent[] {
  switch (command.type) {
    case 'SubmitToMyInvois':
      if (state.status !== 'none') throw conflict('MYINVOIS.SUBMISSION_EXISTS', 'The submission already exists.');
      return [{ type: 'MyInvoisDocumentsSubmitted', data: command.data }];
    case 'RecordSubmissionAttempt':
      if (state.status === 'none') throw notSubmitted();
      if (state.status !== 'submitted') throw conflict('MYINVOIS.SUBMISSION_ANSWERED', 'MyInvois has answered this submission; it is never submitted again.');
      return [{ type: 'MyInvoisSubmissionAttempted', data: command.data }];
    case 'RecordSubmissionDeferred':
      if (state.status === 'none') throw notSubmitted();
      // Answered meanwhile (another path got through): nothing is due any more.
      return state.status === 'submitted' ? [{ type: 'MyInvoisSubmissionDeferred', data: command.data }] : [];
    case 'RecordSubmissionAccepted':
      if (state.status === 'none') throw notSubmitted();
      return state.status === 'submitted' ? [{ type: 'MyInvoisSubmissionAccepted', data: command.data }] : [];
    case 'RecordSubmissionRejected':
      if (state.status === 'none') throw notSubmitted();
      return state.status === 'submitted' ? [{ type: 'MyInvoisSubmissionRejected', data: command.data }] : [];
    case 'RecordPoll': {
      if (state.status === 'none') throw notSubmitted();
      if (state.status !== 'answered') return [];
      const { submissionId, polledAt } = command.data;
      const events: MyInvoisSubmissionEvent[] = [];
      for (const doc of command.data.documents) {
        const documentId = state.pending[doc.uuid];
        if (!documentId) continue;
        if (doc.status === 'Valid') {
          events.push({ type: 'MyInvoisDocumentValidated', data: { submissionId, documentId, uuid: doc.uuid, longId: doc.longId, validatedAt: polledAt } });
        } else if (doc.status === 'Invalid') {
          events.push({ type: 'MyInvoisDocumentInvalidated', data: { submissionId, documentId, uuid: doc.uuid, reason: doc.reason ?? 'Invalid', invalidatedAt: polledAt } });
        }
      }
      const after = events.reduce(evolveMyInvoisSubmission, state);
      const stillPending = after.status === 'answered' && Object.keys(after.pending).length > 0;
      if (stillPending) {
        // The last allowed poll says so (nextPollAt null): no further poll is due.
        const nextPollAt = command.data.pollNo < command.data.maxPolls ? command.data.nextPollAt : null;
        events.push({ type: 'MyInvoisSubmissionPolled', data: { submissionId, pollNo: command.data.pollNo, polledAt, nextPollAt } });
      }
      return events;
    }
    case 'RequestCancellation': {
      const { uuid } = command.data;
      // A document rejected by its buyer is still valid at MyInvois: its issuer cancels it.
      if (state.status !== 'answered' || !state.valid[uuid] || state.cancelling[uuid]) {
        throw new AppError('conflict', 'MYINVOIS.NOT_CANCELLABLE', 'Only a valid document without a cancellation in progress can be cancelled.', { retriable: false });
      }
      return [{ type: 'MyInvoisDocumentCancellationRequested', data: { ...command.data, documentId: state.valid[uuid] } }];
    }
    case 'RecordCancellation': {
      const { submissionId, uuid, refused, at } = command.data;
      const documentId = state.status === 'answered' ? state.cancelling[uuid] : undefined;
      if (!documentId) return [];
      if (refused) return [{ type: 'MyInvoisDocumentCancellationRefused', data: { submissionId, documentId, uuid, error: refused, refusedAt: at } }];
      return [{ type: 'MyInvoisDocumentCancelled', data: { submissionId, documentId, uuid, cancelledAt: at } }];
    }
    case 'RecordRejectionByBuyer': {
      const { submissionId, uuid, reason, requestedAt } = command.data;
      if (state.status !== 'answered' || !state.valid[uuid]) throw notValid(uuid);
      // Once per document (MyInvois allows one rejection request): a rescan records nothing new.
      // While a cancellation is in flight, its answer decides: cancelled (nothing to record) or
      // refused (valid again, and the next scan records the rejection).
      if (state.rejected[uuid] || state.cancelling[uuid]) return [];
      return [{ type: 'MyInvoisDocumentRejectedByBuyer', data: { submissionId, documentId: state.valid[uuid], uuid, reason, requestedAt } }];
    }
    case 'WithholdPeppolCopy': {
      // Only a valid document's copy is ever due; a repeated command decides nothing new.
      const { documentId } = command.data;
      if (state.status !== 'answered' || !Object.values(state.valid).includes(documentId) || state.withheld.includes(documentId)) return [];
      return [{ type: 'MyInvoisPeppolCopyWithheld', data: command.data }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const myInvoisSubmissionDecider = {
  decide: decideMyInvoisSubmission,
  evolve: evolveMyInvoisSubmission,
  initialState: initialMyInvoisSubmissionState,
};
