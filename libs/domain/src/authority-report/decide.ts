import { AppError, conflict } from '../errors';
import type { AuthorityReportCommand } from './commands';
import type { AuthorityReportEvent } from './events';
import { type AuthorityReportState, evolveAuthorityReport, initialAuthorityReportState } from './evolve';

function unknownReport(): AppError {
  return new AppError('conflict', 'AUTHORITY.REPORT_UNKNOWN', 'No such authority report.', { retriable: false });
}

/**
 * Pure decider of one document reported to a tax authority (area registry `authority`). The
 * authority's answer is recorded once: a repeated answer (an at-least-once consumer) decides
 * nothing new, and no attempt is started once an answer is recorded, so nothing is reported twice
 * on the strength of a missing answer.
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
    case 'RecordAuthorityAnswer': {
      if (state.status === 'none') throw unknownReport();
      if (state.status !== 'requested') return [];
      const { reportId, answer } = command.data;
      const { documentId } = state;
      return answer.kind === 'accepted'
        ? [{ type: 'AuthorityReportAccepted', data: { reportId, documentId, receipt: answer.receipt, recovered: answer.recovered, acceptedAt: answer.at } }]
        : [{ type: 'AuthorityReportRejected', data: { reportId, documentId, error: answer.error, rejectedAt: answer.at } }];
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
