import type { RecordedEvent } from '../../events';
import type { DocumentDeliveredData, DocumentDeliveryFailedData, DocumentReceivedData, DocumentSentData, PeppolExchangeFacts } from '../../document';
import type { ProjectionContext } from '../../plugin';

/**
 * `peppol_transmissions` (#46, Peppol Reporting): one row per exchange, from the facts its outcome event
 * states (`peppol`), in the transaction of the append; nothing else is written for it. Idempotent on
 * replay (ON CONFLICT DO NOTHING, keyed by the document): a document is exchanged once, whatever
 * repeats. The reports decide which rows count (libs/areas/src/peppol-reporting/transmissions.ts).
 */
const INSERT = `INSERT INTO peppol_transmissions (document_id, direction, exchanged_at, message_id, document_type_id, process_id,
    transport_profile, other_access_point, sender_participant_id, receiver_participant_id, country_c1, country_c4, end_user_id)`;

/**
 * What a document's own side sent (DocumentSent: live Peppol's AS4 receipt; DocumentDelivered: the
 * sandbox's answer, a hand-over), or what crossed the network before the receiver refused it
 * (DocumentDeliveryFailed with an MLS `RE`: the transport succeeded). Its end user, the
 * supplier, from the document's row (an earlier transaction's: statements of one unit see no rows of
 * each other).
 */
export async function projectOutgoingTransmission(uow: ProjectionContext, event: RecordedEvent): Promise<void> {
  const d = event.data as DocumentDeliveredData | DocumentDeliveryFailedData | DocumentSentData;
  if (!d.peppol) return;
  const exchangedAt = 'deliveredAt' in d ? d.deliveredAt : 'sentAt' in d ? d.sentAt : d.failedAt;
  const messageId = 'messageId' in d ? d.messageId : '';
  await uow.write(
    `${INSERT} VALUES ($1, 'outgoing', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, (SELECT supplier_id FROM documents WHERE id = $1))
     ON CONFLICT (document_id) DO NOTHING`,
    [d.documentId, exchangedAt, messageId, ...factColumns(d.peppol)],
    { row: `peppol_transmissions/${d.documentId}` },
  );
}

/** A document received for a participant hosted here: its end user is the receiving supplier. */
export async function projectIncomingTransmission(uow: ProjectionContext, event: RecordedEvent): Promise<void> {
  const d = event.data as DocumentReceivedData;
  if (!d.peppol) return;
  await uow.write(
    `${INSERT} VALUES ($1, 'incoming', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (document_id) DO NOTHING`,
    [d.documentId, d.receivedAt, d.messageId, ...factColumns(d.peppol), d.supplierId],
    { row: `peppol_transmissions/${d.documentId}` },
  );
}

function factColumns(f: PeppolExchangeFacts): unknown[] {
  return [f.documentTypeId, f.processId, f.transport?.profile ?? null, f.transport?.otherAccessPoint ?? null, f.senderParticipantId, f.receiverParticipantId, f.countryC1, f.countryC4 ?? null];
}
