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
import type { EventStore, UnitOfWork } from '@einvoice/domain/infrastructure';

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
  return reportHistoryOf(reportId, (await uow.readStream(authorityReportStreamId(reportId))) as RecordedEvent[]);
}

/** Reads several reports' streams in one query (EventStore.readStreams): each report's history, or the error of one with no request. */
export async function readReportHistories(store: Pick<EventStore, 'readStreams'>, reportIds: readonly string[]): Promise<Map<string, ReportHistory | AppError>> {
  const streams = await store.readStreams(reportIds.map(authorityReportStreamId));
  return reportHistories(reportIds, (reportId) => streams.get(authorityReportStreamId(reportId)) ?? []);
}

/** Each report's history from its stream's events (`streamOf`), or the error of one with no request. */
export function reportHistories(reportIds: readonly string[], streamOf: (reportId: string) => readonly RecordedEvent[]): Map<string, ReportHistory | AppError> {
  const histories = new Map<string, ReportHistory | AppError>();
  for (const reportId of reportIds) {
    try {
      histories.set(reportId, reportHistoryOf(reportId, streamOf(reportId)));
    } catch (error) {
      histories.set(reportId, error as AppError);
    }
  }
  return histories;
}

/** A report's history from its stream's events. */
function reportHistoryOf(reportId: string, events: readonly RecordedEvent[]): ReportHistory {
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
