import type { AuthorityReportRequestedData } from '@einvoice/domain';
import type { MyInvoisSubmissionKind, myinvois } from '@einvoice/areas';

/** What the documents of one submission share. */
export interface SubmissionOfReports {
  readonly submissionId: string;
  readonly kind: MyInvoisSubmissionKind;
  readonly tenantId: string;
  readonly supplierId: string;
  readonly ruleSetId: string;
  readonly documentId: string;
  readonly reportId: string;
  readonly requestedAt: string;
}

/**
 * One prepared document as a report of the generic reporting pipeline (#8): the exact text submitted
 * with its hash, MyInvois's payload, the caller's submission as its batch key (one Submit Documents
 * call for all of them), and its PINT MY copy when it has a Peppol leg, which the reporting worker
 * releases only once MyInvois says Valid (a buyer must never hold a copy of a document that is not
 * legally valid: there is no recall). No copy without the header, for a consolidated document or a
 * generic TIN.
 */
export function reportOfPrepared(prepared: myinvois.PreparedPeppolSubmission['documents'][number], of: SubmissionOfReports): AuthorityReportRequestedData {
  const { submission, document, peppol } = prepared;
  const payload: myinvois.MyInvoisReportPayload = { submissionId: of.submissionId, kind: of.kind, format: submission.format, invoiceCodeNumber: submission.codeNumber };
  return {
    reportId: of.reportId,
    documentId: of.documentId,
    tenantId: of.tenantId,
    supplierId: of.supplierId,
    area: 'my',
    ruleSetId: of.ruleSetId,
    documentNumber: submission.codeNumber,
    documentType: of.kind,
    // The caller's document (plain JSON: no class instances in an event), for its Peppol copy's
    // DocumentSubmitted only: MyInvois's GET shows MyInvois's answer, not the fields, so a document
    // without a copy carries none (issue 11: 0.75 KB less in its request event and in each of the
    // three updates of its documents row).
    fields: peppol ? (JSON.parse(JSON.stringify(document.body)) as Record<string, unknown>) : {},
    document: {
      bytes: String(submission.document),
      mediaType: submission.format === 'XML' ? 'application/xml' : 'application/json',
      sha256: submission.documentHash,
    },
    payload: { ...payload },
    requestedAt: of.requestedAt,
    batchKey: of.submissionId,
    ...(peppol ? { peppolCopy: { documentType: peppol.documentType, senderParticipantId: peppol.sender, receiverParticipantId: peppol.receiver, xml: peppol.xml } } : {}),
  };
}
