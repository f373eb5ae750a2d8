import { AppError, type AuthorityReportAmendmentRequestedData, authorityReportDecider, authorityReportStreamId } from '@einvoice/domain';
import { type EventHandler, handleCommand, withTriedAdvisoryLock } from '@einvoice/domain/infrastructure';
import { type AuthorityReportingDependencies, REPORT_LOCK, connectorOf, reportMetadata, reportOf } from './report-to-authority';
import { readReportHistory } from './report-history';

/**
 * Sends an issuer's amendment of an accepted document (`AuthorityReportAmendmentRequested`: Nigeria's
 * payment status) to the authority, with no transaction open during the call, then records its answer
 * with the processed mark. Amendments set a value, so a redelivery after a crash that lost the answer
 * simply sends it again; one that finds the answer recorded calls nothing.
 */
export function createAmendmentHandler(deps: AuthorityReportingDependencies): EventHandler {
  return async (event, ctx) => {
    if (event.type !== 'AuthorityReportAmendmentRequested') return;
    const { reportId, amendmentId, change } = event.data as AuthorityReportAmendmentRequestedData;
    const sent = await withTriedAdvisoryLock(deps.store.dataSource, REPORT_LOCK, reportId, async () => {
      const { request, receipt, state } = await readReportHistory(deps.store, reportId);
      if (state.status !== 'accepted' || state.amending?.amendmentId !== amendmentId) {
        await deps.store.transaction((uow) => uow.markProcessed(deps.groupId, event.eventId));
        return;
      }
      const connector = connectorOf(deps, request.area);
      const answer = connector.amend
        ? await connector.amend(reportOf(request), receipt, change, { heartbeat: () => ctx.heartbeat() })
        : ({ kind: 'refused', error: { code: 'AUTHORITY.NO_AMENDMENT', message: `The ${request.area} authority does not amend documents.` } } as const);
      const refused = answer.kind === 'refused' ? { code: answer.error.code, message: answer.error.message, ...(answer.error.path ? { path: answer.error.path } : {}) } : undefined;
      await deps.store.transaction(async (uow) => {
        if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
        await handleCommand(uow, authorityReportDecider, authorityReportStreamId(reportId), { type: 'RecordAmendmentAnswer', data: { reportId, amendmentId, refused, at: new Date().toISOString() } }, reportMetadata(request, event));
      });
      deps.log('info', 'authority answered an amendment', { reportId, area: request.area, answer: answer.kind });
    });
    if (!sent) throw new AppError('unavailable', 'AUTHORITY.REPORT_IN_FLIGHT', 'Another worker is calling the authority about this report right now.', { retriable: true });
  };
}
