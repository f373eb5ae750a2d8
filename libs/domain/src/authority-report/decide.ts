import { AppError, conflict } from '../errors';
import type { AuthorityReportCommand } from './commands';
import type { AuthorityReportEvent } from './events';
import { type AuthorityReportState, evolveAuthorityReport, initialAuthorityReportState } from './evolve';

function unknownReport(): AppError {
  return new AppError('conflict', 'AUTHORITY.REPORT_UNKNOWN', 'No such authority report.', { retriable: false });
}

/**
 * Pure decider of one document reported to a tax authority (area registry `authority`): submitted
 * (attempt marker, then the answer), then, for an answer that is not final, polled until the
 * verdict; an accepted document may be cancelled where its authority allows it. Every answer is
 * recorded once: a repeated one (an at-least-once consumer, a second poller) decides nothing new,
 * and no attempt is started once an answer is recorded, so nothing is reported twice on the
 * strength of a missing answer.
 */
export function decideAuthorityReport(command: AuthorityReportCommand, state: AuthorityReportState): AuthorityReportEvent[] {
  switch (command.type) {
    case 'RequestAuthorityReport':
      if (state.status !== 'none') throw conflict('AUTHORITY.REPORT_EXISTS', 'The report already exists.');
      return [{ type: 'AuthorityReportRequested', data: command.data }];
    case 'RecordReportAttempt':
      if (state.status === 'none') throw unknownReport();
      if (state.status !== 'requested') {
        throw new AppError('conflict', 'AUTHORITY.REPORT_ANSWERED', 'The authority has answered this report; it is never sent again.', { retriable: false });
      }
      return [{ type: 'AuthorityReportAttempted', data: command.data }];
    case 'RecordAttemptTurnedAway':
      if (state.status === 'none') throw unknownReport();
      // Only the attempt in flight, once: an answer recorded meanwhile, or a later attempt, decides.
      if (state.status !== 'requested' || command.data.attempt !== state.attempts || state.turnedAway >= state.attempts) return [];
      return [{ type: 'AuthorityReportAttemptTurnedAway', data: { ...command.data, documentId: state.documentId } }];
    case 'RecordAuthorityAnswer': {
      if (state.status === 'none') throw unknownReport();
      if (state.status !== 'requested') return [];
      const { reportId, answer } = command.data;
      const { documentId } = state;
      if (answer.kind === 'rejected') {
        return [{ type: 'AuthorityReportRejected', data: { reportId, documentId, error: answer.error, rejectedAt: answer.at, ...(answer.receipt ? { receipt: answer.receipt } : {}) } }];
      }
      const { receipt, recovered, final, nextPollAt, at } = answer;
      return [{ type: 'AuthorityReportAccepted', data: { reportId, documentId, receipt, recovered, final, ...(final ? {} : { nextPollAt }), acceptedAt: at } }];
    }
    case 'RecordReportPoll': {
      if (state.status === 'none') throw unknownReport();
      // A verdict is recorded once; a repeated or late poll (an older pollNo) decides nothing new.
      if (state.status !== 'processing' || command.data.pollNo <= state.polls) return [];
      const { reportId, pollNo, maxPolls, verdict, polledAt, nextPollAt } = command.data;
      const { documentId } = state;
      switch (verdict.kind) {
        case 'accepted':
          return [{ type: 'AuthorityReportValidated', data: { reportId, documentId, receipt: verdict.receipt, validatedAt: polledAt } }];
        case 'rejected':
          return [{ type: 'AuthorityReportInvalidated', data: { reportId, documentId, error: verdict.error, invalidatedAt: polledAt, ...(verdict.receipt ? { receipt: verdict.receipt } : {}) } }];
        default:
          // The last allowed poll says so (nextPollAt null): no further poll is due.
          return [{ type: 'AuthorityReportPolled', data: { reportId, documentId, pollNo, polledAt, nextPollAt: pollNo < maxPolls ? nextPollAt : null } }];
      }
    }
    case 'RequestReportCancellation': {
      if (state.status === 'none') throw unknownReport();
      if (state.status !== 'accepted' || state.cancelling) {
        throw new AppError('conflict', 'AUTHORITY.NOT_CANCELLABLE', 'Only a document the authority accepted, without a cancellation in progress, can be cancelled.', { retriable: false });
      }
      const { reportId, reason, requestedAt } = command.data;
      return [{ type: 'AuthorityReportCancellationRequested', data: { reportId, documentId: state.documentId, reason, requestedAt } }];
    }
    case 'RecordCancellationAnswer': {
      if (state.status === 'none') throw unknownReport();
      // Answered once: a redelivered answer finds no cancellation in flight.
      if (state.status !== 'accepted' || !state.cancelling) return [];
      const { reportId, refused, at } = command.data;
      const { documentId } = state;
      return refused
        ? [{ type: 'AuthorityReportCancellationRefused', data: { reportId, documentId, error: refused, refusedAt: at } }]
        : [{ type: 'AuthorityReportCancelled', data: { reportId, documentId, cancelledAt: at } }];
    }
    case 'RequestReportAmendment': {
      if (state.status === 'none') throw unknownReport();
      if (state.status !== 'accepted' || state.cancelling || state.amending) {
        throw new AppError('conflict', 'AUTHORITY.NOT_AMENDABLE', 'Only a document the authority accepted, with no cancellation or other amendment in progress, can be amended.', { retriable: false });
      }
      const { reportId, amendmentId, change, requestedAt } = command.data;
      return [{ type: 'AuthorityReportAmendmentRequested', data: { reportId, documentId: state.documentId, amendmentId, change, requestedAt } }];
    }
    case 'RecordAmendmentAnswer': {
      if (state.status === 'none') throw unknownReport();
      // Answered once: a redelivered answer finds this amendment no longer in flight.
      if (state.status !== 'accepted' || state.amending?.amendmentId !== command.data.amendmentId) return [];
      const { reportId, amendmentId, refused, at } = command.data;
      const { documentId } = state;
      return refused
        ? [{ type: 'AuthorityReportAmendmentRefused', data: { reportId, documentId, amendmentId, error: refused, refusedAt: at } }]
        : [{ type: 'AuthorityReportAmended', data: { reportId, documentId, amendmentId, change: state.amending.change, amendedAt: at } }];
    }
    case 'RecordBuyerRejection': {
      if (state.status === 'none') throw unknownReport();
      if (state.status !== 'accepted') {
        throw new AppError('conflict', 'AUTHORITY.NOT_ACCEPTED', "A buyer's rejection applies to a document the authority accepted.", { retriable: false });
      }
      // Once per document (MyInvois allows one rejection request): a rescan records nothing new. While
      // a cancellation is in flight its answer decides: cancelled (nothing to record) or refused
      // (accepted again, and the next scan records the rejection).
      if (state.buyerRejected || state.cancelling) return [];
      const { reportId, reason, requestedAt } = command.data;
      return [{ type: 'AuthorityReportBuyerRejected', data: { reportId, documentId: state.documentId, reason, requestedAt } }];
    }
    case 'WithholdPeppolCopy': {
      if (state.status === 'none') throw unknownReport();
      // Only an accepted document's copy is ever due; a repeated command decides nothing new.
      if (state.status !== 'accepted' || state.copyWithheld) return [];
      const { reportId, reason, withheldAt } = command.data;
      return [{ type: 'AuthorityReportPeppolCopyWithheld', data: { reportId, documentId: state.documentId, reason, withheldAt } }];
    }
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const authorityReportDecider = {
  decide: decideAuthorityReport,
  evolve: evolveAuthorityReport,
  initialState: initialAuthorityReportState,
};
