import type { EventSchema } from '@einvoice/domain';

/**
 * MyInvoisDocumentsSubmitted, version 2: a document's Peppol leg is `peppol` in both of its forms.
 * Version 1 (events written before the copy waited for MyInvois's validation) named the copy sent at
 * submission `peppolDocumentId`; the upcaster turns it into `peppol: {documentId, sentAtSubmission: true}`.
 * Version-1 events written later already carry `peppol` and pass through unchanged.
 */
export const myInvoisDocumentsSubmittedSchema: EventSchema = {
  current: 2,
  upcasters: {
    1: (data) => ({
      ...data,
      documents: (data.documents as Array<Record<string, unknown>>).map(({ peppolDocumentId, ...document }) =>
        peppolDocumentId && !document.peppol ? { ...document, peppol: { documentId: peppolDocumentId, sentAtSubmission: true } } : document,
      ),
    }),
  },
};
