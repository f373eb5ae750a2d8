import {
  AppError,
  type AuthorityReportAcceptedData,
  type AuthorityReportRequestedData,
  type AuthorityReportState,
  type AuthorityReportValidatedData,
  type RecordedEvent,
  authorityReportDecider,
  authorityReportStreamId,
  foldEvents,
} from '@einvoice/domain';
import type { UnitOfWork } from '@einvoice/domain/infrastructure';

/** What a poll or a cancellation needs of a report: its request, the receipt so far, and its state. */
export interface ReportHistory {
  readonly request: AuthorityReportRequestedData;
  /** The submission's receipt, with what a validation added. */
  readonly receipt: Record<string, unknown>;
  readonly state: AuthorityReportState;
  /** The stream as read (its length is the version a command decided on it expects). */
  readonly history: readonly RecordedEvent[];
}

/** Reads a report's stream (current shapes: the store upcasts). */
export async function readReportHistory(uow: Pick<UnitOfWork, 'readStream'>, reportId: string): Promise<ReportHistory> {
  const events = (await uow.readStream(authorityReportStreamId(reportId))) as RecordedEvent[];
  const requested = events.find((e) => e.type === 'AuthorityReportRequested');
  if (!requested) throw new AppError('not_found', 'AUTHORITY.REPORT_UNKNOWN', `No authority report ${reportId}.`, { retriable: false });
  let receipt: Record<string, unknown> = {};
  for (const e of events) {
    if (e.type === 'AuthorityReportAccepted' || e.type === 'AuthorityReportValidated') {
      receipt = { ...receipt, ...(e.data as AuthorityReportAcceptedData | AuthorityReportValidatedData).receipt };
    }
  }
  return { request: requested.data as AuthorityReportRequestedData, receipt, state: foldEvents(authorityReportDecider, events as never), history: events };
}
