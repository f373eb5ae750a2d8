/**
 * PINT MY 1.3.1 (OpenPeppol, Malaysia) UBL for `transport_mode: peppol`, rendered from the same
 * parsed document and the same totals as the MyInvois forms. Identifiers follow the official
 * examples (shared/conformance/pint-my/1.3.1/examples): CustomizationID
 * `urn:peppol:pint:billing-1@my-1` / `urn:peppol:pint:selfbilling-1@my-1`, ProfileID
 * `urn:peppol:bis:billing` / `urn:peppol:bis:selfbilling`; TIN as EndpointID (scheme 0230) and
 * PartyTaxScheme GST (ibt-032, ibr-04-my), BRN as legal registration (ibt-030/047, ibr-02/03-my),
 * SST as PartyTaxScheme VAT.
 */
import Decimal from 'decimal.js';
import { dec, formatAmount, formatDecimal } from '../shared/money';
import { el, leaf, toXml, XmlChild, XmlNode } from '../shared/xml';
import { toAlpha2 } from './country-codes';
import { typeCodeOf, ublNamespaces } from './document-tree';
import { pintMyIds, pintMyType, PintMyUnsupported } from './pint-my-codes';
import { documentLevelCategory, PintMyCategory, PintMyLine, pintMyTaxes, PintMyTaxes } from './pint-my-taxes';
import type { AmountReason, DocumentBase, MyInvoisDocument } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import { computeTotals } from './totals';
import { customerParty, PartyData, sellerParty, supplierParty } from './tree-parties';


const money = (name: string, v: Decimal, cur: string) => el(name, { currencyID: cur }, formatAmount(v));

/** Alpha-2 of a party's country (ibr-cl-14); `path` names the body field it came from. */
function alpha2(code: string, path: string): string {
  const a2 = toAlpha2(code);
  if (!a2) throw new PintMyUnsupported(path, 'ibr-cl-14', `${code} is not an ISO 3166-1 country code PINT MY can state as alpha-2`);
  return a2;
}

/** A party; `countryPath` is the body field of its country, for a refusal. */
function party(p: PartyData, seller: boolean, countryPath: string): XmlNode {
  const [l0, l1, ...rest] = p.address.lines;
  const brn = p.id.scheme === 'BRN' ? p.id.value : 'NA';
  return el('cac:Party', {},
    el('cbc:EndpointID', { schemeID: '0230' }, p.tin),
    seller && p.msic ? el('cbc:IndustryClassificationCode', { name: p.msic.description }, p.msic.code) : undefined,
    p.id.scheme === 'BRN' ? undefined : el('cac:PartyIdentification', {}, el('cbc:ID', {}, `${p.id.scheme}:${p.id.value}`)),
    el('cac:PartyName', {}, el('cbc:Name', {}, p.name)),
    el('cac:PostalAddress', {}, leaf('cbc:StreetName', l0), leaf('cbc:AdditionalStreetName', l1), el('cbc:CityName', {}, p.address.city),
      leaf('cbc:PostalZone', p.address.postalZone), el('cbc:CountrySubentityCode', {}, p.address.state),
      ...rest.map((l) => el('cac:AddressLine', {}, el('cbc:Line', {}, l))),
      el('cac:Country', {}, el('cbc:IdentificationCode', {}, alpha2(p.address.country, countryPath)))),
    seller ? el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, p.tin), el('cac:TaxScheme', {}, el('cbc:ID', {}, 'GST'))) : undefined,
    p.sst !== 'NA' ? el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, p.sst.split(';')[0]), el('cac:TaxScheme', {}, el('cbc:ID', {}, 'VAT'))) : undefined,
    el('cac:PartyLegalEntity', {}, el('cbc:RegistrationName', {}, p.name), el('cbc:CompanyID', {}, brn)),
    el('cac:Contact', {}, leaf('cbc:Telephone', p.telephone), leaf('cbc:ElectronicMail', p.email)));
}

/** TaxCategory (breakdowns, line subtotals, allowances) or ClassifiedTaxCategory (items). */
function taxCategory(name: 'cac:TaxCategory' | 'cac:ClassifiedTaxCategory', c: PintMyCategory): XmlNode {
  return el(name, {}, el('cbc:ID', {}, c.code), c.percent ? el('cbc:Percent', {}, formatDecimal(c.percent)) : undefined,
    name === 'cac:TaxCategory' && c.code === 'E' ? leaf('cbc:TaxExemptionReason', c.exemptionReason ?? 'Exempt') : undefined,
    el('cac:TaxScheme', {}, el('cbc:ID', {}, c.scheme)));
}

/** The line TaxTotal: one subtotal per LineTaxes entry, per-unit ones with their base and amount per unit. */
function lineTaxTotal(line: PintMyLine, cur: string, unit: string): XmlNode {
  return el('cac:TaxTotal', {}, money('cbc:TaxAmount', line.taxAmount, cur),
    ...line.taxes.map((t) => el('cac:TaxSubtotal', {}, money('cbc:TaxableAmount', t.taxable, cur), money('cbc:TaxAmount', t.amount, cur),
      t.baseUnit && el('cbc:BaseUnitMeasure', { unitCode: unit }, formatDecimal(t.baseUnit)),
      t.perUnit && el('cbc:PerUnitAmount', { currencyID: cur }, formatDecimal(t.perUnit)),
      taxCategory('cac:TaxCategory', t.category))));
}

/**
 * PINT MY UBL of a parsed document, with the lines, totals and taxes MyInvois computes
 * (pint-my-taxes.ts: one tax category per LineTaxes entry, per-unit taxes, untaxed
 * document-level discounts and charges).
 * @throws PintMyUnsupported (a RangeError) for what PINT MY cannot express, naming the field and rule
 */
export function renderPintMy(doc: MyInvoisDocument, supplier: MyInvoisSupplier): string {
  const body: DocumentBase = doc.body;
  const cur = body.DocumentCurrencyCode ?? 'MYR';
  const totals = computeTotals({ ...body, InvoiceTotal: undefined });
  const spec = doc.kind === 'self-billed' ? pintMyIds.selfbilling : pintMyIds.billing;
  const { root, typeCode } = pintMyType(typeCodeOf(doc.kind, body.InvoiceTypeCode));
  const [seller, sellerCountry] = doc.kind === 'self-billed' ? [sellerParty(doc.body.SupplierParty), 'SupplierParty.CountryCode'] : [supplierParty(supplier), 'supplier.country'];
  const [buyer, buyerCountry] = doc.kind === 'self-billed' ? [supplierParty(supplier), 'supplier.country']
    : [customerParty(doc.body.CustomerParty, doc.kind === 'consolidated'), 'CustomerParty.CountryCode'];
  const taxes = pintMyTaxes(body, totals);
  const docAc = [...(body.Discounts ?? []).map((a) => [a, false] as const), ...(body.Charges ?? []).map((a) => [a, true] as const)];
  const inclusive = totals.taxExclusive.plus(taxes.total);
  const ac = (a: AmountReason, charge: boolean, c?: PintMyCategory): XmlNode => el('cac:AllowanceCharge', {},
    el('cbc:ChargeIndicator', {}, String(charge)), el('cbc:AllowanceChargeReason', {}, a.Reason ?? (charge ? 'Charge' : 'Discount')),
    money('cbc:Amount', dec(a.Amount), cur), c ? taxCategory('cac:TaxCategory', c) : undefined);
  const isInvoice = root === 'Invoice';
  const lineName = isInvoice ? 'cac:InvoiceLine' : 'cac:CreditNoteLine';
  const reference = body.InvoiceDocumentReference?.[0];
  const rootNode = el(root, { xmlns: `urn:oasis:names:specification:ubl:schema:xsd:${root}-2`, 'xmlns:cac': ublNamespaces.cac, 'xmlns:cbc': ublNamespaces.cbc },
    el('cbc:CustomizationID', {}, spec.customizationId),
    el('cbc:ProfileID', {}, spec.profileId),
    el('cbc:ID', {}, body.ID),
    el('cbc:IssueDate', {}, body.IssueDate),
    el('cbc:IssueTime', {}, body.IssueTime),
    el(isInvoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode', {}, typeCode),
    el('cbc:DocumentCurrencyCode', {}, cur),
    cur !== 'MYR' ? el('cbc:TaxCurrencyCode', {}, 'MYR') : undefined,
    el('cbc:BuyerReference', {}, body.ID),
    reference && el('cac:BillingReference', {}, el('cac:InvoiceDocumentReference', {}, el('cbc:ID', {}, reference.InternalID), el('cbc:UUID', {}, reference.UUID))),
    el('cac:AccountingSupplierParty', {}, party(seller, true, sellerCountry)),
    el('cac:AccountingCustomerParty', {}, party(buyer, false, buyerCountry)),
    el('cac:PaymentTerms', {}, el('cbc:Note', {}, 'As agreed')),
    ...docAc.map(([a, charge]) => ac(a, charge, documentLevelCategory)),
    ...taxTotals(cur, taxes, body),
    el('cac:LegalMonetaryTotal', {},
      money('cbc:LineExtensionAmount', totals.lineTotal, cur),
      money('cbc:TaxExclusiveAmount', totals.taxExclusive, cur),
      money('cbc:TaxInclusiveAmount', inclusive, cur),
      docAc.length ? money('cbc:AllowanceTotalAmount', totals.allowanceTotal, cur) : undefined,
      docAc.length ? money('cbc:ChargeTotalAmount', totals.chargeTotal, cur) : undefined,
      totals.prepaid.isZero() ? undefined : money('cbc:PrepaidAmount', totals.prepaid, cur),
      money('cbc:PayableAmount', inclusive.minus(totals.prepaid), cur)),
    ...body.InvoiceLines.map((l, i) => el(lineName, {},
      el('cbc:ID', {}, String(i + 1)),
      el(isInvoice ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity', { unitCode: l.UOM ?? 'C62' }, formatDecimal(totals.lines[i].quantity)),
      money('cbc:LineExtensionAmount', totals.lines[i].net, cur),
      ...(l.Discounts ?? []).map((a) => ac(a, false)),
      ...(l.Charges ?? []).map((a) => ac(a, true)),
      lineTaxTotal(taxes.lines[i], cur, l.UOM ?? 'C62'),
      el('cac:Item', {},
        el('cbc:Name', {}, l.Description),
        ...l.ClassificationCode.map((c) => el('cac:CommodityClassification', {}, el('cbc:ItemClassificationCode', { listID: 'CG' }, c))),
        ...taxes.lines[i].categories.map((c) => taxCategory('cac:ClassifiedTaxCategory', c))),
      el('cac:Price', {}, el('cbc:PriceAmount', { currencyID: cur }, formatDecimal(l.PriceAmount))))));
  return toXml(rootNode);
}

/** BG-23 breakdowns; in a foreign currency also the tax in MYR (ibt-111, ibr-cl-05-my). */
function taxTotals(cur: string, taxes: PintMyTaxes, body: DocumentBase): XmlChild[] {
  const rate = body.TaxExchangeRate === undefined ? undefined : dec(body.TaxExchangeRate);
  return [
    el('cac:TaxTotal', {}, money('cbc:TaxAmount', taxes.total, cur),
      ...taxes.breakdown.map((b) => el('cac:TaxSubtotal', {}, money('cbc:TaxableAmount', b.taxable, cur), money('cbc:TaxAmount', b.amount, cur),
        taxCategory('cac:TaxCategory', b.category)))),
    cur !== 'MYR' && rate ? el('cac:TaxTotal', {}, money('cbc:TaxAmount', taxes.total.times(rate), 'MYR')) : undefined,
  ];
}
