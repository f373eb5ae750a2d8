import { AppError, conflict } from '../errors';
import { evolveDocument, initialDocumentState } from './evolve';
import type { DocumentCommand } from './commands';
import type { DocumentEvent } from './events';
import type { DocumentState } from './evolve';

/**
 * Pure decider of the document aggregate. Delivery and reception are idempotent: a command
 * repeated by an at-least-once consumer decides nothing new. A failed delivery may still be
 * delivered later (a replay from the dead-letter topic).
 */
export function decideDocument(command: DocumentCommand, state: DocumentState): DocumentEvent[] {
  switch (command.type) {
    case 'SubmitDocument':
      if (state.status !== 'none') throw conflict('DOCUMENT.ALREADY_EXISTS', 'The document already exists.');
      return [{ type: 'DocumentSubmitted', data: command.data }];
    case 'RecordDelivery':
      if (state.status !== 'outgoing') {
        throw new AppError('conflict', 'DOCUMENT.NOT_OUTGOING', 'Only a submitted document can be delivered.', {
          retriable: false,
        });
      }
      return state.delivery === 'Delivered' ? [] : [{ type: 'DocumentDelivered', data: command.data }];
    case 'RecordDeliveryFailure':
      if (state.status !== 'outgoing') {
        throw new AppError('conflict', 'DOCUMENT.NOT_OUTGOING', 'Only a submitted document can fail to be delivered.', { retriable: false });
      }
      // Once delivered, a late failure report (a dead-lettered retry of a delivered document) changes nothing.
      return state.delivery === 'Scheduled' ? [{ type: 'DocumentDeliveryFailed', data: command.data }] : [];
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
