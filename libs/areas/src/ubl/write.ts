/** Writes a UblDocument (document.ts) as UBL 2.1 XML, each element in its XSD sequence. */
import type Decimal from 'decimal.js';
import { formatAmount, formatDecimal } from '../shared/money';
import { el, toXml, type XmlNode } from '../shared/xml';
import type {
  UblAddress, UblAllowanceCharge, UblDocument, UblDocumentReference, UblIdentifier, UblLine, UblOtherParty, UblParty,
  UblPaymentMeans, UblPaymentTerm, UblTaxCategory, UblTaxTotal,
} from './document';

export const ublNamespaces = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

const amount = (name: string, value: Decimal, currency: string): XmlNode => el(name, { currencyID: currency }, formatAmount(value));
const optionalAmount = (name: string, value: Decimal | undefined, currency: string) => value && amount(name, value, currency);
const identifier = (name: string, i: UblIdentifier | undefined) => i
  && el(name, { schemeID: i.schemeId, schemeAgencyID: i.schemeAgencyId, schemeAgencyName: i.schemeAgencyName }, i.id);
const reference = (name: string, id: string | undefined) => id && el(name, {}, el('cbc:ID', {}, id));

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
    el('cbc:AllowanceChargeReasonCode', {}, a.reasonCode),
    el('cbc:AllowanceChargeReason', {}, a.reason),
    a.multiplier && el('cbc:MultiplierFactorNumeric', {}, formatDecimal(a.multiplier)),
    amount('cbc:Amount', a.amount, currency),
    optionalAmount('cbc:BaseAmount', a.baseAmount, currency),
    a.category && taxCategory('cac:TaxCategory', a.category));
}

function address(name: 'cac:PostalAddress' | 'cac:Address', a: UblAddress | undefined): XmlNode | undefined {
  return a && el(name, {},
    el('cbc:StreetName', {}, a.street),
    el('cbc:AdditionalStreetName', {}, a.additionalStreet),
    el('cbc:CityName', {}, a.city),
    el('cbc:PostalZone', {}, a.postalZone),
    el('cbc:CountrySubentity', {}, a.countrySubentity),
    el('cbc:CountrySubentityCode', {}, a.countrySubentityCode),
    ...(a.lines ?? []).map((l) => el('cac:AddressLine', {}, el('cbc:Line', {}, l))),
    el('cac:Country', {}, el('cbc:IdentificationCode', {}, a.country)));
}

const partyTaxSchemes = (schemes: UblParty['taxSchemes']) => (schemes ?? [])
  .map((t) => el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, t.companyId), el('cac:TaxScheme', {}, el('cbc:ID', {}, t.taxScheme))));

function party(name: 'cac:AccountingSupplierParty' | 'cac:AccountingCustomerParty', p: UblParty): XmlNode {
  return el(name, {}, el('cac:Party', {},
    el('cbc:EndpointID', { schemeID: p.endpoint.schemeId }, p.endpoint.id), // BT-34, BT-49
    p.industryClassification && el('cbc:IndustryClassificationCode', { name: p.industryClassification.name }, p.industryClassification.code),
    ...(p.identifications ?? []).map((i) => el('cac:PartyIdentification', {}, identifier('cbc:ID', i))), // BT-29, BT-46
    el('cac:PartyName', {}, el('cbc:Name', {}, p.name)), // BT-28, BT-45
    address('cac:PostalAddress', p.address),
    ...partyTaxSchemes(p.taxSchemes),
    el('cac:PartyLegalEntity', {},
      el('cbc:RegistrationName', {}, p.legalEntity.registrationName),
      identifier('cbc:CompanyID', p.legalEntity.companyId)),
    p.contact && el('cac:Contact', {}, el('cbc:Name', {}, p.contact.name), el('cbc:Telephone', {}, p.contact.telephone), el('cbc:ElectronicMail', {}, p.contact.email))));
}

/** The body of a cac:Party (or of PayeeParty / TaxRepresentativeParty, which are PartyType themselves). */
function otherParty(name: string, p: UblOtherParty | undefined, wrapInParty = false): XmlNode | undefined {
  if (!p) return undefined;
  const body = [
    ...(p.identifications ?? []).map((i) => el('cac:PartyIdentification', {}, identifier('cbc:ID', i))),
    el('cac:PartyName', {}, el('cbc:Name', {}, p.name)),
    address('cac:PostalAddress', p.address),
    ...partyTaxSchemes(p.taxSchemes),
    el('cac:PartyLegalEntity', {}, identifier('cbc:CompanyID', p.legalCompanyId)),
  ];
  return wrapInParty ? el(name, {}, el('cac:Party', {}, ...body)) : el(name, {}, ...body);
}

function documentReference(r: UblDocumentReference): XmlNode {
  return el('cac:AdditionalDocumentReference', {},
    el('cbc:ID', { schemeID: r.schemeId }, r.id),
    el('cbc:DocumentTypeCode', {}, r.typeCode),
    el('cbc:DocumentDescription', {}, r.description),
    el('cac:Attachment', {},
      r.embedded && el('cbc:EmbeddedDocumentBinaryObject', { mimeCode: r.embedded.mimeCode, filename: r.embedded.filename }, r.embedded.base64),
      r.uri && el('cac:ExternalReference', {}, el('cbc:URI', {}, r.uri))));
}

function paymentMeans(m: UblPaymentMeans): XmlNode {
  return el('cac:PaymentMeans', {},
    el('cbc:PaymentMeansCode', { name: m.name }, m.code), // BT-81, BT-82
    el('cbc:PaymentDueDate', {}, m.dueDate),
    el('cbc:PaymentID', {}, m.paymentId), // BT-83
    m.card && el('cac:CardAccount', {},
      el('cbc:PrimaryAccountNumberID', {}, m.card.primaryAccountNumber), el('cbc:NetworkID', {}, m.card.networkId), el('cbc:HolderName', {}, m.card.holderName)),
    m.account && el('cac:PayeeFinancialAccount', {},
      el('cbc:ID', {}, m.account.id), el('cbc:Name', {}, m.account.name), // BT-84, BT-85
      m.account.branchId && el('cac:FinancialInstitutionBranch', {}, el('cbc:ID', {}, m.account.branchId))), // BT-86
    m.mandateId && el('cac:PaymentMandate', {}, el('cbc:ID', {}, m.mandateId))); // BT-89
}

function paymentTerms(terms: UblDocument['paymentTerms'], currency: string): XmlNode[] {
  if (terms === undefined) return [];
  const list: readonly UblPaymentTerm[] = typeof terms === 'string' ? [{ note: terms }] : terms;
  return list.map((t) => el('cac:PaymentTerms', {},
    el('cbc:Note', {}, t.note), // BT-20
    optionalAmount('cbc:Amount', t.amount, currency),
    el('cbc:InstallmentDueDate', {}, t.installmentDueDate)));
}

function line(l: UblLine, index: number, isInvoice: boolean, cur: string): XmlNode {
  const allowances = (l.allowanceCharges ?? []).map((a) => allowanceCharge(a, cur));
  const tax = l.taxTotal && taxTotal(l.taxTotal, cur);
  return el(isInvoice ? 'cac:InvoiceLine' : 'cac:CreditNoteLine', {},
    el('cbc:ID', {}, l.id ?? String(index + 1)), // BT-126
    el(isInvoice ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity', { unitCode: l.unitCode }, formatDecimal(l.quantity)), // BT-129, BT-130
    amount('cbc:LineExtensionAmount', l.lineExtension, cur), // BT-131
    // The XSD orders these two differently in InvoiceLine and CreditNoteLine.
    ...(isInvoice ? [...allowances, tax] : [tax, ...allowances]),
    el('cac:Item', {},
      el('cbc:Description', {}, l.item.description), // BT-154
      el('cbc:Name', {}, l.item.name), // BT-153
      l.item.standardId && el('cac:StandardItemIdentification', {}, identifier('cbc:ID', l.item.standardId)), // BT-157
      ...(l.item.additionalIds ?? []).map((i) => el('cac:AdditionalItemIdentification', {}, identifier('cbc:ID', i))),
      ...(l.item.classifications ?? []).map((c) => el('cac:CommodityClassification', {},
        el('cbc:NatureCode', {}, c.natureCode),
        el('cbc:CommodityCode', {}, c.commodityCode),
        el('cbc:ItemClassificationCode', { listID: c.listId, listVersionID: c.listVersionId }, c.code))), // BT-158
      ...l.item.taxCategories.map((c) => taxCategory('cac:ClassifiedTaxCategory', c))), // BT-151, BT-152
    el('cac:Price', {},
      el('cbc:PriceAmount', { currencyID: cur }, formatDecimal(l.price)), // BT-146
      l.priceBaseQuantity && el('cbc:BaseQuantity', { unitCode: l.unitCode }, formatDecimal(l.priceBaseQuantity)), // BT-149
      l.priceDiscount && el('cac:AllowanceCharge', {},
        el('cbc:ChargeIndicator', {}, 'false'),
        el('cbc:Amount', { currencyID: cur }, formatDecimal(l.priceDiscount.amount)), // BT-147
        el('cbc:BaseAmount', { currencyID: cur }, formatDecimal(l.priceDiscount.gross)))), // BT-148
    l.priceExtension && el('cac:ItemPriceExtension', {},
      amount('cbc:Amount', l.priceExtension.amount, cur),
      l.priceExtension.tax && el('cac:TaxTotal', {}, amount('cbc:TaxAmount', l.priceExtension.tax, cur))));
}

/** The document as UTF-8 XML with its declaration. */
export function writeUbl(d: UblDocument): string {
  const isInvoice = d.root === 'Invoice';
  const cur = d.currency;
  const t = d.totals;
  const billingReferences = [...(d.billingReference ? [d.billingReference] : []), ...(d.billingReferences ?? [])];
  const additional = (d.additionalDocumentReferences ?? []).map(documentReference);
  const allowances = (d.allowanceCharges ?? []).map((a) => allowanceCharge(a, cur));
  const rate = d.taxExchangeRate && el('cac:TaxExchangeRate', {},
    el('cbc:SourceCurrencyCode', {}, d.taxExchangeRate.source),
    el('cbc:TargetCurrencyCode', {}, d.taxExchangeRate.target),
    el('cbc:CalculationRate', {}, formatDecimal(d.taxExchangeRate.rate)));
  const statement = reference('cac:StatementDocumentReference', d.statementReference);
  const originator = reference('cac:OriginatorDocumentReference', d.originatorReference);
  const delivery = d.delivery;
  const root = el(d.root, { xmlns: ublNamespaces[d.root], 'xmlns:cac': ublNamespaces.cac, 'xmlns:cbc': ublNamespaces.cbc },
    el('cbc:CustomizationID', {}, d.customizationId), // BT-24
    el('cbc:ProfileID', {}, d.profileId), // BT-23
    el('cbc:ProfileExecutionID', {}, d.profileExecutionId),
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
    d.invoicePeriod && el('cac:InvoicePeriod', {}, el('cbc:StartDate', {}, d.invoicePeriod.start), el('cbc:EndDate', {}, d.invoicePeriod.end),
      el('cbc:DescriptionCode', {}, d.invoicePeriod.descriptionCode)), // BG-14
    !isInvoice && d.discrepancyResponseCode && el('cac:DiscrepancyResponse', {}, el('cbc:ResponseCode', {}, d.discrepancyResponseCode)),
    d.orderReference && el('cac:OrderReference', {}, el('cbc:ID', {}, d.orderReference.id), el('cbc:SalesOrderID', {}, d.orderReference.salesOrderId)),
    ...billingReferences.map((b) => el('cac:BillingReference', {}, el('cac:InvoiceDocumentReference', {},
      el('cbc:ID', {}, b.id), el('cbc:UUID', {}, b.uuid), el('cbc:IssueDate', {}, b.issueDate)))), // BT-25, BT-26
    reference('cac:DespatchDocumentReference', d.despatchReference),
    reference('cac:ReceiptDocumentReference', d.receiptReference),
    // The XSD places statement and originator references before the contract in an Invoice, after the attachments in a CreditNote.
    isInvoice && statement,
    isInvoice && originator,
    d.contractReference && el('cac:ContractDocumentReference', {}, el('cbc:ID', {}, d.contractReference.id),
      el('cbc:DocumentDescription', {}, d.contractReference.description)),
    ...additional,
    !isInvoice && statement,
    !isInvoice && originator,
    isInvoice && reference('cac:ProjectReference', d.projectReference),
    party('cac:AccountingSupplierParty', d.seller),
    party('cac:AccountingCustomerParty', d.buyer),
    otherParty('cac:PayeeParty', d.payee),
    otherParty('cac:BuyerCustomerParty', d.buyerCustomer, true),
    otherParty('cac:SellerSupplierParty', d.sellerSupplier, true),
    otherParty('cac:TaxRepresentativeParty', d.taxRepresentative),
    delivery && el('cac:Delivery', {},
      el('cbc:ActualDeliveryDate', {}, delivery.date), // BT-72
      el('cac:DeliveryLocation', {}, identifier('cbc:ID', delivery.locationId), // BT-71
        delivery.address ? address('cac:Address', delivery.address)
          : el('cac:Address', {}, el('cac:Country', {}, el('cbc:IdentificationCode', {}, delivery.country)))), // BT-80
      el('cac:DeliveryParty', {}, el('cac:PartyName', {}, el('cbc:Name', {}, delivery.partyName)))), // BT-70
    ...(d.paymentMeans === undefined ? [] : Array.isArray(d.paymentMeans) ? d.paymentMeans : [d.paymentMeans as UblPaymentMeans]).map(paymentMeans),
    ...paymentTerms(d.paymentTerms, cur),
    ...(isInvoice ? [...allowances, rate] : [rate, ...allowances]),
    ...d.taxTotals.map((total) => taxTotal(total, cur)), // BT-110, BT-111
    el('cac:LegalMonetaryTotal', {},
      amount('cbc:LineExtensionAmount', t.lineExtension, cur), // BT-106
      amount('cbc:TaxExclusiveAmount', t.taxExclusive, cur), // BT-109
      amount('cbc:TaxInclusiveAmount', t.taxInclusive, cur), // BT-112
      optionalAmount('cbc:AllowanceTotalAmount', t.allowanceTotal, cur), // BT-107
      optionalAmount('cbc:ChargeTotalAmount', t.chargeTotal, cur), // BT-108
      optionalAmount('cbc:PrepaidAmount', t.prepaid, cur), // BT-113
      amount('cbc:PayableAmount', t.payable, cur)), // BT-115
    ...d.lines.map((l, i) => line(l, i, isInvoice, cur)));
  return toXml(root);
}
