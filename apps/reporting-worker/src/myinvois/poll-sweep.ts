import { randomUUID } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import { LockedPeriodicJob, type MessageContext } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { MyInvoisReportingDependencies, pollDue } from './report-myinvois';

/** One poll sweep per stack at a time (advisory lock class). */
const POLL_LOCK = 7312010;
/** Submissions polled per round at most, the longest due first. */
const POLL_BATCH = 100;
/** The sweep is not a Kafka handler: nothing to heartbeat. */
const sweepContext: MessageContext = { topic: 'poll-sweep', partition: -1, offset: '-1', attempt: 1, headers: {}, heartbeat: async () => undefined };

export interface PollSweepOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** MYINVOIS_POLL_SWEEP_MS (default 500): how often due submissions are looked for. */
  readonly intervalMs: number;
}

/**
 * Submissions with a document still `submitted` whose next poll is due, in turns per supplier (each
 * supplier's longest waiting first, then each one's second...): a supplier with hundreds due never
 * keeps another's poll waiting behind them.
 */
export async function dueSubmissions(dataSource: DataSource, limit = POLL_BATCH): Promise<string[]> {
  const rows: Array<{ submission_id: string }> = await dataSource.query(
    `SELECT submission_id FROM (
       SELECT submission_id, min(next_poll_at) AS due,
              row_number() OVER (PARTITION BY supplier_id ORDER BY min(next_poll_at)) AS turn
       FROM myinvois_documents WHERE state = 'submitted' AND next_poll_at <= now()
       GROUP BY submission_id, supplier_id) due
     ORDER BY turn, due LIMIT $1`,
    [limit],
  );
  return rows.map((r) => r.submission_id);
}

/**
 * Polls Get Submission for submissions whose `next_poll_at` has come (the projection sets it when
 * MyInvois accepts documents and after every poll; null once `MYINVOIS_MAX_POLLS` polls were made),
 * in one worker of the stack at a time. A submission whose poll failed (429, MyInvois down) waits one
 * poll interval, or its Retry-After, before the next try; the others go on.
 */
export class PollSweep extends LockedPeriodicJob {
  private readonly resumeAt = new Map<string, number>();

  constructor(
    private readonly deps: MyInvoisReportingDependencies,
    private readonly options: PollSweepOptions,
  ) {
    super({ ...options, lockKey: POLL_LOCK, log: deps.log, description: 'MyInvois poll sweep' });
  }

  protected async round(stopping: () => boolean): Promise<void> {
    for (const submissionId of await dueSubmissions(this.options.dataSource)) {
      if (stopping()) return;
      if ((this.resumeAt.get(submissionId) ?? 0) > Date.now()) continue;
      try {
        await pollDue(this.deps, submissionId, (tenantId) => ({ tenantId, correlationId: randomUUID() }), sweepContext);
        this.resumeAt.delete(submissionId);
      } catch (error) {
        const retryAfterMs = error instanceof AppError && error.kind === 'rate_limited' ? Number(error.details.retryAfterMs ?? 0) : 0;
        this.resumeAt.set(submissionId, Date.now() + Math.max(retryAfterMs, this.deps.pollIntervalMs));
        this.deps.log('info', 'MyInvois poll failed; the submission is polled again later', {
          submissionId,
          error: error instanceof AppError ? error.code : String(error),
        });
      }
    }
  }
}
