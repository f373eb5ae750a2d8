/**
 * Malaysia's documents as people read them (#49, README "Printed view"): the view is read from the document
 * MyInvois validated (its documents row keeps only what the list shows: submitted-document.ts), labels in
 * English. The mark, once MyInvois says Valid: the validation link (SDK "Validation link",
 * `{portal}/{uuid}/share/{longId}`, webhooks.ts `myInvoisValidationLink`) as a QR, the same link printed
 * under References. Before: "not yet authorised"; cancelled: said so. A document with a PINT MY copy is
 * PDF/A-3 with that copy attached (AFRelationship Source), the bytes `GET /api/einvoice/documents/{id}/peppol`
 * serves. A PINT MY document a Malaysian supplier received over Peppol is printed from its UBL, attached, with no
 * mark: the copy does not carry MyInvois's longId, so no validation link can be made of it.
 */
import { AppError, notFound } from '@einvoice/domain';
import type { PrintableCapability, PrintableMark, PrintableReference, StoredDocument } from '../registry/printable';
import { printableFromUbl, xmlFileName } from '../printable/from-ubl';
import { pendingMark } from '../printable/marks';
import type { MyInvoisReceipt } from './reporting/report';
import { myInvoisView } from './printable-view';
import { submittedRoot } from './submitted-document';
import { myInvoisPortalUrl, myInvoisValidationLink } from './webhooks';

/** Report states in which MyInvois holds the document Valid (`reported`; a cancellation asked but not answered). */
const VALID_STATES = new Set(['reported', 'cancelling']);

/** Where a document not (or no longer) valid stands, in MyInvois's words (present.ts shows the same states). */
const STATE_WORDS: Readonly<Record<string, string>> = {
  pending: 'not yet submitted to MyInvois',
  processing: 'submitted, MyInvois has not validated it yet',
  rejected: 'rejected by MyInvois',
  invalid: 'invalid at MyInvois',
};

/** The validation link of a Valid document, else null. */
function validationLinkOf(document: StoredDocument, portalUrl: string): string | null {
  const receipt = document.receipt as Partial<MyInvoisReceipt> | null;
  return VALID_STATES.has(document.reportState ?? '') ? myInvoisValidationLink(portalUrl, receipt?.uuid, receipt?.longId) : null;
}

/** The mark: the validation link's QR once Valid, else why there is none (never a made-up code). */
export function myInvoisMark(document: StoredDocument, portalUrl: string = myInvoisPortalUrl()): PrintableMark {
  const uuid = (document.receipt as Partial<MyInvoisReceipt> | null)?.uuid;
  if (document.reportState === 'cancelled') {
    return { kind: 'text', text: ['Cancelled at MyInvois: no longer a valid e-Invoice', ...(uuid ? [`UUID ${uuid}`] : [])] };
  }
  const link = validationLinkOf(document, portalUrl);
  if (!link || !uuid) return pendingMark(['en'], STATE_WORDS[document.reportState ?? ''] ?? document.reportState);
  return { kind: 'qr', payload: link, caption: ['Validated by LHDN MyInvois'], legend: [`UUID ${uuid}`], sizeMm: 30 };
}

/** Malaysia's `printable`: reads the submitted document and the PINT MY copy from the report; a received PINT MY document from its UBL. */
export const myInvoisPrintable: PrintableCapability = {
  readsXml: true,
  readsReported: true,
  readsPeppolCopy: true,
  build(document) {
    if (document.direction === 'incoming') {
      // PINT MY's TIN is its PartyTaxScheme GST (README "PINT MY"), the SST number its VAT one.
      if (document.xml) return printableFromUbl(document.xml, { languages: ['en'], taxIdLabel: 'SST', attach: true });
      // A buyer's request to reject a document (reporting/buyer-rejection.ts): no document to print.
      throw notFound('DOCUMENT.NO_VIEW', `Document ${document.id} is a buyer's rejection request, not a document: print the document it rejects.`);
    }
    if (!document.reported) throw new AppError('internal', 'DOCUMENT.NO_FILE', `Document ${document.id} has no submitted MyInvois document to print.`);
    const link = validationLinkOf(document, myInvoisPortalUrl());
    const references: PrintableReference[] = link ? [{ label: 'MyInvois validation link', value: link }] : [];
    return myInvoisView(submittedRoot(document.reported), {
      mark: myInvoisMark(document),
      references,
      attachment: document.peppolCopyXml ? { filename: xmlFileName(document.number), xml: document.peppolCopyXml } : undefined,
    });
  },
};
