import type { DeliveryStatus, DocumentEvent } from './events';

/**
 * What deciding needs to know of a document. An outgoing one: its delivery status, its receiver (an
 * MLS's outcome names it), and whether the receiving access point's Message Level Status is in
 * (`answered`): after that, a late AS4 receipt changes nothing.
 */
export type DocumentState =
  | { readonly status: 'none' }
  | { readonly status: 'outgoing'; readonly delivery: DeliveryStatus; readonly receiverParticipantId: string | null; readonly answered: boolean }
  | { readonly status: 'incoming' };

export const initialDocumentState: DocumentState = { status: 'none' };

export function evolveDocument(state: DocumentState, event: DocumentEvent): DocumentState {
  switch (event.type) {
    case 'DocumentSubmitted':
      return { status: 'outgoing', delivery: 'Scheduled', receiverParticipantId: event.data.receiverParticipantId, answered: false };
    case 'DocumentSent':
      return state.status === 'outgoing' ? { ...state, delivery: 'Sent' } : state;
    case 'DocumentDelivered':
      return state.status === 'outgoing' ? { ...state, delivery: 'Delivered', answered: true } : state;
    case 'DocumentDeliveryFailed':
      return state.status === 'outgoing' ? { ...state, delivery: 'Failed', answered: state.answered || event.data.mls !== undefined } : state;
    case 'DocumentReceived':
      return { status: 'incoming' };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
