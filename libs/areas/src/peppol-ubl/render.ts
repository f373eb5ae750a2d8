/**
 * The BIS Billing 3.0 layer (BE/DE) and the PINT SG layer over the one UBL document (../ubl):
 * the profile supplies identifiers, categories and tax scheme; this file decides what the
 * document says, `writeUbl` how UBL says it.
 */
import Decimal from 'decimal.js';
import { dec, formatAmount, round2 } from '../shared/money';
import { stated, writeUbl, type UblDocument, type UblTaxCategory } from '../ubl';
import { findDocumentType } from './document-types';
import type { AreaProfile } from './profiles';
import { buyerParty, sellerParty, TaxIdPolicy } from './render-parties';
import type { InvoiceDto, Supplier } from './schema';
import { computeTotals, TaxGroup, Totals } from './totals';

/** UN/ECE Rec 20 "one" (BT-130): the seed carries no unit. */
const unitCode = 'C62';

function taxCategory(p: AreaProfile, g: Pick<TaxGroup, 'category' | 'rate' | 'exemptionReason'>, withExemption: boolean): UblTaxCategory {
  const e = g.category.exemption;
  const exemption = !withExemption || e === 'forbidden' ? {}
    : typeof e === 'object' ? { exemptionReasonCode: e.code, exemptionReason: g.exemptionReason ?? e.text } // BT-121, BT-120
    : { exemptionReason: stated(g.exemptionReason) };
  // BR-O-05/BR-O-14: no rate for "not subject to VAT".
  return { id: g.category.code, percent: g.category.rate === 'none' ? undefined : g.rate, ...exemption, taxScheme: p.taxSchemeId };
}

/** SG invoices in a foreign currency state GST and totals in SGD too (BR-113-GST-SG, BR-53-GST-SG). */
function accountingCurrency(p: AreaProfile, dto: InvoiceDto, totals: Totals, gst: boolean) {
  if (!p.taxCurrency || dto.DocumentCurrencyCode === p.taxCurrency || !gst || dto.TaxExchangeRate === undefined) return undefined;
  const rate = new Decimal(String(dto.TaxExchangeRate));
  const tax = round2(totals.taxTotal.times(rate));
  const excl = round2(totals.lineTotal.times(rate));
  return { currency: p.taxCurrency, tax, excl, incl: excl.plus(tax) };
}

/**
 * The document an invoice or credit note says, in the area's profile.
 * @param dto invoice after `parseInvoice` (defaults applied, rules passed)
 * @param supplier the supplier as onboarded (seller, BG-4)
 * @param uuid the document's uuid (cbc:UUID, BT-SG-003)
 */
export function peppolDocument(p: AreaProfile, dto: InvoiceDto, supplier: Supplier, uuid: string): UblDocument {
  const type = findDocumentType(p.documentTypes, dto.DocumentType);
  if (!type) throw new RangeError(`Unknown DocumentType ${dto.DocumentType}`);
  const isInvoice = type.root === 'Invoice';
  const cur = dto.DocumentCurrencyCode;
  const totals = computeTotals(p, dto);
  const forbidsVat = totals.groups.some((g) => g.category.sellerVat === 'forbidden');
  const policy: TaxIdPolicy = { sellerVat: !forbidsVat, buyerVat: !forbidsVat };
  const acc = accountingCurrency(p, dto, totals, !forbidsVat);
  const needsDelivery = totals.groups.some((g) => g.category.delivery);
  const payable = totals.totalIncludingVat;
  // BR-CO-25: a positive amount due needs a due date or payment terms; CreditNote has no cbc:DueDate.
  const dueDate = isInvoice ? dto.DueDate : undefined;
  const terms = dto.PaymentTerms ?? (payable.gt(0) && !dueDate ? (dto.DueDate ? `Due ${dto.DueDate}` : 'Due on receipt') : undefined);
  return {
    root: type.root,
    customizationId: p.customizationId, // BT-24
    profileId: p.profileId, // BT-23
    id: dto.ID,
    uuid,
    issueDate: dto.IssueDate,
    dueDate: stated(dueDate),
    typeCode: type.typeCode,
    note: stated(dto.Note),
    currency: cur,
    taxCurrency: acc?.currency,
    buyerReference: dto.BuyerReference,
    billingReference: dto.BillingReference && { id: dto.BillingReference.ID, issueDate: stated(dto.BillingReference.IssueDate) },
    additionalDocumentReferences: acc && [
      { id: acc.currency, typeCode: 'sgdtotal-excl-gst', description: formatAmount(acc.excl) },
      { id: acc.currency, typeCode: 'sgdtotal-incl-gst', description: formatAmount(acc.incl) },
    ],
    seller: sellerParty(p, supplier, policy),
    buyer: buyerParty(p, dto.CustomerParty, policy),
    // BR-IC-11/12: intra-Community supplies state delivery date and deliver-to country.
    delivery: needsDelivery ? { date: dto.DeliveryDate ?? dto.IssueDate, country: dto.CustomerParty.address.Country } : undefined,
    paymentMeans: dto.PaymentMeans && {
      code: dto.PaymentMeans.Code,
      dueDate: isInvoice ? undefined : stated(dto.DueDate),
      account: dto.PaymentMeans.AccountID ? { id: dto.PaymentMeans.AccountID, name: stated(dto.PaymentMeans.AccountName) } : undefined,
    },
    paymentTerms: terms,
    taxTotals: [
      { currency: cur, tax: totals.taxTotal, subtotals: totals.groups.map((g) => ({ taxable: g.taxable, tax: g.tax, category: taxCategory(p, g, true) })) },
      ...(acc ? [{ currency: acc.currency, tax: acc.tax, subtotals: [] }] : []),
    ],
    totals: { lineExtension: totals.lineTotal, taxExclusive: totals.lineTotal, taxInclusive: totals.totalIncludingVat, payable },
    lines: dto.InvoiceLines.map((l, i) => {
      const t = totals.lines[i];
      return {
        quantity: t.quantity,
        unitCode,
        lineExtension: t.net,
        item: { name: l.Description, taxCategories: [taxCategory(p, t, false)] },
        price: dec(l.PriceAmount),
      };
    }),
  };
}

/** The UBL XML of an invoice or credit note (`peppolDocument` written). */
export function renderDocument(p: AreaProfile, dto: InvoiceDto, supplier: Supplier, uuid: string): string {
  return writeUbl(peppolDocument(p, dto, supplier, uuid));
}
