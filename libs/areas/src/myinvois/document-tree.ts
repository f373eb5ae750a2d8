/**
 * The one intermediate tree of a MyInvois document: UBL 2.1 Invoice in the MyInvois profile
 * (LHDN MyInvois SDK, document structure "Invoice v1.0"). render-xml.ts serialises it as XML,
 * render-json.ts as MyInvois JSON; neither knows a field of the document.
 * Credit (02), debit (03) and refund (04) notes are Invoice documents with their type code and
 * a BillingReference, as MyInvois does; self-billed documents use codes 11–14.
 */
import Decimal from 'decimal.js';
import { formatAmount, formatDecimal } from '../shared/money';
import { el, leaf, XmlChild, XmlNode } from '../shared/xml';
import { ublNamespaces } from '../ubl';
import type { AmountReason, DocumentBase, InvoiceTypeCode, MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import { computeTotals, DocumentTotals, LineTaxTotal } from './totals';
import { customerParty, party, PartyData, postalAddress, recipientParty, sellerParty, supplierParty } from './tree-parties';


/**
 * `InvoiceTypeCode@listVersionID`: 1.0 is the unsigned version; 1.1 requires the XAdES
 * signature in UBLExtensions, which is applied (if at all) after rendering, outside this library.
 */
export const documentVersion = '1.0';

/** MyInvois e-invoice type codes: 01–04, or 11–14 for the self-billed counterparts. */
export function typeCodeOf(kind: MyInvoisDocument['kind'], code: InvoiceTypeCode): string {
  return kind === 'self-billed' ? `1${code.slice(1)}` : code;
}

/** MyInvois tax scheme: `OTH` from UN/ECE 5153. */
const taxScheme = () => el('cac:TaxScheme', {}, el('cbc:ID', { schemeID: 'UN/ECE 5153', schemeAgencyID: '6' }, 'OTH'));

const money = (name: string, value: Decimal, currency: string) => el(name, { currencyID: currency }, formatAmount(value));

function allowanceCharge(a: AmountReason, charge: boolean, currency: string): XmlNode {
  return el('cac:AllowanceCharge', {}, el('cbc:ChargeIndicator', {}, String(charge)), leaf('cbc:AllowanceChargeReason', a.Reason),
    el('cbc:Amount', { currencyID: currency }, formatAmount(a.Amount)));
}

function taxSubtotal(t: Pick<LineTaxTotal, 'taxType' | 'taxable' | 'tax' | 'exemptionReason' | 'percent' | 'baseUnit' | 'perUnit'>, currency: string, unit: string): XmlNode {
  return el('cac:TaxSubtotal', {},
    money('cbc:TaxableAmount', t.taxable, currency),
    money('cbc:TaxAmount', t.tax, currency),
    t.percent && el('cbc:Percent', {}, formatDecimal(t.percent)),
    t.baseUnit && el('cbc:BaseUnitMeasure', { unitCode: unit }, formatDecimal(t.baseUnit)),
    t.perUnit && el('cbc:PerUnitAmount', { currencyID: currency }, formatAmount(t.perUnit)),
    el('cac:TaxCategory', {}, el('cbc:ID', {}, t.taxType),
      t.taxType === 'E' ? leaf('cbc:TaxExemptionReason', t.exemptionReason) : undefined, taxScheme()));
}

function parties(doc: MyInvoisDocument, supplier: MyInvoisSupplier): { seller: PartyData; buyer: PartyData } {
  switch (doc.kind) {
    case 'invoice': return { seller: supplierParty(supplier), buyer: customerParty(doc.body.CustomerParty, false) };
    case 'consolidated': return { seller: supplierParty(supplier), buyer: customerParty(doc.body.CustomerParty, true) };
    case 'self-billed': return { seller: sellerParty(doc.body.SupplierParty), buyer: supplierParty(supplier) };
    default: { const never: never = doc; throw new RangeError(`Unknown kind ${String(never)}`); }
  }
}

function delivery(doc: MyInvoisDocument, currency: string): XmlChild {
  if (doc.kind === 'consolidated' || !doc.body.DeliveryDetails) return undefined;
  const d = doc.body.DeliveryDetails;
  const r = recipientParty(d);
  return el('cac:Delivery', {},
    el('cac:DeliveryParty', {},
      el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: 'TIN' }, r.tin)),
      el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: r.id.scheme }, r.id.value)),
      el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: 'SST' }, r.sst)),
      postalAddress(r.address),
      el('cac:PartyLegalEntity', {}, el('cbc:RegistrationName', {}, r.name))),
    (d.ShipmentID || d.ShipmentCharges?.length) ? el('cac:Shipment', {},
      // cbc:ID is mandatory in a UBL Shipment.
      el('cbc:ID', {}, d.ShipmentID ?? 'NA'),
      ...(d.ShipmentCharges ?? []).map((c) => el('cac:FreightAllowanceCharge', {}, el('cbc:ChargeIndicator', {}, 'true'),
        leaf('cbc:AllowanceChargeReason', c.Reason), el('cbc:Amount', { currencyID: currency }, formatAmount(c.Amount))))) : undefined);
}

function line(body: DocumentBase, i: number, totals: DocumentTotals, currency: string): XmlNode {
  const l = body.InvoiceLines[i];
  const t = totals.lines[i];
  const unit = l.UOM ?? 'C62';
  return el('cac:InvoiceLine', {},
    el('cbc:ID', {}, String(i + 1)),
    el('cbc:InvoicedQuantity', { unitCode: unit }, formatDecimal(t.quantity)),
    money('cbc:LineExtensionAmount', t.net, currency),
    ...(l.Discounts ?? []).map((a) => allowanceCharge(a, false, currency)),
    ...(l.Charges ?? []).map((a) => allowanceCharge(a, true, currency)),
    el('cac:TaxTotal', {}, money('cbc:TaxAmount', t.tax, currency), ...t.taxes.map((x) => taxSubtotal(x, currency, unit))),
    el('cac:Item', {},
      el('cbc:Description', {}, l.Description),
      ...l.ClassificationCode.map((c) => el('cac:CommodityClassification', {}, el('cbc:ItemClassificationCode', { listID: 'CLASS' }, c)))),
    el('cac:Price', {}, el('cbc:PriceAmount', { currencyID: currency }, formatDecimal(l.PriceAmount))),
    el('cac:ItemPriceExtension', {}, money('cbc:Amount', t.subtotal, currency)));
}

/**
 * The MyInvois UBL tree of a parsed document.
 * @param doc a document after `parseDocument` (rules passed, defaults applied)
 * @param supplier the onboarded supplier (seller, or buyer of a self-billed document)
 */
export function documentTree(doc: MyInvoisDocument, supplier: MyInvoisSupplier): XmlNode {
  const body: DocumentBase = doc.body;
  const currency = body.DocumentCurrencyCode ?? 'MYR';
  const totals = computeTotals(body);
  const { seller, buyer } = parties(doc, supplier);
  return el('Invoice', { xmlns: ublNamespaces.Invoice, 'xmlns:cac': ublNamespaces.cac, 'xmlns:cbc': ublNamespaces.cbc },
    el('cbc:ID', {}, body.ID),
    el('cbc:IssueDate', {}, body.IssueDate),
    el('cbc:IssueTime', {}, body.IssueTime),
    el('cbc:InvoiceTypeCode', { listVersionID: documentVersion }, typeCodeOf(doc.kind, body.InvoiceTypeCode)),
    el('cbc:DocumentCurrencyCode', {}, currency),
    el('cbc:TaxCurrencyCode', {}, 'MYR'),
    ...(body.InvoiceDocumentReference ?? []).map((r) => el('cac:BillingReference', {},
      el('cac:InvoiceDocumentReference', {}, el('cbc:ID', {}, r.InternalID), el('cbc:UUID', {}, r.UUID)))),
    body.CustomsImportForm && el('cac:AdditionalDocumentReference', {}, el('cbc:ID', {}, body.CustomsImportForm), el('cbc:DocumentType', {}, 'CustomsImportForm')),
    el('cac:AccountingSupplierParty', {}, party(seller, true)),
    el('cac:AccountingCustomerParty', {}, party(buyer, false)),
    delivery(doc, currency),
    body.Incoterms && el('cac:DeliveryTerms', {}, el('cbc:ID', {}, body.Incoterms)),
    ...(body.Prepayments ?? []).map((p) => el('cac:PrepaidPayment', {}, leaf('cbc:ID', p.PaymentID),
      el('cbc:PaidAmount', { currencyID: currency }, formatAmount(p.Amount)), leaf('cbc:PaidDate', p.Date), leaf('cbc:PaidTime', p.Time))),
    ...(body.Discounts ?? []).map((a) => allowanceCharge(a, false, currency)),
    ...(body.Charges ?? []).map((a) => allowanceCharge(a, true, currency)),
    currency !== 'MYR' && body.TaxExchangeRate !== undefined && el('cac:TaxExchangeRate', {},
      el('cbc:SourceCurrencyCode', {}, currency), el('cbc:TargetCurrencyCode', {}, 'MYR'),
      el('cbc:CalculationRate', {}, formatDecimal(body.TaxExchangeRate))),
    el('cac:TaxTotal', {}, money('cbc:TaxAmount', totals.taxTotal, currency),
      ...totals.taxTypes.map((g) => taxSubtotal(g, currency, 'C62'))),
    el('cac:LegalMonetaryTotal', {},
      money('cbc:LineExtensionAmount', totals.lineTotal, currency),
      money('cbc:TaxExclusiveAmount', totals.taxExclusive, currency),
      money('cbc:TaxInclusiveAmount', totals.taxInclusive, currency),
      money('cbc:AllowanceTotalAmount', totals.allowanceTotal, currency),
      money('cbc:ChargeTotalAmount', totals.chargeTotal, currency),
      money('cbc:PrepaidAmount', totals.prepaid, currency),
      totals.rounding.isZero() ? undefined : money('cbc:PayableRoundingAmount', totals.rounding, currency),
      money('cbc:PayableAmount', totals.payable, currency)),
    ...body.InvoiceLines.map((_, i) => line(body, i, totals, currency)));
}
