import { type DocumentSubmittedData, type Logger, documentDecider, documentStreamId } from '@einvoice/domain';
import { type EventHandler, type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import type { IHeaders } from 'kafkajs';

export interface DeadLetteredDeliveryDependencies {
  readonly store: EventStore;
  /** The group consuming the dead-letter topic (`<prefix>.delivery-worker.dead-letter`): its own processed ledger. */
  readonly groupId: string;
  /** The delivery worker's main group: only its dead letters are deliveries that failed. */
  readonly deliveryGroupId: string;
  readonly log: Logger;
}

function header(headers: IHeaders, name: string): string | undefined {
  const value = headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : first.toString();
}

/**
 * A delivery the consumer gave up on (retries exhausted: the receiver's access point kept failing)
 * lands on the dead-letter topic; this records it on the document as DocumentDeliveryFailed with the
 * last error, so delivery-status and get-document show `Failed` and why, instead of `Scheduled` for
 * good. The dead-letter topic holds every worker's failures: only the delivery worker's count here.
 * A replay of the event later may still deliver it (the decider allows it).
 */
export function createDeadLetteredDeliveryHandler(deps: DeadLetteredDeliveryDependencies): EventHandler {
  return async (event, ctx) => {
    if (event.type !== 'DocumentSubmitted' || header(ctx.headers, 'x-consumer-group') !== deps.deliveryGroupId) return;
    const document = event.data as DocumentSubmittedData;
    if (document.transportMode !== 'peppol') return;
    const attempts = Number(header(ctx.headers, 'x-attempts') ?? 0);
    const code = header(ctx.headers, 'x-error-code') ?? 'DELIVERY.DEAD_LETTERED';
    const message = `Not delivered after ${attempts} attempt(s): ${header(ctx.headers, 'x-error-message') ?? 'unknown error'}`;
    await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
      await handleCommand(uow, documentDecider, documentStreamId(document.documentId), {
        type: 'RecordDeliveryFailure',
        data: { documentId: document.documentId, receiverParticipantId: document.receiverParticipantId, reason: { code, message }, attempts, failedAt: new Date().toISOString() },
      }, { tenantId: document.tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId, ruleSetId: event.metadata.ruleSetId });
    });
    deps.log('warn', 'dead-lettered delivery recorded as failed', { documentId: document.documentId, code, attempts });
  };
}
