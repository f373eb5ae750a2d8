import { randomUUID } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import { LockedPeriodicJob, eachConcurrently } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { pollReports } from './poll-report';
import { type AuthorityReportingDependencies, pollPolicyOf } from './report-to-authority';

/** One report poll sweep per stack at a time (advisory lock class). */
const SWEEP_LOCK = 7312011;
/** Reports polled per round at most, the longest due first. */
const SWEEP_BATCH = 400;
/** Reports polled together (pollReports: their calls, then one transaction for their answers). */
const POLL_GROUP = 100;
/** Groups in flight at once (each holds a pool connection for its transaction). */
const GROUPS_AT_ONCE = 4;

export interface ReportPollSweepOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** AUTHORITY_POLL_SWEEP_MS (default 500): how often due reports are looked for. */
  readonly intervalMs: number;
}

/** Reports taken for processing whose next poll has come, the longest waiting first. */
export async function dueReports(dataSource: DataSource, limit = SWEEP_BATCH): Promise<Array<{ reportId: string; area: string }>> {
  const rows: Array<{ report_id: string; area: string }> = await dataSource.query(
    `SELECT report_id, area FROM documents WHERE report_state = 'processing' AND next_poll_at <= now() ORDER BY next_poll_at LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ reportId: r.report_id, area: r.area }));
}

/**
 * Polls the authority for the verdict on reports whose `next_poll_at` has come (documents read
 * model: set when the authority answers "not final" and after every poll; null after the area's last
 * allowed poll), in one worker of the stack at a time. A report whose poll failed (429, authority
 * down) waits one poll interval, or its Retry-After, before the next try; the others go on.
 */
export class ReportPollSweep extends LockedPeriodicJob {
  private readonly resumeAt = new Map<string, number>();

  constructor(
    private readonly deps: AuthorityReportingDependencies,
    private readonly options: ReportPollSweepOptions,
  ) {
    super({ ...options, lockKey: SWEEP_LOCK, log: deps.log, description: 'authority report poll sweep' });
  }

  protected async round(stopping: () => boolean): Promise<void> {
    // Reports are independent: polled in groups of POLL_GROUP (one commit for a group's answers),
    // GROUPS_AT_ONCE at a time, so a round's polls wait on the authority and on their commits together.
    const due = await dueReports(this.options.dataSource);
    const ready = due.filter(({ reportId }) => (this.resumeAt.get(reportId) ?? 0) <= Date.now());
    const groups: Array<typeof ready> = [];
    for (let i = 0; i < ready.length; i += POLL_GROUP) groups.push(ready.slice(i, i + POLL_GROUP));
    await eachConcurrently(groups, GROUPS_AT_ONCE, async (group) => {
      if (stopping()) return;
      const areaOf = new Map(group.map((r) => [r.reportId, r.area]));
      let failures: ReadonlyMap<string, unknown>;
      try {
        ({ failures } = await pollReports(this.deps, [...areaOf.keys()], randomUUID(), { heartbeat: async () => undefined }));
      } catch (error) {
        // The locks or the streams could not be read (database away): the whole group waits.
        failures = new Map([...areaOf.keys()].map((reportId) => [reportId, error]));
      }
      for (const reportId of areaOf.keys()) if (!failures.has(reportId)) this.resumeAt.delete(reportId);
      for (const [reportId, error] of failures) {
        const area = areaOf.get(reportId) as string;
        const retryAfterMs = error instanceof AppError && error.kind === 'rate_limited' ? Number(error.details.retryAfterMs ?? 0) : 0;
        this.resumeAt.set(reportId, Date.now() + Math.max(retryAfterMs, pollPolicyOf(this.deps, area).intervalMs));
        this.deps.log('info', 'authority poll failed; the report is polled again later', { reportId, area, error: error instanceof AppError ? error.code : String(error) });
      }
    });
    // A full round may have left due reports behind: the next round follows at once.
    if (due.length >= SWEEP_BATCH && ready.length > 0) this.wake();
  }
}
