import { AppError, type PollVerdict } from '@einvoice/domain';
import { type MessageContext, withTriedAdvisoryLock } from '@einvoice/domain/infrastructure';
import type { PollPolicy } from '@einvoice/areas';
import { type AuthorityReportingDependencies, REPORT_LOCK, connectorOf, pollPolicyOf, reportMetadata, reportOf } from './report-to-authority';
import { readReportHistory } from './report-history';
import { recordReport } from './record-report';

/**
 * Asks the authority for the verdict on a report it took for processing (`final: false`), with no
 * transaction open during the call, and records what it said: the verdict, or that there is none
 * yet and when to ask again (`next_poll_at`: see nextPollOf). One caller per report at
 * a time (the report lock); a poll that finds the verdict already recorded calls nothing.
 * Returns false when another worker holds the report right now.
 */
export async function pollReport(deps: AuthorityReportingDependencies, reportId: string, correlationId: string, ctx: Pick<MessageContext, 'heartbeat'>): Promise<boolean> {
  return withTriedAdvisoryLock(deps.store.dataSource, REPORT_LOCK, reportId, async () => {
    const { request, receipt, state, history } = await readReportHistory(deps.store, reportId);
    if (state.status !== 'processing') return;
    const connector = connectorOf(deps, request.area);
    if (!connector.poll) {
      throw new AppError('internal', 'AUTHORITY.NO_POLL', `Area ${request.area}'s connector answered "not final" but cannot poll.`, { retriable: false });
    }
    const outcome = await connector.poll(reportOf(request), receipt, { heartbeat: () => ctx.heartbeat() });
    const verdict: PollVerdict =
      outcome.kind === 'pending' ? { kind: 'pending' }
      : outcome.kind === 'rejected' ? { kind: 'rejected', error: outcome.error }
      : { kind: 'accepted', receipt: (outcome.receipt ?? {}) as Record<string, unknown> };
    const now = Date.now();
    const pollNo = state.polls + 1;
    const poll = { reportId, pollNo, verdict, polledAt: new Date(now).toISOString(), ...nextPollOf(pollPolicyOf(deps, request.area), pollNo, now) };
    // Decided on the stream as read before the call (the report lock keeps other pollers out; a request
    // appended meanwhile fails the expected version, and the next round polls again).
    await deps.store.transaction((uow) =>
      recordReport(uow, request, { type: 'RecordReportPoll', data: poll }, reportMetadata(request, undefined, correlationId), { history }),
    );
    deps.log('info', 'authority polled', { reportId, area: request.area, pollNo: poll.pollNo, verdict: verdict.kind });
  });
}

/**
 * When a report without a verdict after poll `pollNo` is asked about next, and the bound the decider
 * stops polling at: every `intervalMs` up to `maxPolls` polls; then, where the area polls slowly
 * (`slowIntervalMs`: MyInvois, whose validation can leave a document `Submitted` for long), every
 * `slowIntervalMs` with no last poll, else none (the decider records no next poll after `maxPolls`).
 */
export function nextPollOf(policy: PollPolicy, pollNo: number, now: number): { readonly maxPolls: number; readonly nextPollAt: string } {
  if (policy.slowIntervalMs === undefined) return { maxPolls: policy.maxPolls, nextPollAt: new Date(now + policy.intervalMs).toISOString() };
  const wait = pollNo < policy.maxPolls ? policy.intervalMs : policy.slowIntervalMs;
  return { maxPolls: Number.MAX_SAFE_INTEGER, nextPollAt: new Date(now + wait).toISOString() };
}
