import { AppError, type Logger, type PeppolTransmissionRequestedData, type RecordedEvent, peppolTransmissionDecider, peppolTransmissionStreamId } from '@einvoice/domain';
import { type EventHandler, type EventStore, SpanKind, handleCommand, inSpan, transactionOnce } from '@einvoice/domain/infrastructure';
import type { As4Engine } from '@einvoice/areas';

export interface TransmissionDependencies {
  readonly store: EventStore;
  readonly engine: Pick<As4Engine, 'send'>;
  readonly groupId: string;
  readonly log: Logger;
}

/**
 * Sends the access point's own Peppol messages (an MLS back to the sender of a received document, #46)
 * through the AS4 engine, as a document is delivered (deliver-document.ts): the call with no transaction
 * open, then its outcome and the processed mark in one; a redelivered event calls nothing again, and a
 * call repeated after a crash carries the same AS4 MessageId (fixed when it was requested), which the
 * receiving access point de-duplicates. A retriable error goes back to the consumer (retries, then the
 * dead-letter topic); a final refusal is recorded.
 */
export function createTransmissionHandler(deps: TransmissionDependencies): EventHandler {
  return async (event) => {
    if (event.type !== 'PeppolTransmissionRequested') return;
    if (await deps.store.wasProcessed(deps.groupId, event.eventId)) return;
    const t = event.data as PeppolTransmissionRequestedData;
    let outcome: { readonly sent: Awaited<ReturnType<As4Engine['send']>> } | { readonly failure: AppError };
    try {
      const sent = await inSpan('peppol send', { kind: SpanKind.CLIENT, attributes: { 'einvoice.peppol.receiver': t.receiverParticipantId, 'einvoice.peppol.message_id': t.messageId } }, () =>
        deps.engine.send({
          messageId: t.messageId,
          instanceIdentifier: t.instanceIdentifier,
          senderParticipantId: t.senderParticipantId,
          receiverParticipantId: t.receiverParticipantId,
          documentTypeId: t.documentTypeId,
          processId: t.processId,
          countryC1: t.countryC1,
          payload: t.payload,
        }));
      outcome = { sent };
    } catch (error) {
      if (!(error instanceof AppError) || error.retriable) throw error;
      outcome = { failure: error };
    }
    const recorded = await transactionOnce(deps.store, deps.groupId, event.eventId, (uow) =>
      handleCommand(uow, peppolTransmissionDecider, peppolTransmissionStreamId(t.transmissionId), commandOf(t, outcome), metadataOf(event)),
    );
    if (!recorded) return;
    if ('failure' in outcome) deps.log('warn', 'peppol message not sent', { transmissionId: t.transmissionId, purpose: t.purpose, code: outcome.failure.code });
    else deps.log('info', 'peppol message sent', { transmissionId: t.transmissionId, purpose: t.purpose, messageId: t.messageId });
  };
}

function commandOf(t: PeppolTransmissionRequestedData, outcome: { readonly sent: Awaited<ReturnType<As4Engine['send']>> } | { readonly failure: AppError }) {
  const at = new Date().toISOString();
  return 'sent' in outcome
    ? { type: 'RecordPeppolTransmissionSent' as const, data: { transmissionId: t.transmissionId, messageId: t.messageId, receipt: outcome.sent.receipt, sentAt: at } }
    : { type: 'RecordPeppolTransmissionFailure' as const, data: { transmissionId: t.transmissionId, reason: { code: outcome.failure.code, message: outcome.failure.message }, failedAt: at } };
}

const metadataOf = (event: RecordedEvent) => ({ tenantId: event.metadata.tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId });
