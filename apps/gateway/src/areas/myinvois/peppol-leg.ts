import { randomUUID } from 'node:crypto';
import type { MyInvoisPeppolCopy } from '@einvoice/domain';
import type { myinvois } from '@einvoice/areas';

/**
 * The PINT MY copy of one prepared document (`transport_mode: peppol`), kept in
 * `MyInvoisDocumentsSubmitted` with a reserved document id: the reporting worker appends its
 * `DocumentSubmitted` only when MyInvois says the document is Valid (release-peppol-copies.ts).
 * Undefined when the document has no Peppol leg (no header, consolidated, a generic TIN).
 */
export function peppolCopyOf(prepared: myinvois.PreparedPeppolSubmission['documents'][number]): MyInvoisPeppolCopy | undefined {
  const { document, peppol } = prepared;
  if (!peppol) return undefined;
  return {
    documentId: randomUUID(),
    documentType: peppol.documentType,
    senderParticipantId: peppol.sender,
    receiverParticipantId: peppol.receiver,
    xml: peppol.xml,
    // The caller's fields as get-document shows them (plain JSON: no class instances in an event).
    fields: JSON.parse(JSON.stringify(document.body)) as Record<string, unknown>,
  };
}
