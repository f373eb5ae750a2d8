/**
 * A FIRS MBS invoice as people read it (#49): its fields and the totals computed at validation, labels in
 * English, and once FIRS signed it the QR the connector made as FIRS documents it (connector.ts `firsQr`,
 * the receipt's `qr`: the QR encodes that text exactly) with the IRN; before: "not yet authorised". The
 * signed QR's text is long (an encrypted JSON in base64): printed at 40 mm so a phone reads it.
 */
import type { PrintableCapability, PrintableDocument, PrintableMark, StoredDocument } from '../registry/printable';
import { label } from '../printable/labels';
import { pendingMark } from '../printable/marks';
import { amountText, partyOfProfile } from '../printable/parties';
import type { FirsReceipt } from './connector';

const LANGUAGES = ['en'] as const;

interface Fields {
  document_identifier?: string; irn?: string; issue_date?: string; due_date?: string; issue_time?: string; invoice_type_code?: string; note?: string;
  document_currency_code?: string; tax_currency_code?: string; payment_status?: string;
  accounting_customer_party?: { party_name: string; tin: string; email?: string; postal_address?: { street_name?: string; city_name?: string; postal_zone?: string; country?: string } };
  invoice_line?: Array<{ invoiced_quantity: number; line_extension_amount: number; discount_amount?: number; item: { name: string; description?: string }; price: { price_amount: number; base_quantity?: number; price_unit?: string } }>;
  tax_total?: Array<{ tax_amount: number; tax_subtotal: Array<{ taxable_amount: number; tax_amount: number; tax_category: { id: string; percent: number } }> }>;
  totals?: { lineExtension?: string; taxExclusive?: string; taxInclusive?: string; payable?: string };
}

function markOf(document: StoredDocument): PrintableMark {
  const receipt = document.receipt as FirsReceipt | null;
  if (document.reportState !== 'reported' || !receipt?.qr) return pendingMark(LANGUAGES, document.reportState);
  return { kind: 'qr', payload: receipt.qr, legend: [`IRN: ${receipt.irn}`], sizeMm: 40 };
}

export const firsPrintable: PrintableCapability = {
  build(document): PrintableDocument {
    const f = document.fields as Fields;
    const buyer = f.accounting_customer_party;
    const address = buyer?.postal_address;
    const currency = f.document_currency_code ?? 'NGN';
    const typeKey = f.invoice_type_code === '381' ? 'creditNote' : f.invoice_type_code === '383' ? 'debitNote' : 'invoice';
    return {
      title: label(typeKey, LANGUAGES),
      number: f.document_identifier ?? document.number,
      typeCode: f.invoice_type_code,
      issueDate: f.issue_date,
      dueDate: f.due_date,
      dates: f.issue_time ? [{ label: 'Time', value: f.issue_time.replace(/-/g, ':') }] : [],
      issuer: partyOfProfile(document.supplier, { 'NG:TIN': 'TIN' }),
      buyer: buyer
        ? {
            name: buyer.party_name,
            identifiers: [{ label: 'TIN', value: buyer.tin }],
            address: [address?.street_name, [address?.postal_zone, address?.city_name].filter(Boolean).join(' '), address?.country].filter((l): l is string => Boolean(l)),
          }
        : undefined,
      lines: (f.invoice_line ?? []).map((line) => ({
        description: line.item.description && line.item.description !== line.item.name ? `${line.item.name} — ${line.item.description}` : line.item.name,
        quantity: String(line.invoiced_quantity),
        unitPrice: amountText(line.price.price_amount),
        discounts: line.discount_amount ? [`-${amountText(line.discount_amount)}`] : [],
        amount: amountText(line.line_extension_amount),
      })),
      taxes: (f.tax_total ?? []).flatMap((t) => t.tax_subtotal.map((s) => ({ category: s.tax_category.id, rate: String(s.tax_category.percent), taxable: amountText(s.taxable_amount), tax: amountText(s.tax_amount) }))),
      totals: { currency, net: f.totals?.lineExtension, taxExclusive: f.totals?.taxExclusive, taxInclusive: f.totals?.taxInclusive, payable: f.totals?.payable ?? '' },
      payment: f.payment_status ? [`Payment status: ${f.payment_status}`] : [],
      notes: f.note ? [f.note] : [],
      references: f.irn ? [{ label: 'IRN', value: f.irn }] : [],
      languages: LANGUAGES,
      mark: markOf(document),
    };
  },
};
