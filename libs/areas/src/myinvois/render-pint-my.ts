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
import { dec, formatAmount, formatDecimal, mulRound2, sum } from '../shared/money';
import { el, leaf, toXml, XmlChild, XmlNode } from '../shared/xml';
import { typeCodeOf, ublNamespaces } from './document-tree';
import type { AmountReason, DocumentBase, MyInvoisDocument, TaxType } from './schema-document';
import type { MyInvoisSupplier } from './schema-onboarding';
import { computeTotals } from './totals';
import { customerParty, PartyData, sellerParty, supplierParty } from './tree-parties';

/** PINT MY specification and process identifiers (BT-24, BT-23) per specification. */
export const pintMyIds = {
  billing: { customizationId: 'urn:peppol:pint:billing-1@my-1', profileId: 'urn:peppol:bis:billing' },
  selfbilling: { customizationId: 'urn:peppol:pint:selfbilling-1@my-1', profileId: 'urn:peppol:bis:selfbilling' },
} as const;

/** MyInvois TaxType → PINT MY tax category (aligned-ibrp-cl-01-my) and tax scheme. */
export const pintMyCategories: Readonly<Record<TaxType, { code: string; scheme: 'VAT' | 'AAL'; rate: boolean }>> = {
  '01': { code: 'SA', scheme: 'VAT', rate: true },
  '02': { code: 'SE', scheme: 'VAT', rate: true },
  '03': { code: 'TTX', scheme: 'AAL', rate: false },
  '04': { code: 'HVG', scheme: 'VAT', rate: true },
  '05': { code: 'LVG', scheme: 'VAT', rate: true },
  '06': { code: 'O', scheme: 'VAT', rate: false },
  E: { code: 'E', scheme: 'VAT', rate: true },
};

/** ISO 3166-1 alpha-3 (MyInvois) → alpha-2 (PINT): Malaysia's main trading partners. */
export const alpha2Of: Readonly<Record<string, string>> = {
  MYS: 'MY', SGP: 'SG', IDN: 'ID', THA: 'TH', BRN: 'BN', PHL: 'PH', VNM: 'VN', KHM: 'KH', LAO: 'LA', MMR: 'MM',
  CHN: 'CN', HKG: 'HK', TWN: 'TW', JPN: 'JP', KOR: 'KR', IND: 'IN', PAK: 'PK', BGD: 'BD', LKA: 'LK', ARE: 'AE',
  SAU: 'SA', AUS: 'AU', NZL: 'NZ', USA: 'US', CAN: 'CA', GBR: 'GB', IRL: 'IE', DEU: 'DE', FRA: 'FR', NLD: 'NL',
  BEL: 'BE', ITA: 'IT', ESP: 'ES', CHE: 'CH', SWE: 'SE', DNK: 'DK', NOR: 'NO',
};

function alpha2(code: string): string {
  const a2 = alpha2Of[code];
  if (!a2) throw new RangeError(`PINT MY: no ISO 3166-1 alpha-2 mapping for country ${code}`);
  return a2;
}

interface Roots { root: 'Invoice' | 'CreditNote'; typeCode: string }

/**
 * MyInvois type → UBL root and UNTDID 1001 code: 01 → 380, 02 and 04 (refund: value returns to
 * the buyer) → CreditNote 381, 03 → 383; self-billed 11 → 389, 12 and 14 → CreditNote 261, 13 → 527.
 */
export function pintMyType(code: string): Roots {
  const table: Record<string, Roots> = {
    '01': { root: 'Invoice', typeCode: '380' }, '02': { root: 'CreditNote', typeCode: '381' },
    '03': { root: 'Invoice', typeCode: '383' }, '04': { root: 'CreditNote', typeCode: '381' },
    '11': { root: 'Invoice', typeCode: '389' }, '12': { root: 'CreditNote', typeCode: '261' },
    '13': { root: 'Invoice', typeCode: '527' }, '14': { root: 'CreditNote', typeCode: '261' },
  };
  return table[code];
}

const money = (name: string, v: Decimal, cur: string) => el(name, { currencyID: cur }, formatAmount(v));

function party(p: PartyData, seller: boolean): XmlNode {
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
      el('cac:Country', {}, el('cbc:IdentificationCode', {}, alpha2(p.address.country)))),
    seller ? el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, p.tin), el('cac:TaxScheme', {}, el('cbc:ID', {}, 'GST'))) : undefined,
    p.sst !== 'NA' ? el('cac:PartyTaxScheme', {}, el('cbc:CompanyID', {}, p.sst.split(';')[0]), el('cac:TaxScheme', {}, el('cbc:ID', {}, 'VAT'))) : undefined,
    el('cac:PartyLegalEntity', {}, el('cbc:RegistrationName', {}, p.name), el('cbc:CompanyID', {}, brn)),
    el('cac:Contact', {}, leaf('cbc:Telephone', p.telephone), leaf('cbc:ElectronicMail', p.email)));
}

interface LineTax { category: (typeof pintMyCategories)[TaxType]; percent: Decimal; reason?: string }

/** The one tax of a line PINT MY can carry (one ClassifiedTaxCategory, ibt-151/152). */
function lineTax(doc: DocumentBase, i: number): LineTax {
  const taxes = doc.InvoiceLines[i].LineTaxes;
  if (taxes.length !== 1) throw new RangeError(`PINT MY: InvoiceLines[${i}] must carry exactly one tax (one ClassifiedTaxCategory)`);
  const t = taxes[0];
  const category = pintMyCategories[t.TaxType];
  if (category.rate && t.TaxRate === undefined && t.TaxType !== 'E') {
    throw new RangeError(`PINT MY: InvoiceLines[${i}] per-unit tax is only rendered for tourism tax (TaxType 03)`);
  }
  return { category, percent: category.rate ? dec(t.TaxRate ?? 0).times(100) : dec(0), reason: t.TaxExemptionReason };
}

function taxCategory(name: string, t: LineTax): XmlNode {
  return el(name, {}, el('cbc:ID', {}, t.category.code), t.category.rate ? el('cbc:Percent', {}, formatDecimal(t.percent)) : undefined,
    name === 'cac:TaxCategory' && t.category.code === 'E' ? leaf('cbc:TaxExemptionReason', t.reason ?? 'Exempt') : undefined,
    el('cac:TaxScheme', {}, el('cbc:ID', {}, t.category.scheme)));
}

/**
 * PINT MY UBL of a parsed document. Breakdowns follow EN 16931 (per category and rate, tax =
 * round2(taxable × rate)); TTX is the per-unit amounts. Document-level discounts and charges
 * take the category of a single-category document.
 * @throws RangeError for what PINT MY cannot carry from this body (README "PINT MY limits")
 */
export function renderPintMy(doc: MyInvoisDocument, supplier: MyInvoisSupplier): string {
  const body: DocumentBase = doc.body;
  const cur = body.DocumentCurrencyCode ?? 'MYR';
  const totals = computeTotals({ ...body, InvoiceTotal: undefined });
  const spec = doc.kind === 'self-billed' ? pintMyIds.selfbilling : pintMyIds.billing;
  const { root, typeCode } = pintMyType(typeCodeOf(doc.kind, body.InvoiceTypeCode));
  const seller = doc.kind === 'self-billed' ? sellerParty(doc.body.SupplierParty) : supplierParty(supplier);
  const buyer = doc.kind === 'self-billed' ? supplierParty(supplier) : customerParty(doc.body.CustomerParty, doc.kind === 'consolidated');
  const taxes = body.InvoiceLines.map((_, i) => lineTax(body, i));
  const groups = new Map<string, { tax: LineTax; nets: Decimal[]; perUnit: Decimal[] }>();
  taxes.forEach((t, i) => {
    const key = `${t.category.code}|${t.percent.toString()}`;
    const g = groups.get(key) ?? { tax: t, nets: [], perUnit: [] };
    g.nets.push(totals.lines[i].net);
    g.perUnit.push(totals.lines[i].tax);
    groups.set(key, g);
  });
  const docAc = [...(body.Discounts ?? []).map((a) => [a, false] as const), ...(body.Charges ?? []).map((a) => [a, true] as const)];
  if (docAc.length && groups.size > 1) throw new RangeError('PINT MY: document-level Discounts or Charges need a single-category document');
  const adjust = totals.chargeTotal.minus(totals.allowanceTotal);
  const breakdown = [...groups.values()].map((g) => {
    const taxable = sum(g.nets).plus(adjust);
    const amount = g.tax.category.code === 'TTX' ? sum(g.perUnit) : g.tax.category.rate ? mulRound2(taxable, g.tax.percent.dividedBy(100)) : dec(0);
    return { tax: g.tax, taxable, amount };
  });
  const taxTotal = sum(breakdown.map((b) => b.amount));
  const inclusive = totals.taxExclusive.plus(taxTotal);
  const ac = (a: AmountReason, charge: boolean, t?: LineTax): XmlNode => el('cac:AllowanceCharge', {},
    el('cbc:ChargeIndicator', {}, String(charge)), el('cbc:AllowanceChargeReason', {}, a.Reason ?? (charge ? 'Charge' : 'Discount')),
    money('cbc:Amount', dec(a.Amount), cur), t ? taxCategory('cac:TaxCategory', t) : undefined);
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
    el('cac:AccountingSupplierParty', {}, party(seller, true)),
    el('cac:AccountingCustomerParty', {}, party(buyer, false)),
    el('cac:PaymentTerms', {}, el('cbc:Note', {}, 'As agreed')),
    ...docAc.map(([a, charge]) => ac(a, charge, breakdown[0]?.tax)),
    ...taxTotals(cur, taxTotal, breakdown, body),
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
      // aligned-ibrp-ttx-09: the document TTX amount is the sum of the TTX lines' own tax totals.
      taxes[i].category.code === 'TTX' ? el('cac:TaxTotal', {}, money('cbc:TaxAmount', totals.lines[i].tax, cur),
        el('cac:TaxSubtotal', {}, money('cbc:TaxableAmount', totals.lines[i].net, cur), money('cbc:TaxAmount', totals.lines[i].tax, cur),
          el('cbc:PerUnitAmount', { currencyID: cur }, formatAmount(totals.lines[i].taxes[0].perUnit ?? 0)),
          taxCategory('cac:TaxCategory', taxes[i]))) : undefined,
      el('cac:Item', {},
        el('cbc:Name', {}, l.Description),
        ...l.ClassificationCode.map((c) => el('cac:CommodityClassification', {}, el('cbc:ItemClassificationCode', { listID: 'CG' }, c))),
        taxCategory('cac:ClassifiedTaxCategory', taxes[i])),
      el('cac:Price', {}, el('cbc:PriceAmount', { currencyID: cur }, formatDecimal(l.PriceAmount))))));
  return toXml(rootNode);
}

interface Breakdown { tax: LineTax; taxable: Decimal; amount: Decimal }

/** BG-23 breakdowns; in a foreign currency also the tax in MYR (ibt-111, ibr-cl-05-my). */
function taxTotals(cur: string, taxTotal: Decimal, breakdown: readonly Breakdown[], body: DocumentBase): XmlChild[] {
  const rate = body.TaxExchangeRate === undefined ? undefined : dec(body.TaxExchangeRate);
  return [
    el('cac:TaxTotal', {}, money('cbc:TaxAmount', taxTotal, cur),
      ...breakdown.map((b) => el('cac:TaxSubtotal', {}, money('cbc:TaxableAmount', b.taxable, cur), money('cbc:TaxAmount', b.amount, cur), taxCategory('cac:TaxCategory', b.tax)))),
    cur !== 'MYR' && rate ? el('cac:TaxTotal', {}, money('cbc:TaxAmount', taxTotal.times(rate), 'MYR')) : undefined,
  ];
}
