import { randomUUID } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import type { DataSource } from 'typeorm';
import { LockedPeriodicJob } from './locked-periodic-job';
import { MyInvoisReportingDependencies, pollOnce } from './report-myinvois';

/** One sweeper per stack at a time. */
const SWEEP_LOCK = 7312003;
/** Submissions polled per round at most (oldest first); the rest wait for the next round. */
const SWEEP_BATCH = 200;
/** Nothing to heartbeat outside a Kafka handler. */
const noHeartbeat = { heartbeat: async () => undefined };

export interface StalePollSweepOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** MYINVOIS_STALE_POLL_MS (default 300000). */
  readonly intervalMs: number;
  /** Accepted longer ago than this and still not validated: the chain of polls is over (maxPolls × poll interval + 1 min). */
  readonly staleAfterMs: number;
  readonly now?: () => number;
}

/** Submissions with documents MyInvois accepted before `before` and has not validated yet, oldest first. */
export async function staleSubmissions(dataSource: DataSource, before: Date, limit = SWEEP_BATCH): Promise<string[]> {
  const rows: { submission_id: string }[] = await dataSource.query(
    `SELECT submission_id FROM myinvois_documents
     WHERE state = 'submitted' AND created_at < $1
     GROUP BY submission_id ORDER BY min(created_at) LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.submission_id);
}

/**
 * After `maxPolls` polls at `MYINVOIS_POLL_MS` the chain of poll events stops; a document
 * MyInvois validates later (an authority backlog, an outage) would stay `submitted` for good.
 * Every `intervalMs` one worker (advisory lock) polls each such submission once more and records
 * what MyInvois says, the Peppol copy leaving with a validation as in the chain. A failure
 * (429, MyInvois down, a concurrent append) leaves that submission to the next round.
 */
export class StalePollSweep {
  private readonly job: LockedPeriodicJob;
  private readonly now: () => number;

  constructor(
    private readonly deps: MyInvoisReportingDependencies,
    private readonly options: StalePollSweepOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.job = new LockedPeriodicJob({ ...options, lockKey: SWEEP_LOCK, log: deps.log, description: 'MyInvois stale-poll sweep' }, (stopping) => this.sweep(stopping));
  }

  start(): void {
    this.job.start();
  }

  stop(): Promise<void> {
    return this.job.stop();
  }

  /** One round under the lock; false when another worker holds it. */
  sweepOnce(): Promise<boolean> {
    return this.job.runOnce();
  }

  private async sweep(stopping: () => boolean): Promise<void> {
    for (const submissionId of await staleSubmissions(this.options.dataSource, new Date(this.now() - this.options.staleAfterMs))) {
      if (stopping()) break;
      try {
        await pollOnce(this.deps, submissionId, (tenantId) => ({ tenantId, correlationId: randomUUID() }), noHeartbeat);
      } catch (error) {
        this.deps.log(error instanceof AppError && error.retriable ? 'info' : 'warn', 'MyInvois stale poll failed; next round retries', {
          submissionId,
          error: error instanceof AppError ? error.code : String(error),
        });
      }
    }
  }
}
