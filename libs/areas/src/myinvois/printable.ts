/**
 * A MyInvois document as people read it (#49): its content read from its UBL 2.1 rendering (render-xml.ts, the
 * XML format MyInvois takes, from the same fields as the JSON submitted), and once MyInvois validated it the QR
 * of its validation link (SDK "Validation link": `{portal}/{uuid}/share/{longId}`, webhooks.ts
 * `myInvoisValidationLink`, on MYINVOIS_PORTAL_URL) with its UUID; before: "not yet authorised".
 */
import type { PrintableCapability, PrintableMark, StoredDocument } from '../registry/printable';
import { printableFromUbl } from '../printable/from-ubl';
import { pendingMark } from '../printable/marks';
import type { MyInvoisReceipt } from './reporting/report';
import { renderMyInvoisXml } from './render-xml';
import { supplierOfProfile } from './supplier-profile';
import type { MyInvoisDocument } from './schema-document';
import { myInvoisPortalUrl, myInvoisValidationLink } from './webhooks';

const LANGUAGES = ['en'] as const;

function markOf(document: StoredDocument): PrintableMark {
  const receipt = document.receipt as Partial<MyInvoisReceipt> | null;
  const link = document.reportState === 'reported' ? myInvoisValidationLink(myInvoisPortalUrl(), receipt?.uuid, receipt?.longId) : null;
  if (!link) return pendingMark(LANGUAGES, document.reportState);
  return { kind: 'qr', payload: link, legend: [`MyInvois UUID: ${receipt?.uuid}`], sizeMm: 30 };
}

export const myInvoisPrintable: PrintableCapability = {
  build(document) {
    // The stored fields are the document's body, its kind the document type (codec.ts `parseMyInvois`).
    const xml = renderMyInvoisXml({ kind: document.type, body: document.fields } as unknown as MyInvoisDocument, supplierOfProfile(document.supplier));
    return printableFromUbl(xml, { languages: LANGUAGES, taxIdLabel: 'SST', mark: markOf(document) });
  },
};
