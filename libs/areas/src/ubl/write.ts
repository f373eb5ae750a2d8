/** Writes a UblDocument (document.ts) as UBL 2.1 XML, each element in its XSD sequence. */
import type Decimal from 'decimal.js';
import { formatAmount, formatDecimal } from '../shared/money';
import { el, toXml, type XmlNode } from '../shared/xml';
import type { UblAllowanceCharge, UblDocument, UblParty, UblTaxCategory, UblTaxTotal } from './document';

export const ublNamespaces = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

const amount = (name: string, value: Decimal, currency: string): XmlNode => el(name, { currencyID: currency }, formatAmount(value));
const optionalAmount = (name: string, value: Decimal | undefined, currency: string) => value && amount(name, value, currency);

function taxCategory(name: 'cac:TaxCategory' | 'cac:ClassifiedTaxCategory', c: UblTaxCategory): XmlNode {
  return el(name, {},
    el('cbc:ID', {}, c.id),
    c.percent && el('cbc:Percent', {}, formatDecimal(c.percent)),
    el('cbc:TaxExemptionReasonCode', {}, c.exemptionReasonCode), // BT-121
    el('cbc:TaxExemptionReason', {}, c.exemptionReason), // BT-120
    el('cac:TaxScheme', {}, el('cbc:ID', {}, c.taxScheme)));
}

function taxTotal(t: UblTaxTotal, unitCurrency: string): XmlNode {
  return el('cac:TaxTotal', {}, amount('cbc:TaxAmount', t.tax, t.currency),
    ...t.subtotals.map((s) => el('cac:TaxSubtotal', {},
      amount('cbc:TaxableAmount', s.taxable, t.currency),
      amount('cbc:TaxAmount', s.tax, t.currency),
      s.baseUnitMeasure && el('cbc:BaseUnitMeasure', { unitCode: s.baseUnitMeasure.unitCode }, formatDecimal(s.baseUnitMeasure.value)),
      s.perUnitAmount && el('cbc:PerUnitAmount', { currencyID: unitCurrency }, formatDecimal(s.perUnitAmount)),
      taxCategory('cac:TaxCategory', s.category))));
}

function allowanceCharge(a: UblAllowanceCharge, currency: string): XmlNode {
  return el('cac:AllowanceCharge', {},
    el('cbc:ChargeIndicator', {}, String(a.charge)),
    el('cbc:AllowanceChargeReason', {}, a.reason),
    amount('cbc:Amount', a.amount, currency),
    a.category && taxCategory('cac:TaxCategory', a.category));
}

function party(name: 'cac:AccountingSupplierParty' | 'cac:AccountingCustomerParty', p: UblParty): XmlNode {
  const a = p.address;
  return el(name, {}, el('cac:Party', {},
    el('cbc:EndpointID', { schemeID: p.endpoint.schemeId }, p.endpoint.id), // BT-34, BT-49
    p.industryClassification && el('cbc:IndustryClassificationCode', { name: p.industryClassification.name }, p.industryClassification.code),
    ...(p.identifications ?? []).map((i) => el('cac:PartyIdentification', {}, el('cbc:ID', { schemeID: i.schemeId }, i.id))), // BT-29, BT-46
    el('cac:PartyName', {}, el('cbc:Name', {}, p.name)), // BT-28, BT-45
    el('cac:PostalAddress', {},
      el('cbc:StreetName', {}, a.street),
      el('cbc:AdditionalStreetName', {}, a.additionalStreet),
      el('cbc:CityName', {}, a.city),
      el('cbc:PostalZone', {}, a.postalZone),
      el('cbc:CountrySubentity', {}, a.countrySubentity),
      el('cbc:CountrySubentityCode', {}, a.countrySubentityCode),
      ...(a.lines ?? []).map((l) => el('cac:AddressLine', {}, el('cbc:Line', {}, l))),
      el('cac:Country', {}, el('cbc:IdentificationCode', {}, a.country))),
    ...(p.taxSchemes ?? []).map((t) => el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, t.companyId), el('cac:TaxScheme', {}, el('cbc:ID', {}, t.taxScheme)))),
    el('cac:PartyLegalEntity', {},
      el('cbc:RegistrationName', {}, p.legalEntity.registrationName),
      p.legalEntity.companyId && el('cbc:CompanyID', { schemeID: p.legalEntity.companyId.schemeId }, p.legalEntity.companyId.id)),
    p.contact && el('cac:Contact', {}, el('cbc:Name', {}, p.contact.name), el('cbc:Telephone', {}, p.contact.telephone), el('cbc:ElectronicMail', {}, p.contact.email))));
}

/** The document as UTF-8 XML with its declaration. */
export function writeUbl(d: UblDocument): string {
  const isInvoice = d.root === 'Invoice';
  const cur = d.currency;
  const t = d.totals;
  const root = el(d.root, { xmlns: ublNamespaces[d.root], 'xmlns:cac': ublNamespaces.cac, 'xmlns:cbc': ublNamespaces.cbc },
    el('cbc:CustomizationID', {}, d.customizationId), // BT-24
    el('cbc:ProfileID', {}, d.profileId), // BT-23
    el('cbc:ID', {}, d.id), // BT-1
    el('cbc:UUID', {}, d.uuid),
    el('cbc:IssueDate', {}, d.issueDate), // BT-2
    el('cbc:IssueTime', {}, d.issueTime),
    isInvoice && el('cbc:DueDate', {}, d.dueDate), // BT-9
    el(isInvoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode', {}, d.typeCode), // BT-3
    el('cbc:Note', {}, d.note), // BT-22
    el('cbc:DocumentCurrencyCode', {}, cur), // BT-5
    el('cbc:TaxCurrencyCode', {}, d.taxCurrency), // BT-6
    el('cbc:BuyerReference', {}, d.buyerReference), // BT-10
    d.billingReference && el('cac:BillingReference', {}, el('cac:InvoiceDocumentReference', {},
      el('cbc:ID', {}, d.billingReference.id), el('cbc:UUID', {}, d.billingReference.uuid), el('cbc:IssueDate', {}, d.billingReference.issueDate))), // BT-25, BT-26
    ...(d.additionalDocumentReferences ?? []).map((r) => el('cac:AdditionalDocumentReference', {},
      el('cbc:ID', {}, r.id), el('cbc:DocumentTypeCode', {}, r.typeCode), el('cbc:DocumentDescription', {}, r.description))),
    party('cac:AccountingSupplierParty', d.seller),
    party('cac:AccountingCustomerParty', d.buyer),
    d.delivery && el('cac:Delivery', {}, el('cbc:ActualDeliveryDate', {}, d.delivery.date), // BT-72
      el('cac:DeliveryLocation', {}, el('cac:Address', {}, el('cac:Country', {}, el('cbc:IdentificationCode', {}, d.delivery.country))))), // BT-80
    d.paymentMeans && el('cac:PaymentMeans', {},
      el('cbc:PaymentMeansCode', {}, d.paymentMeans.code), // BT-81
      el('cbc:PaymentDueDate', {}, d.paymentMeans.dueDate),
      d.paymentMeans.account && el('cac:PayeeFinancialAccount', {},
        el('cbc:ID', {}, d.paymentMeans.account.id), el('cbc:Name', {}, d.paymentMeans.account.name))), // BT-84, BT-85
    el('cac:PaymentTerms', {}, el('cbc:Note', {}, d.paymentTerms)), // BT-20
    ...(d.allowanceCharges ?? []).map((a) => allowanceCharge(a, cur)),
    ...d.taxTotals.map((total) => taxTotal(total, cur)), // BT-110, BT-111
    el('cac:LegalMonetaryTotal', {},
      amount('cbc:LineExtensionAmount', t.lineExtension, cur), // BT-106
      amount('cbc:TaxExclusiveAmount', t.taxExclusive, cur), // BT-109
      amount('cbc:TaxInclusiveAmount', t.taxInclusive, cur), // BT-112
      optionalAmount('cbc:AllowanceTotalAmount', t.allowanceTotal, cur), // BT-107
      optionalAmount('cbc:ChargeTotalAmount', t.chargeTotal, cur), // BT-108
      optionalAmount('cbc:PrepaidAmount', t.prepaid, cur), // BT-113
      amount('cbc:PayableAmount', t.payable, cur)), // BT-115
    ...d.lines.map((l, i) => el(isInvoice ? 'cac:InvoiceLine' : 'cac:CreditNoteLine', {},
      el('cbc:ID', {}, String(i + 1)), // BT-126
      el(isInvoice ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity', { unitCode: l.unitCode }, formatDecimal(l.quantity)), // BT-129, BT-130
      amount('cbc:LineExtensionAmount', l.lineExtension, cur), // BT-131
      ...(l.allowanceCharges ?? []).map((a) => allowanceCharge(a, cur)),
      l.taxTotal && taxTotal(l.taxTotal, cur),
      el('cac:Item', {},
        el('cbc:Name', {}, l.item.name), // BT-153
        ...(l.item.classifications ?? []).map((c) => el('cac:CommodityClassification', {}, el('cbc:ItemClassificationCode', { listID: c.listId }, c.code))), // BT-158
        ...l.item.taxCategories.map((c) => taxCategory('cac:ClassifiedTaxCategory', c))), // BT-151, BT-152
      el('cac:Price', {}, el('cbc:PriceAmount', { currencyID: cur }, formatDecimal(l.price)))))); // BT-146
  return toXml(root);
}
