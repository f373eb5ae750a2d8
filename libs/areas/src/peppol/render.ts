/**
 * Renders a validated invoice as UBL 2.1: Peppol BIS Billing 3.0 for BE/DE, PINT SG for SG.
 * One code path; the profile supplies identifiers, categories and tax scheme.
 */
import Decimal from 'decimal.js';
import { formatAmount, formatDecimal, round2 } from '../shared/money';
import { el, leaf, toXml, XmlChild, XmlNode } from '../shared/xml';
import { findDocumentType } from './document-types';
import type { AreaProfile } from './profiles';
import { renderBuyer, renderSeller, TaxIdPolicy } from './render-parties';
import type { InvoiceDto, Supplier } from './schema';
import { computeTotals, TaxGroup, Totals } from './totals';

const ns = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** UN/ECE Rec 20 "one" (BT-130): the seed carries no unit. */
const unitCode = 'C62';

function taxCategory(name: string, p: AreaProfile, g: Pick<TaxGroup, 'category' | 'rate'>, exemption?: XmlChild[]): XmlNode {
  return el(name, {},
    el('cbc:ID', {}, g.category.code),
    // BR-O-05/BR-O-14: no rate for "not subject to VAT".
    g.category.rate === 'none' ? undefined : el('cbc:Percent', {}, formatDecimal(g.rate)),
    ...(exemption ?? []),
    el('cac:TaxScheme', {}, el('cbc:ID', {}, p.taxSchemeId)));
}

function exemptionOf(g: TaxGroup): XmlChild[] {
  const e = g.category.exemption;
  if (e === 'forbidden') return [];
  if (typeof e === 'object') {
    return [el('cbc:TaxExemptionReasonCode', {}, e.code), el('cbc:TaxExemptionReason', {}, g.exemptionReason ?? e.text)]; // BT-121, BT-120
  }
  return [leaf('cbc:TaxExemptionReason', g.exemptionReason)];
}

function amount(name: string, value: Decimal, currency: string): XmlNode {
  return el(name, { currencyID: currency }, formatAmount(value));
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
 * The UBL XML of an invoice or credit note.
 * @param dto invoice after `parseInvoice` (defaults applied, rules passed)
 * @param supplier the supplier as onboarded (seller, BG-4)
 * @param uuid the document's uuid (cbc:UUID, BT-SG-003)
 */
export function renderDocument(p: AreaProfile, dto: InvoiceDto, supplier: Supplier, uuid: string): string {
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
  const line = isInvoice ? 'cac:InvoiceLine' : 'cac:CreditNoteLine';
  const qty = isInvoice ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity';

  const root = el(type.root, { xmlns: ns[type.root], 'xmlns:cac': ns.cac, 'xmlns:cbc': ns.cbc },
    el('cbc:CustomizationID', {}, p.customizationId), // BT-24
    el('cbc:ProfileID', {}, p.profileId), // BT-23
    el('cbc:ID', {}, dto.ID), // BT-1
    el('cbc:UUID', {}, uuid),
    el('cbc:IssueDate', {}, dto.IssueDate), // BT-2
    leaf('cbc:DueDate', dueDate), // BT-9
    el(isInvoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode', {}, type.typeCode), // BT-3
    leaf('cbc:Note', dto.Note), // BT-22
    el('cbc:DocumentCurrencyCode', {}, cur), // BT-5
    acc && el('cbc:TaxCurrencyCode', {}, acc.currency), // BT-6
    el('cbc:BuyerReference', {}, dto.BuyerReference), // BT-10
    dto.BillingReference && el('cac:BillingReference', {}, el('cac:InvoiceDocumentReference', {},
      el('cbc:ID', {}, dto.BillingReference.ID), leaf('cbc:IssueDate', dto.BillingReference.IssueDate))), // BT-25, BT-26
    acc && el('cac:AdditionalDocumentReference', {}, el('cbc:ID', {}, acc.currency),
      el('cbc:DocumentTypeCode', {}, 'sgdtotal-excl-gst'), el('cbc:DocumentDescription', {}, formatAmount(acc.excl))),
    acc && el('cac:AdditionalDocumentReference', {}, el('cbc:ID', {}, acc.currency),
      el('cbc:DocumentTypeCode', {}, 'sgdtotal-incl-gst'), el('cbc:DocumentDescription', {}, formatAmount(acc.incl))),
    renderSeller(p, supplier, policy),
    renderBuyer(p, dto.CustomerParty, policy),
    // BR-IC-11/12: intra-Community supplies state delivery date and deliver-to country.
    needsDelivery && el('cac:Delivery', {}, el('cbc:ActualDeliveryDate', {}, dto.DeliveryDate ?? dto.IssueDate),
      el('cac:DeliveryLocation', {}, el('cac:Address', {}, el('cac:Country', {}, el('cbc:IdentificationCode', {}, dto.CustomerParty.address.Country))))),
    dto.PaymentMeans && el('cac:PaymentMeans', {},
      el('cbc:PaymentMeansCode', {}, dto.PaymentMeans.Code), // BT-81
      !isInvoice ? leaf('cbc:PaymentDueDate', dto.DueDate) : undefined,
      dto.PaymentMeans.AccountID && el('cac:PayeeFinancialAccount', {},
        el('cbc:ID', {}, dto.PaymentMeans.AccountID), leaf('cbc:Name', dto.PaymentMeans.AccountName))), // BT-84, BT-85
    terms && el('cac:PaymentTerms', {}, el('cbc:Note', {}, terms)), // BT-20
    el('cac:TaxTotal', {}, amount('cbc:TaxAmount', totals.taxTotal, cur), // BT-110
      ...totals.groups.map((g) => el('cac:TaxSubtotal', {},
        amount('cbc:TaxableAmount', g.taxable, cur), amount('cbc:TaxAmount', g.tax, cur), // BT-116, BT-117
        taxCategory('cac:TaxCategory', p, g, exemptionOf(g))))),
    acc && el('cac:TaxTotal', {}, amount('cbc:TaxAmount', acc.tax, acc.currency)), // BT-111
    el('cac:LegalMonetaryTotal', {},
      amount('cbc:LineExtensionAmount', totals.lineTotal, cur), // BT-106
      amount('cbc:TaxExclusiveAmount', totals.lineTotal, cur), // BT-109
      amount('cbc:TaxInclusiveAmount', totals.totalIncludingVat, cur), // BT-112
      amount('cbc:PayableAmount', payable, cur)), // BT-115
    ...dto.InvoiceLines.map((l, i) => {
      const t = totals.lines[i];
      return el(line, {},
        el('cbc:ID', {}, String(i + 1)), // BT-126
        el(qty, { unitCode }, formatDecimal(t.quantity)), // BT-129, BT-130
        amount('cbc:LineExtensionAmount', t.net, cur), // BT-131
        el('cac:Item', {},
          el('cbc:Name', {}, l.Description), // BT-153
          taxCategory('cac:ClassifiedTaxCategory', p, t)), // BT-151, BT-152
        el('cac:Price', {}, el('cbc:PriceAmount', { currencyID: cur }, formatDecimal(l.PriceAmount)))); // BT-146
    }));
  return toXml(root);
}
