import { AppError, EventMetadata } from '@einvoice/domain';
import { type Answer, sendAnswer } from '../../http/answer';
import type { UnitOfWork } from '@einvoice/domain/infrastructure';
import { areaOf } from '@einvoice/areas';
import { recordResponse } from '../../idempotency/idempotency';
import type { Connections } from '../../infrastructure/infrastructure.module';
import { type RequestContext, eventMetadata } from '../../http/request-context';
import type { OutcomeWaiter } from '../../pipeline/outcome-waiter';

/** The status and body the controller sends (200 or 202). */
export type SubmissionAnswer = Answer;
export { sendAnswer };

/** What a state change carried out by the reporting worker at MyInvois (cancel, a buyer's rejection) needs. */
export interface StateChangeRequest<R> {
  /** The 202 body: stored as the Idempotency-Key answer (a replay polls GET), and sent when MyInvois is slow. */
  readonly pending: unknown;
  /** Appends the request's command (in the transaction of the stored answer). */
  readonly record: (uow: UnitOfWork, metadata: EventMetadata) => Promise<unknown>;
  /** The `documents` row the worker's answer lands in (its outcome is announced by the row's id). */
  readonly documentId: string;
  readonly read: () => Promise<R | undefined>;
  /** True while MyInvois has not answered. */
  readonly inFlight: (row: R) => boolean;
  /** The answer: the 200 body, or the refusal to throw (the one error shape). */
  readonly outcome: (row: R) => { readonly done: unknown } | { readonly refused: AppError };
}

/**
 * Records the request with its 202 answer in one transaction, then waits up to `waitMs` for the
 * reporting worker's answer, woken by its outcome notification (OutcomeWaiter, no polling): 200 with
 * the new state, the refusal (4xx, the authority's error), or 202 with where to poll.
 */
export async function requestStateChange<R>(
  connections: Connections,
  outcomes: OutcomeWaiter,
  context: RequestContext,
  waitMs: number,
  request: StateChangeRequest<R>,
): Promise<SubmissionAnswer> {
  const metadata = eventMetadata(context, areaOf('my').ruleSetId);
  await connections.store.transaction(async (uow) => {
    await recordResponse(uow, context.idempotency, 202, request.pending);
    await request.record(uow, metadata);
  });
  const after = await outcomes.waitFor(request.documentId, waitMs, request.read, (row) => !request.inFlight(row));
  if (!after || request.inFlight(after)) return { statusCode: 202, body: request.pending };
  const outcome = request.outcome(after);
  if ('refused' in outcome) throw outcome.refused;
  return { statusCode: 200, body: outcome.done };
}
