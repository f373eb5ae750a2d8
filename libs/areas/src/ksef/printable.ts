/**
 * A KSeF invoice as people read it (#49): its content read from the BIS 3.0 rendering of the same body the
 * FA(3) is rendered from (peppol-copy.ts `bisUblOf`, the Peppol copy's renderer: one set of totals), labels in
 * English and Polish, the seller by its NIP. Once KSeF accepted it: the KSeF number and KOD I, the QR of the
 * invoice's verification link (ksef-docs `kody-qr.md`: `https://qr.ksef.mf.gov.pl/invoice/{NIP}/{DD-MM-YYYY}/
 * {SHA-256 of the FA(3) file, Base64URL}`, qr.ts, the `QrLink` retrieve answers) with the KSeF number under it.
 * Before: "not yet authorised" (an offline invoice's "OFFLINE" code, KOD II, is not made here).
 */
import type { PrintableCapability, PrintableMark, StoredDocument } from '../registry/printable';
import { printableFromUbl } from '../printable/from-ubl';
import { pendingMark } from '../printable/marks';
import { bisUblOf } from './peppol-copy';
import { ksefQrLinkOfHash } from './qr';
import type { KsefInvoiceBody } from './schema';
import { ksefSettings } from './settings';

const LANGUAGES = ['en', 'pl'] as const;

function markOf(document: StoredDocument): PrintableMark {
  const ksefNumber = (document.receipt as { ksefNumber?: string } | null)?.ksefNumber;
  const f = document.fields as { SellerNip?: string; IssueDate?: string };
  if (document.reportState !== 'reported' || !ksefNumber || !document.renderedSha256 || !f.SellerNip || !f.IssueDate) return pendingMark(LANGUAGES, document.reportState);
  return {
    kind: 'qr',
    payload: ksefQrLinkOfHash(ksefSettings().environment, f.SellerNip, f.IssueDate, document.renderedSha256),
    caption: ['KOD I'],
    legend: [ksefNumber],
    sizeMm: 30,
  };
}

export const ksefPrintable: PrintableCapability = {
  build(document) {
    const ubl = bisUblOf(document.fields as unknown as KsefInvoiceBody, document.supplier, document.id);
    return printableFromUbl(ubl, { languages: LANGUAGES, taxIdLabel: 'NIP', mark: markOf(document) });
  },
};
