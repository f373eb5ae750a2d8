import type { DataSource } from 'typeorm';
import type { DocumentSubmittedData, MyInvoisDocumentsSubmittedData } from '@einvoice/domain';
import type { myinvois } from '@einvoice/areas';

/**
 * IDs of this request the supplier already sent over Peppol (an earlier, since rejected, invalid
 * or cancelled MyInvois document): Peppol document IDs are unique per supplier
 * (`documents_supplier_number_key`), so the corrected resubmission goes to MyInvois only.
 */
export async function idsSentOverPeppol(dataSource: DataSource, supplierId: string, prepared: myinvois.PreparedPeppolSubmission): Promise<Set<string>> {
  const ids = prepared.documents.filter((d) => d.peppol).map((d) => d.document.body.ID);
  if (!ids.length) return new Set();
  const rows: Array<{ document_number: string }> = await dataSource.query(
    `SELECT document_number FROM documents WHERE supplier_id = $1 AND direction = 'outgoing' AND document_number = ANY($2)`,
    [supplierId, ids],
  );
  return new Set(rows.map((r) => r.document_number));
}

/**
 * The `DocumentSubmitted` (area `my`, transportMode `peppol`, the PINT MY XML) of each document
 * that got a `peppolDocumentId`; the delivery worker delivers it as any Peppol document.
 */
export function peppolDocumentsOf(data: MyInvoisDocumentsSubmittedData, prepared: myinvois.PreparedPeppolSubmission): DocumentSubmittedData[] {
  return data.documents.flatMap((doc, i) => {
    const { document, peppol } = prepared.documents[i];
    if (!doc.peppolDocumentId || !peppol) return [];
    return [{
      documentId: doc.peppolDocumentId,
      tenantId: data.tenantId,
      supplierId: data.supplierId,
      area: 'my',
      documentNumber: document.body.ID,
      documentType: peppol.documentType,
      transportMode: 'peppol' as const,
      senderParticipantId: peppol.sender,
      receiverParticipantId: peppol.receiver,
      fields: { ...(JSON.parse(JSON.stringify(document.body)) as Record<string, unknown>), kind: document.kind, myinvoisDocumentId: doc.documentId },
      xml: peppol.xml,
      submittedAt: data.submittedAt,
    }];
  });
}
