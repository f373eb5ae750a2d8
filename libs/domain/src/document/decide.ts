import { AppError, conflict } from '../errors';
import { evolveDocument, initialDocumentState } from './evolve';
import type { DocumentCommand } from './commands';
import { type DeliveryFailureReason, type DocumentEvent, type MessageLevelStatus, as4MessageId } from './events';
import type { DocumentState } from './evolve';

/** Why a document failed when the receiving access point answered MLS `RE`: its reason code and description. */
export function rejectionOf(mls: MessageLevelStatus): DeliveryFailureReason {
  const reason = mls.reasonCode ? ` (${mls.reasonCode})` : '';
  return { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: mls.description ?? `The receiving access point rejected the message (MLS RE${reason}).` };
}

const notOutgoing = (what: string) => new AppError('conflict', 'DOCUMENT.NOT_OUTGOING', `Only a submitted document can ${what}.`, { retriable: false });

/**
 * Pure decider of the document aggregate. Delivery and reception are idempotent: a command
 * repeated by an at-least-once consumer decides nothing new. A failed delivery may still be
 * delivered later (a replay from the dead-letter topic). Live Peppol (#46) answers in two steps: the
 * AS4 receipt (`Sent`), then the Message Level Status (`Delivered`, or `Failed` on RE); the MLS may
 * overtake the receipt's record (it travels back while the delivery worker commits), so each step
 * decides from what is already in, never from the order they come in.
 */
export function decideDocument(command: DocumentCommand, state: DocumentState): DocumentEvent[] {
  switch (command.type) {
    case 'SubmitDocument':
      if (state.status !== 'none') throw conflict('DOCUMENT.ALREADY_EXISTS', 'The document already exists.');
      return [{ type: 'DocumentSubmitted', data: command.data }];
    case 'RecordDelivery':
      if (state.status !== 'outgoing') throw notOutgoing('be delivered');
      return state.delivery === 'Delivered' ? [] : [{ type: 'DocumentDelivered', data: command.data }];
    case 'RecordDeliveryFailure':
      if (state.status !== 'outgoing') throw notOutgoing('fail to be delivered');
      // Once delivered, a late failure report (a dead-lettered retry of a delivered document) changes
      // nothing; once sent, only the receiving access point's MLS decides (RecordMessageLevelStatus).
      return state.delivery === 'Scheduled' ? [{ type: 'DocumentDeliveryFailed', data: command.data }] : [];
    case 'RecordTransmission':
      if (state.status !== 'outgoing') throw notOutgoing('be sent');
      // A receipt recorded after the MLS it led to (which overtook it), or a second one: nothing new.
      // After a failure without an MLS (dead-lettered), a replay that got through is sent.
      return state.answered || state.delivery === 'Sent' || state.delivery === 'Delivered' ? [] : [{ type: 'DocumentSent', data: command.data }];
    case 'RecordMessageLevelStatus': {
      if (state.status !== 'outgoing') throw notOutgoing('have a Message Level Status');
      // One MLS per document (MLS 1.0: C3 sends at most one); a second, or one for a document delivered
      // here (no MLS travels), changes nothing.
      if (state.answered || state.delivery === 'Delivered') return [];
      const { documentId, mls, recordedAt } = command.data;
      const { receiverParticipantId } = state;
      if (mls.responseCode === 'RE') {
        return [{ type: 'DocumentDeliveryFailed', data: { documentId, receiverParticipantId, reason: rejectionOf(mls), mls, failedAt: recordedAt } }];
      }
      // A document with no receiver never left (DOCUMENT.NO_RECEIVER): an MLS names one that did.
      return [{ type: 'DocumentDelivered', data: { documentId, receiverParticipantId: receiverParticipantId ?? '', channel: 'remote', messageId: as4MessageId(documentId), mls, deliveredAt: recordedAt } }];
    }
    case 'ReceiveDocument':
      return state.status === 'none' ? [{ type: 'DocumentReceived', data: command.data }] : [];
    default: {
      const unknown: never = command;
      return unknown;
    }
  }
}

export const documentDecider = {
  decide: decideDocument,
  evolve: evolveDocument,
  initialState: initialDocumentState,
};
