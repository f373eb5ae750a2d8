import { randomUUID } from 'node:crypto';
import { AppError, retryAfterMsOf } from '@einvoice/domain';
import { LockedPeriodicJob } from '@einvoice/domain/infrastructure';
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

/** What the poll sweep has to do: the reports due, the longest waiting first, and in how many ms the next one falls due. */
export interface PollSchedule {
  readonly due: ReadonlyArray<{ readonly reportId: string; readonly area: string }>;
  /** Undefined when no report waits for a later poll. */
  readonly nextDueInMs?: number;
}

/**
 * Reports taken for processing whose poll has come, the `limit` longest waiting first, and when the
 * first of the others falls due: one statement (both parts on documents_poll_due), read on every look
 * of the sweep.
 */
export async function pollSchedule(dataSource: DataSource, limit = SWEEP_BATCH): Promise<PollSchedule> {
  const rows: Array<{ report_id: string | null; area: string | null; in_ms: number | null }> = await dataSource.query(
    `(SELECT report_id, area, NULL::float8 AS in_ms FROM documents
      WHERE report_state = 'processing' AND next_poll_at <= now() ORDER BY next_poll_at LIMIT $1)
     UNION ALL
     (SELECT NULL, NULL, extract(epoch FROM min(next_poll_at) - now()) * 1000 FROM documents
      WHERE report_state = 'processing' AND next_poll_at > now())`,
    [limit],
  );
  const due = rows.filter((r) => r.report_id !== null).map((r) => ({ reportId: r.report_id as string, area: r.area as string }));
  const next = rows.find((r) => r.report_id === null)?.in_ms;
  return { due, ...(next !== null && next !== undefined ? { nextDueInMs: Number(next) } : {}) };
}

/** The reports due (pollSchedule). */
export async function dueReports(dataSource: DataSource, limit = SWEEP_BATCH): Promise<ReadonlyArray<{ reportId: string; area: string }>> {
  return (await pollSchedule(dataSource, limit)).due;
}

/**
 * Polls the authority for the verdict on reports whose `next_poll_at` has come (documents read
 * model: set when the authority answers "not final" and after every poll; null after the area's last
 * allowed poll), in one worker of the stack at a time. A round goes on while it has groups in flight:
 * a group of due reports is started as soon as one of the GROUPS_AT_ONCE places is free, not once the
 * round's earlier groups are all recorded (issue 11: under the MyInvois bulk load a document waited
 * 1–4 s for its first poll although it was due at once). `wake()` (a batch the authority took for
 * processing) looks for due reports at once, during a round too. A report whose poll failed (429,
 * authority down) waits one poll interval, or its Retry-After, before the next try; the others go on.
 * A report whose poll falls due before the next round is polled then (LockedPeriodicJob.wakeIn).
 */
export class ReportPollSweep extends LockedPeriodicJob {
  private readonly resumeAt = new Map<string, number>();

  constructor(
    private readonly deps: AuthorityReportingDependencies,
    private readonly options: ReportPollSweepOptions,
  ) {
    super({ ...options, lockKey: SWEEP_LOCK, log: deps.log, description: 'authority report poll sweep' });
  }

  protected round(stopping: () => boolean): Promise<void> {
    const inFlight = new Set<string>();
    // Reports another worker held (its poll in flight): not taken again this round.
    const elsewhere = new Set<string>();
    let groups = 0;
    return this.whileInFlight(stopping, async (start) => {
      if (groups >= GROUPS_AT_ONCE) return;
      const { due, nextDueInMs } = await pollSchedule(this.options.dataSource, SWEEP_BATCH + inFlight.size + elsewhere.size);
      // The next poll is made when it falls due, not at the next interval (a MyInvois document waited up
      // to AUTHORITY_POLL_SWEEP_MS more for each of its polls).
      if (nextDueInMs !== undefined) this.wakeIn(nextDueInMs);
      const ready = due.filter(({ reportId }) => !inFlight.has(reportId) && !elsewhere.has(reportId) && (this.resumeAt.get(reportId) ?? 0) <= Date.now());
      for (let i = 0; i < ready.length && groups < GROUPS_AT_ONCE; i += POLL_GROUP) {
        const group = ready.slice(i, i + POLL_GROUP);
        for (const { reportId } of group) inFlight.add(reportId);
        groups += 1;
        start(
          this.pollGroup(group, elsewhere).finally(() => {
            for (const { reportId } of group) inFlight.delete(reportId);
            groups -= 1;
          }),
        );
      }
    });
  }

  /** One group: polled together (pollReports: their calls, then one transaction for their answers). */
  private async pollGroup(group: ReadonlyArray<{ reportId: string; area: string }>, elsewhere: Set<string>): Promise<void> {
    const areaOf = new Map(group.map((r) => [r.reportId, r.area]));
    let failures: ReadonlyMap<string, unknown>;
    let held: readonly string[] = [...areaOf.keys()];
    try {
      ({ held, failures } = await pollReports(this.deps, [...areaOf.keys()], randomUUID(), { heartbeat: async () => undefined }));
    } catch (error) {
      // The locks or the streams could not be read (database away): the whole group waits.
      failures = new Map([...areaOf.keys()].map((reportId) => [reportId, error]));
    }
    const heldHere = new Set(held);
    for (const reportId of areaOf.keys()) {
      if (!heldHere.has(reportId)) elsewhere.add(reportId);
      else if (!failures.has(reportId)) this.resumeAt.delete(reportId);
    }
    for (const [reportId, error] of failures) {
      const area = areaOf.get(reportId) as string;
      const retryAfterMs = retryAfterMsOf(error) ?? 0;
      this.resumeAt.set(reportId, Date.now() + Math.max(retryAfterMs, pollPolicyOf(this.deps, area).intervalMs));
      this.deps.log('info', 'authority poll failed; the report is polled again later', { reportId, area, error: error instanceof AppError ? error.code : String(error) });
    }
  }
}
