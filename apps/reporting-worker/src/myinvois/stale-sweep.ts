import { randomUUID } from 'node:crypto';
import { AppError, RecordedEvent } from '@einvoice/domain';
import { myInvoisRejectionStreamId, myInvoisSubmissionStreamId } from '@einvoice/areas';
import type { EventHandler, MessageContext } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';
import { LockedPeriodicJob } from '@einvoice/domain/infrastructure';
import { MyInvoisReportingDependencies, pollOnce } from './report-myinvois';

/** One sweeper per stack at a time. */
const SWEEP_LOCK = 7312003;
/** Submissions handled per round and kind at most (oldest first); the rest wait for the next round. */
const SWEEP_BATCH = 200;
/** Read per round and kind, so that items set aside (below) do not fill the batch. */
const SWEEP_WINDOW = 1_000;
/** An item that failed for good (e.g. credentials gone) is set aside this long, not retried every round. */
const SET_ASIDE_MS = 3_600_000;
/** The sweep is not a Kafka handler: nothing to heartbeat, no partition. */
const sweepContext: MessageContext = { topic: 'stale-sweep', partition: -1, offset: '-1', attempt: 1, headers: {}, heartbeat: async () => undefined };

export interface StaleSweepOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** MYINVOIS_STALE_POLL_MS (default 300000). */
  readonly intervalMs: number;
  /** Accepted by MyInvois longer ago than this and still not validated: the chain of polls is over (maxPolls × poll interval + 1 min). */
  readonly staleAfterMs: number;
  /** Submitted to us longer ago than this and still unanswered by MyInvois (MYINVOIS_STALE_SUBMIT_MS, default 600000). */
  readonly unansweredAfterMs: number;
  /** The worker's MyInvois handler: an unanswered submission's event is handled again by it. */
  readonly handler: EventHandler;
  /** The worker's buyer-rejection handler: a rejection request left unanswered is handled again by it. */
  readonly rejectionHandler: EventHandler;
  readonly now?: () => number;
}

/**
 * Submissions with documents in `state` since before `before`, oldest first: `updated_at` is when
 * the document reached it (created `pending`; `submitted` when MyInvois accepted it). A submission
 * turned away with a 429 (`next_submit_at`) is the submit sweep's, not this one's.
 */
export async function waitingSubmissions(dataSource: DataSource, state: 'pending' | 'submitted', before: Date, limit = SWEEP_BATCH): Promise<string[]> {
  const rows: { submission_id: string }[] = await dataSource.query(
    `SELECT submission_id FROM myinvois_documents
     WHERE state = $1 AND updated_at < $2 AND next_submit_at IS NULL
     GROUP BY submission_id ORDER BY min(updated_at) LIMIT $3`,
    [state, before, limit],
  );
  return rows.map((r) => r.submission_id);
}

/** Buyers' rejection requests MyInvois has not answered since before `before`, oldest first. */
export async function waitingRejections(dataSource: DataSource, before: Date, limit = SWEEP_BATCH): Promise<string[]> {
  const rows: { id: string }[] = await dataSource.query(
    `SELECT id FROM myinvois_rejections WHERE state = 'requested' AND requested_at < $1 ORDER BY requested_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * Nothing waits for good. Every `intervalMs` one worker (advisory lock):
 * - hands the submission event of documents still `pending` after `unansweredAfterMs` (its Kafka
 *   delivery dead-lettered, e.g. MyInvois rate-limited beyond the retries) to the handler again:
 *   the attempt marker and Get Recent Documents make a second submission of a document impossible;
 * - hands a buyer's rejection request still unanswered after `unansweredAfterMs` to its handler
 *   again (the processed mark keeps one answer per request);
 * - polls once more each submission whose documents are still `submitted` after `staleAfterMs`
 *   (the chain of `maxPolls` polls stopped; MyInvois validates late during a backlog or an outage),
 *   the Peppol copy leaving with a validation as in the chain.
 * A retriable failure (429, MyInvois down, a concurrent append) leaves the item to the next round; a
 * final one (e.g. the supplier's credentials are gone) sets it aside for an hour, so that a pile of
 * such items never keeps the sweep from the others.
 */
export class StaleSweep extends LockedPeriodicJob {
  private readonly now: () => number;
  /** Items that failed for good, by id: not tried again before then. */
  private readonly setAside = new Map<string, number>();

  constructor(
    private readonly deps: MyInvoisReportingDependencies,
    private readonly options: StaleSweepOptions,
  ) {
    super({ ...options, lockKey: SWEEP_LOCK, log: deps.log, description: 'MyInvois stale sweep' });
    this.now = options.now ?? Date.now;
  }

  protected async round(stopping: () => boolean): Promise<void> {
    const { dataSource, unansweredAfterMs, staleAfterMs } = this.options;
    for (const submissionId of this.due(await waitingSubmissions(dataSource, 'pending', new Date(this.now() - unansweredAfterMs), SWEEP_WINDOW))) {
      if (stopping()) return;
      await this.attempt(submissionId, 'submit', async () => {
        const [submitted] = (await this.deps.store.transaction((uow) => uow.readStream(myInvoisSubmissionStreamId(submissionId)))) as RecordedEvent[];
        if (submitted?.type === 'MyInvoisDocumentsSubmitted') await this.options.handler(submitted, sweepContext);
      });
    }
    for (const rejectionId of this.due(await waitingRejections(dataSource, new Date(this.now() - unansweredAfterMs), SWEEP_WINDOW))) {
      if (stopping()) return;
      await this.attempt(rejectionId, 'rejection', async () => {
        const history = (await this.deps.store.transaction((uow) => uow.readStream(myInvoisRejectionStreamId(rejectionId)))) as RecordedEvent[];
        // The latest request: after a refusal the buyer may ask again on the same stream.
        const request = history.filter((e) => e.type === 'MyInvoisBuyerRejectionRequested').at(-1);
        if (request) await this.options.rejectionHandler(request, sweepContext);
      });
    }
    for (const submissionId of this.due(await waitingSubmissions(dataSource, 'submitted', new Date(this.now() - staleAfterMs), SWEEP_WINDOW))) {
      if (stopping()) return;
      await this.attempt(submissionId, 'poll', () => pollOnce(this.deps, submissionId, (tenantId) => ({ tenantId, correlationId: randomUUID() }), sweepContext));
    }
  }

  /** The first SWEEP_BATCH of `ids` not set aside. */
  private due(ids: readonly string[]): string[] {
    const now = this.now();
    return ids.filter((id) => (this.setAside.get(id) ?? 0) <= now).slice(0, SWEEP_BATCH);
  }

  private async attempt(id: string, what: 'submit' | 'rejection' | 'poll', run: () => Promise<void>): Promise<void> {
    try {
      await run();
      this.setAside.delete(id);
    } catch (error) {
      // Only a final AppError sets the item aside; anything unexpected is tried again next round.
      const retriable = !(error instanceof AppError) || error.retriable;
      if (!retriable) this.setAside.set(id, this.now() + SET_ASIDE_MS);
      this.deps.log(retriable ? 'info' : 'warn', `MyInvois stale ${what} failed; ${retriable ? 'next round retries' : 'set aside for an hour'}`, {
        id,
        error: error instanceof AppError ? error.code : String(error),
      });
    }
  }
}
