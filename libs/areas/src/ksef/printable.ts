/**
 * A KSeF invoice as people read it (#49): its content read from the BIS 3.0 rendering of the same body the
 * FA(3) is rendered from (peppol-copy.ts `bisUblOf`, the Peppol copy's renderer: one set of totals), labels in
 * English and Polish, the seller by its NIP. Once KSeF accepted it: the KSeF number and KOD I, the QR of the
 * invoice's verification link (ksef-docs `kody-qr.md`: `https://qr.ksef.mf.gov.pl/invoice/{NIP}/{DD-MM-YYYY}/
 * {SHA-256 of the FA(3) file, Base64URL}`, qr.ts, the `QrLink` retrieve answers) with the KSeF number under it.
 * Before: "not yet authorised" (an offline invoice's "OFFLINE" code, KOD II, is not made here). An invoice in
 * another currency shows its VAT in PLN as its FA(3) does (`withPlnVat`).
 */
import type { PrintableCapability, PrintableDocument, PrintableMark, PrintableTaxRow, StoredDocument } from '../registry/printable';
import { formatAmount, sum } from '../shared/money';
import { printableFromUbl } from '../printable/from-ubl';
import { pendingMark } from '../printable/marks';
import { fa3LineOf } from './codec';
import { type Fa3Line, fa3Totals } from './fa3';
import { bisUblOf } from './peppol-copy';
import { ksefQrLinkOfHash } from './qr';
import type { KsefInvoiceBody } from './schema';
import { TOTAL_FIELDS } from './rates';
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

/**
 * A foreign-currency invoice's VAT in PLN as its FA(3) states it (P_14_1W..P_14_3W, `fa3Totals` at its ExchangeRate):
 * on each row of the breakdown whose rate has one, and their sum with the rate under the totals. Nothing on a PLN
 * invoice, nor on one with no VAT at 23, 8 or 5 % (it states none).
 */
export function withPlnVat(view: PrintableDocument, body: KsefInvoiceBody): PrintableDocument {
  if ((body.DocumentCurrencyCode ?? 'PLN') === 'PLN' || body.ExchangeRate === undefined) return view;
  const lines = body.InvoiceLines.map(fa3LineOf).filter((l): l is Fa3Line => !('refused' in l));
  const inPln = [...fa3Totals(lines, body.ExchangeRate).byRate].filter(([, amounts]) => amounts.taxPln !== undefined);
  if (!inPln.length) return view;
  // The Peppol copy's breakdown has one row per rate: category S at the rate's percent.
  const plnOf = (row: PrintableTaxRow) => inPln.find(([rate]) => row.category === 'S' && Number(row.rate) === TOTAL_FIELDS[rate].percent)?.[1].taxPln;
  return {
    ...view,
    taxes: view.taxes.map((row) => {
      const otherTax = plnOf(row);
      return otherTax === undefined ? row : { ...row, otherTax };
    }),
    otherTotals: { currency: 'PLN', tax: formatAmount(sum(inPln.map(([, amounts]) => amounts.taxPln!))), rate: String(body.ExchangeRate) },
  };
}

export const ksefPrintable: PrintableCapability = {
  build(document) {
    const body = document.fields as unknown as KsefInvoiceBody;
    const ubl = bisUblOf(body, document.supplier, document.id);
    return withPlnVat(printableFromUbl(ubl, { languages: LANGUAGES, taxIdLabel: 'NIP', mark: markOf(document) }), body);
  },
};
