import { AppError, EventMetadata } from '@einvoice/domain';
import { type Answer, sendAnswer } from '../../http/answer';
import type { UnitOfWork } from '@einvoice/domain/infrastructure';
import { areaOf } from '@einvoice/areas';
import { recordResponse } from '../../idempotency/idempotency';
import type { Connections } from '../../infrastructure/infrastructure.module';
import { type RequestContext, eventMetadata } from '../../http/request-context';

/** The status and body the controller sends (200 or 202). */
export type SubmissionAnswer = Answer;
export { sendAnswer };

/** Polls `read` until `done` holds for every row, or `waitMs` (MYINVOIS_WAIT_MS) passes. */
export async function waitForRows<R>(read: () => Promise<R[]>, done: (row: R) => boolean, waitMs: number): Promise<R[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const rows = await read();
    if (rows.every(done) || Date.now() >= deadline) return rows;
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))));
  }
}

/** What a state change carried out by the reporting worker at MyInvois (cancel, a buyer's rejection) needs. */
export interface StateChangeRequest<R> {
  /** The 202 body: stored as the Idempotency-Key answer (a replay polls GET), and sent when MyInvois is slow. */
  readonly pending: unknown;
  /** Appends the request's command (in the transaction of the stored answer). */
  readonly record: (uow: UnitOfWork, metadata: EventMetadata) => Promise<unknown>;
  /** The read model row the worker's answer lands in. */
  readonly read: () => Promise<R | undefined>;
  /** True while MyInvois has not answered. */
  readonly inFlight: (row: R) => boolean;
  /** The answer: the 200 body, or the refusal to throw (the one error shape). */
  readonly outcome: (row: R) => { readonly done: unknown } | { readonly refused: AppError };
}

/**
 * Records the request with its 202 answer in one transaction, then waits up to `waitMs` for
 * the reporting worker's answer: 200 with the new state, the refusal (4xx, the authority's error),
 * or 202 with where to poll.
 */
export async function requestStateChange<R>(connections: Connections, context: RequestContext, waitMs: number, request: StateChangeRequest<R>): Promise<SubmissionAnswer> {
  const metadata = eventMetadata(context, areaOf('my').ruleSetId);
  await connections.store.transaction(async (uow) => {
    await recordResponse(uow, context.idempotency, 202, request.pending);
    await request.record(uow, metadata);
  });
  const [after] = await waitForRows(async () => {
    const row = await request.read();
    return row ? [row] : [];
  }, (row) => !request.inFlight(row), waitMs);
  if (!after || request.inFlight(after)) return { statusCode: 202, body: request.pending };
  const outcome = request.outcome(after);
  if ('refused' in outcome) throw outcome.refused;
  return { statusCode: 200, body: outcome.done };
}
