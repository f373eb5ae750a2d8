import { AppError, type PollVerdict, type RecordReportPoll, type RecordedEvent } from '@einvoice/domain';
import { type MessageContext, type UnitOfWork, eachConcurrently, withTriedAdvisoryLocks } from '@einvoice/domain/infrastructure';
import type { PollPolicy } from '@einvoice/areas';
import { type AuthorityReportingDependencies, REPORT_LOCK, connectorOf, pollPolicyOf, reportMetadata, reportOf } from './report-to-authority';
import { type ReportHistory, readReportHistories, reportHistories } from './report-history';
import { recordReport } from './record-report';

/** Polls of one authority call in flight at once within pollReports (each an HTTP call of its area's connector). */
const CALLS_AT_ONCE = 8;

/**
 * Asks the authority for the verdict on a report it took for processing (`final: false`), with no
 * transaction open during the call, and records what it said: the verdict, or that there is none
 * yet and when to ask again (`next_poll_at`: see nextPollOf). One caller per report at
 * a time (the report lock); a poll that finds the verdict already recorded calls nothing.
 * Returns false when another worker holds the report right now; a failed call throws.
 */
export async function pollReport(deps: AuthorityReportingDependencies, reportId: string, correlationId: string, ctx: Pick<MessageContext, 'heartbeat'>): Promise<boolean> {
  const { held, failures } = await pollReports(deps, [reportId], correlationId, ctx);
  const failure = failures.get(reportId);
  if (failure !== undefined) throw failure;
  return held.length === 1;
}

/** What pollReports did: the reports it held (and so polled, or found answered), and the error of each it could not poll or record. */
export interface PollResult {
  readonly held: readonly string[];
  readonly failures: ReadonlyMap<string, unknown>;
}

/**
 * pollReport for many reports at once, so a hundred due polls cost a few statements and one commit,
 * not a hundred of each: their locks tried in one statement (those other workers hold are left out),
 * their streams read in one query, their calls CALLS_AT_ONCE at a time with no transaction open, and
 * every answer recorded in one transaction. If that transaction fails (a report's stream moved
 * meanwhile), each answer is recorded in its own, so one report's conflict costs the others nothing.
 * `streams`: the reports' streams as the caller just committed them (the batch sweep's first poll),
 * not read again; a stream moved on since fails its record as above, and the report is polled when due.
 */
export async function pollReports(
  deps: AuthorityReportingDependencies,
  reportIds: readonly string[],
  correlationId: string,
  ctx: Pick<MessageContext, 'heartbeat'>,
  streams?: ReadonlyMap<string, readonly RecordedEvent[]>,
): Promise<PollResult> {
  const failures = new Map<string, unknown>();
  const held = await withTriedAdvisoryLocks(deps.store.dataSource, REPORT_LOCK, reportIds, async (locked) => {
    const polls: Array<{ readonly history: ReportHistory; readonly data: RecordReportPoll['data'] }> = [];
    const known = streams ? reportHistories(locked, (reportId) => streams.get(reportId) ?? []) : await readReportHistories(deps.store, locked);
    const histories = [...known.entries()];
    await eachConcurrently(histories, CALLS_AT_ONCE, async ([reportId, history]) => {
      if (history instanceof Error) return void failures.set(reportId, history);
      if (history.state.status !== 'processing') return;
      try {
        polls.push({ history, data: await pollOnce(deps, reportId, history, ctx) });
      } catch (error) {
        failures.set(reportId, error);
      }
    });
    // Decided on the streams as read before the calls (the report locks keep other pollers out; a request
    // appended meanwhile fails the expected version, and the next round polls that report again).
    const record = (uow: UnitOfWork, { history, data }: (typeof polls)[number]) =>
      recordReport(uow, history.request, { type: 'RecordReportPoll', data }, reportMetadata(history.request, undefined, correlationId), { history: history.history });
    try {
      if (polls.length) await deps.store.transaction(async (uow) => { for (const poll of polls) await record(uow, poll); });
    } catch {
      for (const poll of polls) await deps.store.transaction((uow) => record(uow, poll)).catch((error: unknown) => failures.set(poll.data.reportId, error));
    }
    for (const { history, data } of polls) {
      if (!failures.has(data.reportId)) deps.log('info', 'authority polled', { reportId: data.reportId, area: history.request.area, pollNo: data.pollNo, verdict: data.verdict.kind });
    }
  });
  return { held, failures };
}

/** One report's call: the authority's verdict as the poll to record. */
async function pollOnce(deps: AuthorityReportingDependencies, reportId: string, { request, receipt, state }: ReportHistory, ctx: Pick<MessageContext, 'heartbeat'>): Promise<RecordReportPoll['data']> {
  if (state.status !== 'processing') throw new Error(`report ${reportId} is not processing`);
  const connector = connectorOf(deps, request.area);
  if (!connector.poll) {
    throw new AppError('internal', 'AUTHORITY.NO_POLL', `Area ${request.area}'s connector answered "not final" but cannot poll.`, { retriable: false });
  }
  const outcome = await connector.poll(reportOf(request), receipt, { heartbeat: () => ctx.heartbeat() });
  const verdict: PollVerdict =
    outcome.kind === 'pending' ? { kind: 'pending' }
    : outcome.kind === 'rejected' ? { kind: 'rejected', error: outcome.error, ...(outcome.receipt ? { receipt: outcome.receipt as Record<string, unknown> } : {}) }
    : { kind: 'accepted', receipt: (outcome.receipt ?? {}) as Record<string, unknown> };
  const now = Date.now();
  const pollNo = state.polls + 1;
  return { reportId, pollNo, verdict, polledAt: new Date(now).toISOString(), ...nextPollOf(pollPolicyOf(deps, request.area), pollNo, now) };
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
