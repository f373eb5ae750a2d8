import { AppError, type Logger } from '@einvoice/domain';
import { myInvoisRejectionStreamId } from '@einvoice/areas';
import { type EventHandler, type EventStore, LockedPeriodicJob, type MessageContext } from '@einvoice/domain/infrastructure';
import type { DataSource } from 'typeorm';

/** One retrier per stack at a time (was the MyInvois stale sweep's lock class). */
const RETRY_LOCK = 7312003;
/** Requests handled per round at most (oldest first); the rest wait for the next round. */
const RETRY_BATCH = 200;
/** Read per round, so that requests set aside (below) do not fill the batch. */
const RETRY_WINDOW = 1_000;
/** A request that failed for good (e.g. credentials gone) is set aside this long, not retried every round. */
const SET_ASIDE_MS = 3_600_000;
/** Not a Kafka handler: nothing to heartbeat, no partition. */
const retryContext: MessageContext = { topic: 'rejection-retry', partition: -1, offset: '-1', attempt: 1, headers: {}, heartbeat: async () => undefined };

export interface RejectionRetryOptions {
  readonly dataSource: DataSource;
  readonly store: EventStore;
  readonly log: Logger;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** MYINVOIS_STALE_POLL_MS (default 300000). */
  readonly intervalMs: number;
  /** Requested longer ago than this and still unanswered by MyInvois (MYINVOIS_STALE_SUBMIT_MS, default 600000). */
  readonly unansweredAfterMs: number;
  /** The worker's buyer-rejection handler: a request left unanswered is handled again by it. */
  readonly handler: EventHandler;
  readonly now?: () => number;
}

/** Buyers' rejection requests MyInvois has not answered since before `before`, oldest first. */
export async function waitingRejections(dataSource: DataSource, before: Date, limit = RETRY_BATCH): Promise<string[]> {
  const rows: { id: string }[] = await dataSource.query(
    `SELECT id FROM myinvois_rejections WHERE state = 'requested' AND requested_at < $1 ORDER BY requested_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}

/**
 * No buyer's rejection request waits for good: every `intervalMs` one worker (advisory lock) hands a
 * request still unanswered after `unansweredAfterMs` (its Kafka delivery dead-lettered, e.g. MyInvois
 * rate-limited beyond the retries) to its handler again; the processed mark keeps one answer per
 * request. A retriable failure leaves it to the next round; a final one sets it aside for an hour.
 * (Documents a supplier issues need no such job: the reporting pipeline's sweeps find them in the
 * `documents` read model, not in Kafka.)
 */
export class RejectionRetry extends LockedPeriodicJob {
  private readonly now: () => number;
  private readonly setAside = new Map<string, number>();

  constructor(private readonly options: RejectionRetryOptions) {
    super({ ...options, lockKey: RETRY_LOCK, log: options.log, description: 'MyInvois buyer rejection retry' });
    this.now = options.now ?? Date.now;
  }

  protected async round(stopping: () => boolean): Promise<void> {
    const { dataSource, store, unansweredAfterMs } = this.options;
    const now = this.now();
    const due = (await waitingRejections(dataSource, new Date(now - unansweredAfterMs), RETRY_WINDOW)).filter((id) => (this.setAside.get(id) ?? 0) <= now).slice(0, RETRY_BATCH);
    for (const rejectionId of due) {
      if (stopping()) return;
      try {
        const history = await store.readStream(myInvoisRejectionStreamId(rejectionId));
        // The latest request: after a refusal the buyer may ask again on the same stream.
        const request = history.filter((e) => e.type === 'MyInvoisBuyerRejectionRequested').at(-1);
        if (request) await this.options.handler(request, retryContext);
        this.setAside.delete(rejectionId);
      } catch (error) {
        const retriable = !(error instanceof AppError) || error.retriable;
        if (!retriable) this.setAside.set(rejectionId, this.now() + SET_ASIDE_MS);
        this.options.log(retriable ? 'info' : 'warn', `MyInvois buyer rejection retry failed; ${retriable ? 'next round retries' : 'set aside for an hour'}`, {
          rejectionId,
          error: error instanceof AppError ? error.code : String(error),
        });
      }
    }
  }
}
