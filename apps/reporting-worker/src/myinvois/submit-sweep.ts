import { AppError, type RecordedEvent } from '@einvoice/domain';
import { type MyInvoisDocumentsSubmittedData, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { LockedPeriodicJob } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { type Heartbeat, type MyInvoisReportingDependencies, metadataOf, submit } from './report-myinvois';

/** One submit sweep per stack at a time (advisory lock class). */
const SUBMIT_SWEEP_LOCK = 7312013;
/** Submissions tried per round at most. */
const SUBMIT_BATCH = 100;
const noHeartbeat: Heartbeat = { heartbeat: async () => undefined };

export interface SubmitSweepOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** MYINVOIS_SUBMIT_SWEEP_MS (default 500): how often deferred submissions are looked for. */
  readonly intervalMs: number;
}

/**
 * Deferred submissions now due, taken in turns: every supplier's oldest first, then every supplier's
 * second... so that a supplier with hundreds waiting never keeps another's single one waiting
 * behind them (MyInvois's limits are per client id, and a supplier has one).
 */
export async function dueDeferredSubmissions(dataSource: DataSource, limit = SUBMIT_BATCH): Promise<Array<{ submissionId: string; supplierId: string }>> {
  const rows: Array<{ submission_id: string; supplier_id: string }> = await dataSource.query(
    `SELECT submission_id, supplier_id FROM (
       SELECT submission_id, supplier_id, min(next_submit_at) AS due,
              row_number() OVER (PARTITION BY supplier_id ORDER BY min(next_submit_at)) AS turn
       FROM myinvois_documents WHERE state = 'pending' AND next_submit_at <= now()
       GROUP BY submission_id, supplier_id) due
     ORDER BY turn, due LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({ submissionId: r.submission_id, supplierId: r.supplier_id }));
}

/**
 * The per-client-id scheduler of MyInvois submissions (#9 fair sharing). A Kafka handler never
 * waits out a 429: it records MyInvoisSubmissionDeferred and lets its partition go on to other
 * tenants' submissions. This sweep tries deferred submissions again when due, in turns per
 * supplier; a supplier turned away again sits out the rest of the round (its client id has no slot
 * left), the others go on.
 */
export class SubmitSweep extends LockedPeriodicJob {
  constructor(
    private readonly deps: MyInvoisReportingDependencies,
    private readonly options: SubmitSweepOptions,
  ) {
    super({ ...options, lockKey: SUBMIT_SWEEP_LOCK, log: deps.log, description: 'MyInvois submit sweep' });
  }

  protected async round(stopping: () => boolean): Promise<void> {
    const outOfSlots = new Set<string>();
    for (const { submissionId, supplierId } of await dueDeferredSubmissions(this.options.dataSource)) {
      if (stopping()) return;
      if (outOfSlots.has(supplierId)) continue;
      try {
        const history = await this.deps.store.readStream(myInvoisSubmissionStreamId(submissionId));
        const submitted = history.find((e) => e.type === 'MyInvoisDocumentsSubmitted') as (RecordedEvent & { data: MyInvoisDocumentsSubmittedData }) | undefined;
        if (!submitted) continue;
        const outcome = await submit(this.deps, submitted.data, noHeartbeat, {
          metadata: (tenantId) => metadataOf(submitted, tenantId),
          // No delivery to claim: the decider records one answer, the submit lock keeps others out.
          claim: async () => true,
        });
        if (outcome === 'deferred') outOfSlots.add(supplierId);
      } catch (error) {
        // Left due: tried again next round (a submission in flight elsewhere, MyInvois unavailable).
        this.deps.log('info', 'MyInvois deferred submission not submitted this round', {
          submissionId,
          error: error instanceof AppError ? error.code : String(error),
        });
      }
    }
  }
}
