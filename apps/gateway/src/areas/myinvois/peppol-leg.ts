import { randomUUID } from 'node:crypto';
import type { MyInvoisPeppolCopy, SubmittedMyInvoisDocument } from '@einvoice/areas';
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

/**
 * One prepared document as `MyInvoisDocumentsSubmitted` carries it: a fresh documentId, the exact
 * text submitted with its hash, and its PINT MY copy when it has a Peppol leg.
 */
export function submittedDocumentOf(prepared: myinvois.PreparedPeppolSubmission['documents'][number]): SubmittedMyInvoisDocument {
  const peppol = peppolCopyOf(prepared);
  return {
    documentId: randomUUID(),
    invoiceCodeNumber: prepared.submission.codeNumber,
    format: prepared.submission.format,
    document: String(prepared.submission.document),
    documentHash: prepared.submission.documentHash,
    ...(peppol ? { peppol } : {}),
  };
}
