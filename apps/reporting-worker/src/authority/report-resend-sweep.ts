import { AppError, type RecordedEvent, authorityReportDecider, authorityReportStreamId, foldEvents } from '@einvoice/domain';
import { LockedPeriodicJob, withTriedAdvisoryLock } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import type { ReportPollSweepOptions } from './report-poll-sweep';
import { type AuthorityReportingDependencies, REPORT_LOCK, connectorOf, sendReport } from './report-to-authority';

/** One resend sweep per stack at a time (advisory lock class; namespaces: apps/gateway/src/participants/supplier-participants.ts). */
const SWEEP_LOCK = 7312015;
/** Reports read per look at most, the longest due first. */
const SWEEP_BATCH = 200;
/** Calls in flight at once (each holds a pool connection for its transactions), one per issuer. */
const CALLS_AT_ONCE = 8;
/** How long a report whose call failed otherwise than by a rate limit (authority down) waits before the next try. */
const RETRY_AFTER_FAILURE_MS = 5_000;

/** As the poll sweep's; `intervalMs` is AUTHORITY_RESEND_SWEEP_MS (default 1000). */
export interface ReportResendSweepOptions extends ReportPollSweepOptions {
  /** The areas whose reports it sends again: those the consumer sends one by one (the batch sweep resends its own). */
  readonly areas: readonly string[];
}

/** A report the authority turned away, due to be sent again. */
export interface DueResend {
  readonly reportId: string;
  readonly area: string;
  readonly supplierId: string;
}

/** What the resend sweep has to do: the reports due, the longest due first, and in how many ms the next one falls due. */
export interface ResendSchedule {
  readonly due: readonly DueResend[];
  /** Undefined when no other report waits. */
  readonly nextDueInMs?: number;
}

/**
 * Reports of `areas` the authority turned away, still unanswered, whose wait is over: their own
 * (`resend_at`, the turn-away plus the authority's Retry-After) and their issuer's call window (a later
 * 429 of another of its reports); the `limit` due first, and when the first of the others falls due.
 * One statement on documents_resend_due, read on every look of the sweep.
 */
export async function resendSchedule(dataSource: DataSource, areas: readonly string[], limit = SWEEP_BATCH): Promise<ResendSchedule> {
  const rows: Array<{ report_id: string | null; area: string | null; supplier_id: string | null; in_ms: number | null }> = await dataSource.query(
    `WITH waiting AS (
       SELECT d.report_id, d.area, d.supplier_id, greatest(d.resend_at, coalesce(w.next_call_at, '-infinity')) AS due_at
       FROM documents d
       LEFT JOIN authority_call_windows w ON w.area = d.area AND w.supplier_id = d.supplier_id
       WHERE d.report_state = 'pending' AND d.resend_at IS NOT NULL AND d.area = ANY($2::text[]))
     (SELECT report_id, area, supplier_id, NULL::float8 AS in_ms FROM waiting WHERE due_at <= now() ORDER BY due_at LIMIT $1)
     UNION ALL
     (SELECT NULL, NULL, NULL, extract(epoch FROM min(due_at) - now()) * 1000 FROM waiting WHERE due_at > now())`,
    [limit, areas],
  );
  const due = rows.filter((r) => r.report_id !== null).map((r) => ({ reportId: r.report_id as string, area: r.area as string, supplierId: r.supplier_id as string }));
  const next = rows.find((r) => r.report_id === null)?.in_ms;
  return { due, ...(next !== null && next !== undefined ? { nextDueInMs: Number(next) } : {}) };
}

/**
 * Sends one turned-away report again (sendReport: attempt, call, answer), under the report's lock; false
 * when another worker holds it. A report answered meanwhile is left alone; one whose last call is in
 * doubt (a crash mid-call) is asked for at the authority first, as the consumer would.
 */
export async function resendReport(deps: AuthorityReportingDependencies, reportId: string): Promise<'answered' | 'turned away' | 'answered before' | 'held elsewhere'> {
  let result: Awaited<ReturnType<typeof sendReport>> | undefined;
  const held = await withTriedAdvisoryLock(deps.store.dataSource, REPORT_LOCK, reportId, async () => {
    const history = await deps.store.readStream(authorityReportStreamId(reportId));
    const state = foldEvents(authorityReportDecider, history as never);
    const requested = history.find((e) => e.type === 'AuthorityReportRequested') as RecordedEvent | undefined;
    if (state.status !== 'requested' || !requested) {
      result = 'answered before';
      return;
    }
    const connector = connectorOf(deps, (requested.data as { area: string }).area);
    result = await sendReport(deps, connector, requested, { heartbeat: async () => undefined });
  });
  return held ? (result ?? 'answered before') : 'held elsewhere';
}

/**
 * Sends again the reports an authority turned away (429) once its wait is over (`resend_at`, the issuer's
 * call window), in one worker of the stack at a time; the consumer recorded them turned away and moved on
 * (report-to-authority.ts), so one area's rate limit never holds the consumer that serves every area. A
 * round goes on while it has calls in flight: CALLS_AT_ONCE at once, one per issuer (the authorities'
 * limits are the issuer's), each started as soon as a place frees up. A report turned away again gets
 * a later `resend_at` (its Retry-After); one whose call failed otherwise waits RETRY_AFTER_FAILURE_MS.
 * The sweep wakes itself when the next report falls due before the interval ends.
 */
export class ReportResendSweep extends LockedPeriodicJob {
  private readonly resumeAt = new Map<string, number>();

  constructor(
    private readonly deps: AuthorityReportingDependencies,
    private readonly options: ReportResendSweepOptions,
  ) {
    super({ ...options, lockKey: SWEEP_LOCK, log: deps.log, description: 'authority report resend sweep' });
  }

  /** Whether it has areas to serve (else it is not started). */
  get hasWork(): boolean {
    return this.options.areas.length > 0;
  }

  protected round(stopping: () => boolean): Promise<void> {
    // Issuers with a call in flight → the report sent.
    const inFlight = new Map<string, string>();
    return this.whileInFlight(stopping, async (start) => {
      if (inFlight.size >= CALLS_AT_ONCE) return;
      const { due, nextDueInMs } = await resendSchedule(this.options.dataSource, this.options.areas, SWEEP_BATCH + inFlight.size);
      if (nextDueInMs !== undefined) this.wakeIn(nextDueInMs);
      const sending = new Set(inFlight.values());
      for (const report of due) {
        if (inFlight.size >= CALLS_AT_ONCE) break;
        const issuer = `${report.area}:${report.supplierId}`;
        if (inFlight.has(issuer) || sending.has(report.reportId) || (this.resumeAt.get(report.reportId) ?? 0) > Date.now()) continue;
        inFlight.set(issuer, report.reportId);
        start(this.resend(report).finally(() => inFlight.delete(issuer)));
      }
    });
  }

  private async resend(report: DueResend): Promise<void> {
    try {
      const result = await resendReport(this.deps, report.reportId);
      this.resumeAt.delete(report.reportId);
      // Held by another worker (the consumer's redelivery), or answered although its row still says pending:
      // looked at again after a while, not at once (the round would find it due again and again).
      if (result === 'held elsewhere' || result === 'answered before') this.resumeAt.set(report.reportId, Date.now() + RETRY_AFTER_FAILURE_MS);
    } catch (error) {
      this.resumeAt.set(report.reportId, Date.now() + RETRY_AFTER_FAILURE_MS);
      this.deps.log('warn', 'turned-away report not sent again; tried again later', { reportId: report.reportId, area: report.area, error: error instanceof AppError ? error.code : String(error) });
    }
  }
}
