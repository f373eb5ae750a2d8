/**
 * A JoFotara invoice as people read it (#49): its fields and the totals computed when it was rendered, labels
 * in English and Arabic, and once JoFotara accepted it the QR JoFotara returned (`EINV_QR`, kept as the
 * receipt's `qr`: the QR encodes that text exactly, never one made here) with its number; before: "not yet
 * authorised". Line amounts: quantity × price less the line's discounts, three decimals (invoice.ts `formatJod`).
 */
import Decimal from 'decimal.js';
import type { PrintableCapability, PrintableDocument, PrintableLine, PrintableMark, PrintableTaxRow, StoredDocument } from '../registry/printable';
import { label } from '../printable/labels';
import { pendingMark } from '../printable/marks';
import { partyOfProfile } from '../printable/parties';
import { jofotaraSupplierOf } from './codec';
import { formatJod, joTotals } from './invoice';
import { joLineOf } from './rules';
import type { JofotaraReceipt } from './response';
import type { InvoiceClass, JofotaraLine } from './schema';

const LANGUAGES = ['en', 'ar'] as const;

type Line = JofotaraLine;
interface Fields {
  invoice_ref_number?: string; credit_note_ref_number?: string; issue_date?: string; issue_time?: string; payment_method?: string; note?: string; reason?: string;
  buyer_details?: { buyer_name?: string; buyer_tin?: string; buyer_nin?: string; city_code?: string; postal_code?: string };
  lineitems?: Line[];
  original_uuid?: string;
  totals?: { tax_exclusive_amount?: string; discount_total?: string; tax_total?: string; tax_inclusive_amount?: string; payable_amount?: string };
}

function markOf(document: StoredDocument): PrintableMark {
  const receipt = document.receipt as JofotaraReceipt | null;
  if (document.reportState !== 'reported' || !receipt?.qr) return pendingMark(LANGUAGES, document.reportState);
  return { kind: 'qr', payload: receipt.qr, legend: receipt.number ? [`JoFotara: ${receipt.number}`] : [], sizeMm: 30 };
}

function lineOf(line: Line): PrintableLine {
  const discount = (line.discounts ?? []).reduce((sum, d) => sum.plus(d.amount), new Decimal(0));
  return {
    description: line.description,
    quantity: String(line.quantity),
    unitPrice: String(line.tax_exclusive_price),
    discounts: (line.discounts ?? []).map((d) => `-${formatJod(d.amount)}${d.reason ? ` ${d.reason}` : ''}`),
    taxCategory: line.tax_category,
    // JoFotara's rates are fractions (0.16): printed in percent.
    taxRate: new Decimal(line.tax_percentage).times(100).toString(),
    amount: formatJod(new Decimal(line.quantity).times(line.tax_exclusive_price).minus(discount)),
  };
}

/**
 * The tax breakdown per category and rate (#49): each group's net (after discounts) and tax summed from the lines as
 * JoFotara computes them (invoice.ts `joTotals`: the tax rounded per line, so the rows add up to the tax total sent),
 * in the lines' order of first appearance; a special-sales invoice's special tax on its own row. Income invoices
 * carry no tax (JoFotara): no rows. A credit note's lines are its original's, not in its fields: no rows either.
 */
export function jofotaraTaxRows(lines: readonly Line[], invoiceClass: InvoiceClass): PrintableTaxRow[] {
  if (invoiceClass === 'income' || !lines.length) return [];
  const joLines = lines.map(joLineOf);
  const totals = joTotals(joLines, invoiceClass);
  const groups = new Map<string, { category: string; rate: string; taxable: Decimal; tax: Decimal }>();
  joLines.forEach((line, i) => {
    const rate = new Decimal(line.rate).times(100).toString();
    const key = `${line.category} ${rate}`;
    const group = groups.get(key) ?? { category: line.category, rate, taxable: new Decimal(0), tax: new Decimal(0) };
    groups.set(key, { ...group, taxable: group.taxable.plus(totals.lines[i].net), tax: group.tax.plus(totals.lines[i].tax) });
  });
  const rows: PrintableTaxRow[] = [...groups.values()].map((g) => ({ category: g.category, rate: g.rate, taxable: formatJod(g.taxable), tax: formatJod(g.tax) }));
  if (invoiceClass === 'special_sales' && !totals.specialTax.isZero()) {
    const taxable = totals.lines.filter((l) => !l.special.isZero()).reduce((sum, l) => sum.plus(l.net), new Decimal(0));
    rows.push({ category: 'Special tax', taxable: formatJod(taxable), tax: formatJod(totals.specialTax) });
  }
  return rows;
}

export const jofotaraPrintable: PrintableCapability = {
  build(document): PrintableDocument {
    const f = document.fields as Fields;
    const credit = document.type === 'credit_note';
    const buyer = f.buyer_details;
    const totals = f.totals ?? {};
    return {
      title: label(credit ? 'creditNote' : 'taxInvoice', LANGUAGES),
      number: f.invoice_ref_number ?? f.credit_note_ref_number ?? document.number,
      issueDate: f.issue_date,
      dates: f.issue_time ? [{ label: 'Time', value: f.issue_time.replace(/-/g, ':') }] : [],
      issuer: partyOfProfile(document.supplier, { 'JO:TIN': 'TIN' }),
      buyer: buyer
        ? {
            name: buyer.buyer_name ?? '',
            identifiers: [buyer.buyer_tin && { label: 'TIN', value: buyer.buyer_tin }, buyer.buyer_nin && { label: 'NIN', value: buyer.buyer_nin }].filter((i): i is { label: string; value: string } => Boolean(i)),
            address: [buyer.postal_code, buyer.city_code].filter((l): l is string => Boolean(l)),
          }
        : undefined,
      lines: (f.lineitems ?? []).map(lineOf),
      taxes: jofotaraTaxRows(f.lineitems ?? [], jofotaraSupplierOf(document.supplier)?.invoiceClass ?? 'general_sales'),
      totals: { currency: 'JOD', taxExclusive: totals.tax_exclusive_amount, allowances: totals.discount_total, tax: totals.tax_total, taxInclusive: totals.tax_inclusive_amount, payable: totals.payable_amount ?? '' },
      payment: f.payment_method ? [f.payment_method] : [],
      notes: [f.note, f.reason].filter((n): n is string => Boolean(n)),
      references: f.original_uuid ? [{ label: 'Corrects invoice', value: f.original_uuid }] : [],
      languages: LANGUAGES,
      mark: markOf(document),
    };
  },
};
