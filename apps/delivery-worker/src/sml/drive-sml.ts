import { Logger, SmlChangeData, participantDecider, participantStreamId } from '@einvoice/domain';
import { EventHandler, EventStore, handleCommand, transactionOnce } from '@einvoice/domain/infrastructure';
import type { SmlConnector } from '@einvoice/areas';

export interface SmlDependencies {
  readonly store: EventStore;
  readonly sml: SmlConnector;
  readonly groupId: string;
  readonly log: Logger;
}

/**
 * Drives the SML state of participants (DESIGN.md: the delivery-worker "drives SML activation
 * state"): on SmlActivationRequested / SmlDeactivationRequested it calls the SML with no transaction
 * open, then records SmlActivated / SmlDeactivated with the processed-event mark in one unit of work.
 * A request already handled calls nothing again; the SML call is idempotent, so a worker killed after
 * it and before the commit simply calls it again; a request overtaken by a later one decides nothing
 * (the decider). The call once ran inside the transaction, after the mark: the handler held a pooled
 * connection for the call's length, and the sandbox SML's own statement then waited for a second one
 * of the same pool, so as many requests at once as the pool has connections waited on each other
 * for ever (issue 11).
 */
export function createSmlHandler(deps: SmlDependencies): EventHandler {
  return async (event) => {
    if (event.type !== 'SmlActivationRequested' && event.type !== 'SmlDeactivationRequested') return;
    const data = event.data as SmlChangeData;
    const activate = event.type === 'SmlActivationRequested';
    if (await deps.store.wasProcessed(deps.groupId, event.eventId)) return;
    if (activate) await deps.sml.register(data.participantId);
    else await deps.sml.unregister(data.participantId);
    const recorded = await transactionOnce(deps.store, deps.groupId, event.eventId, (uow) =>
      handleCommand(
        uow,
        participantDecider,
        participantStreamId(data.participantId),
        { type: activate ? 'RecordSmlActivation' : 'RecordSmlDeactivation', data: { participantId: data.participantId, at: new Date().toISOString() } },
        { tenantId: event.metadata.tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId },
      ),
    );
    // Another handling of the same event (a rebalance) recorded it first: done.
    if (!recorded) return;
    deps.log('info', activate ? 'participant activated in the SML' : 'participant deactivated in the SML', { participantId: data.participantId });
  };
}
