import type { DeliveryStatus, DocumentEvent } from './events';

/** What deciding needs to know of a document. */
export type DocumentState =
  | { readonly status: 'none' }
  | { readonly status: 'outgoing'; readonly delivery: DeliveryStatus }
  | { readonly status: 'incoming' };

export const initialDocumentState: DocumentState = { status: 'none' };

export function evolveDocument(state: DocumentState, event: DocumentEvent): DocumentState {
  switch (event.type) {
    case 'DocumentSubmitted':
      return { status: 'outgoing', delivery: 'Scheduled' };
    case 'DocumentDelivered':
      return state.status === 'outgoing' ? { status: 'outgoing', delivery: 'Delivered' } : state;
    case 'DocumentDeliveryFailed':
      return state.status === 'outgoing' ? { status: 'outgoing', delivery: 'Failed' } : state;
    case 'DocumentReceived':
      return { status: 'incoming' };
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}
