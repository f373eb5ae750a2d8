import { AppError, type AuthorityReportCancellationRequestedData, authorityReportDecider, authorityReportStreamId } from '@einvoice/domain';
import { type EventHandler, handleCommand, withTriedAdvisoryLock } from '@einvoice/domain/infrastructure';
import { type AuthorityReportingDependencies, REPORT_LOCK, connectorOf, reportMetadata, reportOf } from './report-to-authority';
import { readReportHistory } from './report-history';

/**
 * Sends an issuer's cancellation (`AuthorityReportCancellationRequested`) to the authority, with no
 * transaction open during the call, then records its answer with the processed mark. A redelivery
 * after a crash that lost the answer asks again (connectors answer "cancelled" for a document the
 * authority already cancelled); one that finds the answer recorded calls nothing.
 */
export function createCancellationHandler(deps: AuthorityReportingDependencies): EventHandler {
  return async (event, ctx) => {
    if (event.type !== 'AuthorityReportCancellationRequested') return;
    const { reportId, reason } = event.data as AuthorityReportCancellationRequestedData;
    const sent = await withTriedAdvisoryLock(deps.store.dataSource, REPORT_LOCK, reportId, async () => {
      const { request, receipt, state } = await readReportHistory(deps.store, reportId);
      const streamId = authorityReportStreamId(reportId);
      if (state.status !== 'accepted' || !state.cancelling) {
        await deps.store.transaction((uow) => uow.markProcessed(deps.groupId, event.eventId));
        return;
      }
      const connector = connectorOf(deps, request.area);
      const answer = connector.cancel
        ? await connector.cancel(reportOf(request), receipt, reason, { heartbeat: () => ctx.heartbeat() })
        : ({ kind: 'refused', error: { code: 'AUTHORITY.NO_CANCELLATION', message: `The ${request.area} authority does not cancel documents.` } } as const);
      const refused = answer.kind === 'refused' ? { code: answer.error.code, message: answer.error.message, ...(answer.error.path ? { path: answer.error.path } : {}) } : undefined;
      await deps.store.transaction(async (uow) => {
        if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
        await handleCommand(uow, authorityReportDecider, streamId, { type: 'RecordCancellationAnswer', data: { reportId, refused, at: new Date().toISOString() } }, reportMetadata(request, event));
      });
      deps.log('info', 'authority answered a cancellation', { reportId, area: request.area, answer: answer.kind });
    });
    if (!sent) throw new AppError('unavailable', 'AUTHORITY.REPORT_IN_FLIGHT', 'Another worker is calling the authority about this report right now.', { retriable: true });
  };
}
