import type { ProjectionContext } from '../../plugin';

/**
 * The wake-up of the account events' readers (the webhook dispatcher's tail, #48): announced after the commit of a
 * unit of work that wrote a `documents` row the `account_events` trigger may have recorded a step of. Not a NOTIFY
 * inside the transaction (migration 1732200002010 says why); a writer that bypasses the projections is found by the
 * tail's periodic look.
 */
export const ACCOUNT_EVENTS_CHANNEL = 'account_events';

/** After a write to `documents` that can record an account event (an insert, a delivery or report state, the authority). */
export function announceAccountEvents(db: Pick<ProjectionContext, 'announce'>): void {
  db.announce(ACCOUNT_EVENTS_CHANNEL, '');
}
