import { Logger, SmlChangeData, participantDecider, participantStreamId } from '@einvoice/domain';
import { EventHandler, EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import type { SmlConnector } from './sml-connector';

export interface SmlDependencies {
  readonly store: EventStore;
  readonly sml: SmlConnector;
  readonly groupId: string;
  readonly log: Logger;
}

/**
 * Drives the SML state of participants (DESIGN.md: the delivery-worker "drives SML activation
 * state"): on SmlActivationRequested / SmlDeactivationRequested it calls the SML, then records
 * SmlActivated / SmlDeactivated with the processed-event mark in one transaction. The SML call
 * is idempotent, so a worker killed after it and before the commit simply calls it again; a
 * request overtaken by a later one decides nothing (the decider).
 */
export function createSmlHandler(deps: SmlDependencies): EventHandler {
  return async (event) => {
    if (event.type !== 'SmlActivationRequested' && event.type !== 'SmlDeactivationRequested') return;
    const data = event.data as SmlChangeData;
    const activate = event.type === 'SmlActivationRequested';
    await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
      if (activate) await deps.sml.register(data.participantId);
      else await deps.sml.unregister(data.participantId);
      await handleCommand(
        uow,
        participantDecider,
        participantStreamId(data.participantId),
        { type: activate ? 'RecordSmlActivation' : 'RecordSmlDeactivation', data: { participantId: data.participantId, at: new Date().toISOString() } },
        { tenantId: event.metadata.tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId },
      );
    });
    deps.log('info', activate ? 'participant activated in the SML' : 'participant deactivated in the SML', { participantId: data.participantId });
  };
}
