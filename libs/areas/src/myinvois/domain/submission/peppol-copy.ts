import type { DocumentSubmittedData } from '@einvoice/domain';
import type { MyInvoisDocumentValidatedData, MyInvoisDocumentsSubmittedData, SubmissionError } from './events';

/**
 * The `DocumentSubmitted` (area `my`, transportMode `peppol`, the PINT MY XML) of a document
 * MyInvois has just validated, or undefined when it has no Peppol copy (no `transport_mode:
 * peppol`, consolidated, a generic TIN) or when its copy left at submission already (schema 1).
 * Its `submittedAt` is the validation time: that is when the copy is handed to the Peppol leg.
 */
export function peppolDocumentOf(submitted: MyInvoisDocumentsSubmittedData, validated: MyInvoisDocumentValidatedData): DocumentSubmittedData | undefined {
  const document = submitted.documents.find((d) => d.documentId === validated.documentId);
  const copy = document?.peppol;
  if (!document || !copy || 'sentAtSubmission' in copy) return undefined;
  return {
    documentId: copy.documentId,
    tenantId: submitted.tenantId,
    supplierId: submitted.supplierId,
    area: 'my',
    documentNumber: document.invoiceCodeNumber,
    documentType: copy.documentType,
    transportMode: 'peppol',
    senderParticipantId: copy.senderParticipantId,
    receiverParticipantId: copy.receiverParticipantId,
    fields: { ...copy.fields, kind: submitted.kind, myinvoisDocumentId: document.documentId },
    xml: copy.xml,
    submittedAt: validated.validatedAt,
  };
}

/**
 * Why a Peppol copy never leaves (`peppol.reason` in GET /api/einvoice/documents/{id}). Codes are
 * the service's own: MyInvois decides legal validity, the copy only follows it.
 */
export const PEPPOL_WITHHELD = {
  invalid: (reason: string): SubmissionError => ({ code: 'PEPPOL.WITHHELD_INVALID', message: `MyInvois found the document invalid (${reason}); its Peppol copy is not sent.` }),
  rejected: (error: SubmissionError): SubmissionError => ({
    code: 'PEPPOL.WITHHELD_REJECTED',
    message: `MyInvois rejected the document (${error.code}: ${error.message}); its Peppol copy is not sent.`,
  }),
  idAlreadySent: (id: string): SubmissionError => ({
    code: 'PEPPOL.WITHHELD_ID_ALREADY_SENT',
    message: `A document with ID ${id} of this supplier already went over Peppol (Peppol document IDs are unique per supplier); this copy is not sent.`,
  }),
} as const;
