// Event data for integration tests of the document aggregate.
import { randomUUID } from 'node:crypto';
import type { DocumentSubmittedData } from '@einvoice/domain';

/** A submitted Belgian invoice with fresh ids (unique document number and participants). */
export function documentSubmitted(overrides: Partial<DocumentSubmittedData> = {}): DocumentSubmittedData {
  const documentId = randomUUID();
  return {
    documentId,
    tenantId: randomUUID(),
    supplierId: randomUUID(),
    area: 'be',
    documentNumber: `INV-${documentId.slice(0, 8)}`,
    documentType: '380',
    transportMode: 'peppol',
    senderParticipantId: `iso6523-actorid-upis::9925:sender-${documentId}`,
    receiverParticipantId: `iso6523-actorid-upis::9925:receiver-${documentId}`,
    fields: { ID: 'x' },
    xml: '<Invoice/>',
    submittedAt: new Date().toISOString(),
    ...overrides,
  };
}
