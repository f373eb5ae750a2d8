import type { DocumentReceivedData } from '../document/events';

/**
 * The webhook body of a received document, exactly as seed 002 "Events" shows it, in its field
 * order: `uuid` is the received document (the receiver's copy), `DocumentId` the document's `ID`.
 */
export function documentReceivedBody(data: Pick<DocumentReceivedData, 'documentId' | 'documentNumber'>): string {
  return JSON.stringify({
    Event: 'DocumentReceived',
    EventType: 'PeppolReceived',
    EventGroup: 'Invoice',
    uuid: data.documentId,
    DocumentId: data.documentNumber,
    Status: 'Delivered',
  });
}

/** The body of a test ping (POST .../webhooks/{id}/ping): same envelope, no document. */
export function pingBody(subscriptionId: string, sentAt: string): string {
  return JSON.stringify({ Event: 'Ping', EventType: 'WebhookPing', EventGroup: 'Webhook', uuid: subscriptionId, SentAt: sentAt });
}
