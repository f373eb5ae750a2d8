/**
 * PINT AE 2026.5 `PINT-jurisdiction-aligned-rules` (the UAE's own rules and the aligned PINT rules),
 * its two patterns in the official priority order. Each assert is the official XPath written in
 * TypeScript, under its official id (the texts: official-texts.ts).
 */
import Decimal from 'decimal.js';
import type { XmlElement } from '../../shared/xml-read';
import { type Mode, type RuleScope, type Template, isRoot, under } from './engine';
import { count, decimal, descendants, has, norm, one, path, round2, text } from './tree';
import { attrEq, attrNe, decimalIs, eq, flags, hasAttr, isVat, matches, ne, num, typeIs } from './xpath';

const COUNTRIES = /^(AF|AX|AL|DZ|AS|AD|AO|AI|AQ|AG|AR|AM|AW|AU|AT|AZ|BS|BH|BD|BB|BY|BE|BZ|BJ|BM|BT|BO|BQ|BA|BW|BV|BR|IO|BN|BG|BF|BI|CV|KH|CM|CA|KY|CF|TD|CL|CN|CX|CC|CO|KM|CG|CD|CK|CR|CI|HR|CU|CW|CY|CZ|DK|DJ|DM|DO|EC|EG|SV|GQ|ER|EE|SZ|ET|FK|FO|FJ|FI|FR|GF|PF|TF|GA|GM|GE|DE|GH|GI|GR|GL|GD|GP|GU|GT|GG|GN|GW|GY|HT|HM|VA|HN|HK|HU|IS|IN|ID|IR|IQ|IE|IM|IL|IT|JM|JP|JE|JO|KZ|KE|KI|KP|KR|KW|KG|LA|LV|LB|LS|LR|LY|LI|LT|LU|MO|MG|MW|MY|MV|ML|MT|MH|MQ|MR|MU|YT|MX|FM|MD|MC|MN|ME|MS|MA|MZ|MM|NA|NR|NP|NL|NC|NZ|NI|NE|NG|NU|NF|MP|NO|OM|PK|PW|PS|PA|PG|PY|PE|PH|PN|PL|PT|PR|QA|MK|RO|RU|RW|RE|BL|SH|KN|LC|MF|PM|VC|WS|SM|ST|SA|SN|RS|SC|SL|SG|SX|SK|SI|SB|SO|ZA|GS|SS|ES|LK|SD|SR|SJ|SE|CH|SY|TW|TJ|TZ|TH|TL|TG|TK|TO|TT|TN|TR|TM|TC|TV|UG|UA|AE|GB|US|UM|UY|UZ|VU|VE|VN|VG|VI|WF|EH|YE|ZM|ZW)$/;
const EMIRATES = ['AUH', 'DXB', 'SHJ', 'UAQ', 'FUJ', 'AJM', 'RAK'];
const LEGAL = 'cac:PartyLegalEntity/cbc:CompanyID';

/** ibr-010-ae / ibr-012-ae: a passport's issuing country is an ISO code. */
const passport = (party: XmlElement): boolean => {
  const ids = path(party, LEGAL);
  if (!ids.some((e) => e.attrs.schemeAgencyID !== undefined) || !attrEq(party, LEGAL, 'schemeAgencyID', 'PAS')) return true;
  const name = ids.find((e) => e.attrs.schemeAgencyName !== undefined)?.attrs.schemeAgencyName;
  return name !== undefined && COUNTRIES.test(name);
};
/** ibr-101-ae / ibr-172-ae: a trade licence names its issuing authority. */
const tradeLicence = (party: XmlElement): boolean => !attrEq(party, LEGAL, 'schemeAgencyID', 'TL') || hasAttr(party, LEGAL, 'schemeAgencyName');
const endpoint0235 = (party: XmlElement): boolean => attrEq(party, 'cbc:EndpointID', 'schemeID', '0235');
const endpointStarts19 = (party: XmlElement): boolean => /^[19]/.test(text(party, 'cbc:EndpointID'));

/** The document-level allowances (false) or charges (true) of a VAT category with a given rate test. */
function documentAllowanceCharges(root: XmlElement, charge: boolean, category: string, rate?: Decimal): XmlElement[] {
  return path(root, 'cac:AllowanceCharge').filter((a) => text(a, 'cbc:ChargeIndicator') === String(charge)
    && path(a, 'cac:TaxCategory').some((c) => norm(one(c, 'cbc:ID')) === category)
    && (rate === undefined || path(a, 'cac:TaxCategory').some((c) => decimal(one(c, 'cbc:Percent'))?.equals(rate))));
}
const sum = (values: Array<Decimal | undefined>): Decimal => values.reduce<Decimal>((s, v) => s.plus(v ?? 0), new Decimal(0));
const lineCategoryIs = (line: XmlElement, category: string) => path(line, 'cac:Item/cac:ClassifiedTaxCategory').some((c) => norm(one(c, 'cbc:ID')) === category);
const lineRateIs = (line: XmlElement, rate: Decimal) => path(line, 'cac:Item/cac:ClassifiedTaxCategory').some((c) => decimal(one(c, 'cbc:Percent'))?.equals(rate));
const slack = (expected: Decimal, value: Decimal, by: number) => expected.plus(by).gte(value) && expected.minus(by).lte(value);

/** aligned-ibrp-?-08: a breakdown's taxable amount is its category's lines plus charges minus allowances. */
function breakdownTaxable(category: string) {
  return (tc: XmlElement, scope: RuleScope): boolean => {
    const subtotal = scope.parent(tc) as XmlElement;
    const taxable = decimal(one(subtotal, 'cbc:TaxableAmount'));
    const check = (name: string) => {
      const lines = path(scope.root, name);
      if (lines.length === 0 && descendants(scope.root, name).length === 0) return false;
      const expected = sum(lines.filter((l) => lineCategoryIs(l, category)).map((l) => decimal(one(l, 'cbc:LineExtensionAmount'))))
        .plus(sum(documentAllowanceCharges(scope.root, true, category).map((a) => decimal(one(a, 'cbc:Amount')))))
        .minus(sum(documentAllowanceCharges(scope.root, false, category).map((a) => decimal(one(a, 'cbc:Amount')))));
      return taxable !== undefined && taxable.equals(expected);
    };
    return check('cac:InvoiceLine') || check('cac:CreditNoteLine');
  };
}

/** aligned-ibrp-s-08 / ibr-102-ae: per rate, the breakdown's taxable amount within 0.02 of its lines (and, for S, allowances and charges). */
function breakdownTaxableByRate(category: string, withAllowances: boolean) {
  return (tc: XmlElement, scope: RuleScope): boolean => {
    const rate = decimal(one(tc, 'cbc:Percent'));
    if (!rate) return false;
    const subtotal = scope.parent(tc) as XmlElement;
    const taxable = decimal(one(subtotal, 'cbc:TaxableAmount'));
    const check = (name: string) => {
      const lines = descendants(scope.root, name).filter((l) => lineCategoryIs(l, category) && lineRateIs(l, rate));
      const charges = withAllowances ? descendants(scope.root, 'cac:AllowanceCharge').filter((a) => path(a, 'cac:TaxCategory').some((c) => norm(one(c, 'cbc:ID')) === category)
        && path(a, 'cac:TaxCategory').some((c) => decimal(one(c, 'cbc:Percent'))?.equals(rate))) : [];
      if (lines.length === 0 && charges.length === 0) return false;
      const expected = sum(path(scope.root, name).filter((l) => lineCategoryIs(l, category) && lineRateIs(l, rate)).map((l) => decimal(one(l, 'cbc:LineExtensionAmount'))))
        .plus(withAllowances ? sum(documentAllowanceCharges(scope.root, true, category, rate).map((a) => decimal(one(a, 'cbc:Amount')))) : 0)
        .minus(withAllowances ? sum(documentAllowanceCharges(scope.root, false, category, rate).map((a) => decimal(one(a, 'cbc:Amount')))) : 0);
      // u:slack(xs:decimal(TaxableAmount), sum, 0.02); an absent TaxableAmount is an empty sequence: false.
      return taxable !== undefined && slack(taxable, expected, 0.02);
    };
    return check('cac:InvoiceLine') || check('cac:CreditNoteLine');
  };
}

/** aligned-ibrp-?-01: a category used anywhere has its breakdown (exactly one, or at least one for AE), and none without use. */
function categoryBreakdown(category: string, atLeast: boolean) {
  return (root: XmlElement): boolean => {
    const vatIds = (name: string) => descendants(root, name).filter(isVat).some((c) => norm(one(c, 'cbc:ID')) === category);
    const used = vatIds('cac:TaxCategory') || vatIds('cac:ClassifiedTaxCategory');
    const rows = path(root, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory').filter(isVat).filter((c) => path(c, 'cbc:ID').some((i) => norm(i) === category)).length;
    return (used && (atLeast ? rows >= 1 : rows === 1)) || !used;
  };
}

/** Line, document allowance or charge, and breakdown rules of one VAT category (their contexts, in priority order). */
const lineCategory = (category: string) => (el: XmlElement, scope: RuleScope) =>
  norm(one(el, 'cbc:ID')) === category && isVat(el) && (under('cac:InvoiceLine', 'cac:Item')(el, scope) || under('cac:CreditNoteLine', 'cac:Item')(el, scope));
const chargeCategory = (category: string, charge: boolean) => (el: XmlElement, scope: RuleScope) => {
  const parent = scope.parent(el);
  return norm(one(el, 'cbc:ID')) === category && isVat(el) && parent !== undefined && parent.name === 'AllowanceCharge' && text(parent, 'cbc:ChargeIndicator') === String(charge);
};
const breakdownCategory = (category: string) => (el: XmlElement, scope: RuleScope) =>
  norm(one(el, 'cbc:ID')) === category && isVat(el) && under('cac:TaxTotal', 'cac:TaxSubtotal')(el, scope) && scope.parent(scope.parent(scope.parent(el) as XmlElement) as XmlElement) === scope.root;
const zeroPercent = (el: XmlElement) => decimalIs(el, 'cbc:Percent', 0);
const positivePercent = (el: XmlElement) => (decimal(one(el, 'cbc:Percent'))?.gt(0) ?? false);
const subtotalTaxZero = (tc: XmlElement, scope: RuleScope) => decimalIs(scope.parent(tc), 'cbc:TaxAmount', 0);
const lineTaxZero = (tc: XmlElement, scope: RuleScope) => {
  const item = scope.parent(tc) as XmlElement;
  return path(scope.parent(item), 'cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount').some((e) => Number(e.text) === 0);
};

const m12: Mode = [
  { names: ['cac:Party'], match: under('cac:AccountingCustomerParty'), asserts: [
    ['ibr-010-ae', passport],
    ['ibr-101-ae', tradeLicence],
    ['ibr-149-ae', (p) => attrNe(p, 'cbc:EndpointID', 'schemeID', '0235') || endpointStarts19(p) || has(p, 'cac:PartyTaxScheme/cbc:CompanyID')],
    ['ibr-179-ae', (p) => count(p, 'cac:PartyTaxScheme/cbc:CompanyID') <= 1],
    ['ibr-135-ae', (p, s) => {
      const condition = !flags(s.root, /^[01]{7}1$/) && endpoint0235(p) && !matches(p, 'cbc:EndpointID', /^1\d{9}$/);
      return ((has(p, 'cac:PartyIdentification/cbc:ID') || has(p, 'cac:PartyTaxScheme/cbc:CompanyID')) && condition) || !condition;
    }],
    ['ibr-180-ae', (p) => !(endpoint0235(p) && has(p, LEGAL)) || hasAttr(p, LEGAL, 'schemeAgencyID')],
    ['ibr-183-ae', (p) => !has(p, LEGAL) || !endpoint0235(p) || endpointStarts19(p) || attrEq(p, LEGAL, 'schemeAgencyID', 'TL', 'CL', 'EID', 'PAS', 'CD')],
  ] },
  { names: ['cac:DeliveryTerms'], asserts: [['ibr-196-ae', (el) => has(el, 'cbc:ID')]] },
  { names: ['cac:PostalAddress'], match: under('cac:AccountingCustomerParty', 'cac:Party'), asserts: [
    ['ibr-144-ae', (a) => has(a, 'cbc:StreetName') && has(a, 'cbc:CityName') && has(a, 'cbc:CountrySubentity')],
  ] },
  { names: ['cac:PostalAddress'], match: under('cac:AccountingSupplierParty', 'cac:Party'), asserts: [
    ['ibr-143-ae', (a) => has(a, 'cbc:StreetName') && has(a, 'cbc:CityName') && has(a, 'cbc:CountrySubentity')],
  ] },
  { names: ['cac:Party'], match: under('cac:AccountingSupplierParty'), asserts: [
    ['ibr-012-ae', passport],
    ['ibr-172-ae', tradeLicence],
    ['ibr-177-ae', (p, s) => !flags(s.root, /^[01]{5}1[01]{2}$/) || has(p, 'cac:PartyTaxScheme/cbc:CompanyID')],
    ['ibr-178-ae', (p) => {
      const schemes = path(p, 'cac:PartyTaxScheme');
      return (schemes.length === 2 && schemes.filter((t) => eq(t, 'cac:TaxScheme/cbc:ID', 'VAT')).length === 1) || schemes.length < 2;
    }],
    ['ibr-150-ae', (p) => !(endpoint0235(p) && !has(p, LEGAL))],
    ['ibr-173-ae', (p) => !(has(p, LEGAL) && endpoint0235(p) && eq(p, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode', 'AE') && !attrEq(p, LEGAL, 'schemeAgencyID', 'TL', 'EID', 'PAS', 'CD'))],
    ['ibr-181-ae', (p) => !endpoint0235(p) || !has(p, LEGAL) || hasAttr(p, LEGAL, 'schemeAgencyID')],
  ] },
  { names: ['cac:AllowanceCharge'], match: under('cac:Price'), asserts: [
    ['aligned-ibrp-004', (a, s) => {
      if (!has(a, 'cbc:BaseAmount')) return true;
      const price = decimal(one(s.parent(a), 'cbc:PriceAmount'));
      const base = decimal(one(a, 'cbc:BaseAmount'));
      const amount = decimal(one(a, 'cbc:Amount'));
      return price !== undefined && base !== undefined && amount !== undefined && price.equals(base.minus(amount));
    }],
  ] },
  { names: ['cac:Price'], asserts: [['ibr-126-ae', (p) => has(p, 'cbc:BaseQuantity') && has(p, 'cac:AllowanceCharge/cbc:BaseAmount')]] },
  { names: ['cac:PaymentMeans'], asserts: [['ibr-192-ae', (m) => !eq(m, 'cbc:PaymentMeansCode', '30') || has(m, 'cac:PayeeFinancialAccount/cbc:ID')]] },
  { names: ['cac:PostalAddress'], asserts: [
    ['ibr-128-ae', (a) => (eq(a, 'cac:Country/cbc:IdentificationCode', 'AE') && eq(a, 'cbc:CountrySubentity', ...EMIRATES)) || !eq(a, 'cac:Country/cbc:IdentificationCode', 'AE')],
  ] },
  { names: ['cac:AllowanceCharge'], match: (a, s) => eq(a, 'cbc:ChargeIndicator', 'false') && !hasPriceAncestor(a, s), asserts: allowanceChargeAsserts(false) },
  { names: ['cac:AllowanceCharge'], match: (a) => eq(a, 'cbc:ChargeIndicator', 'true'), asserts: allowanceChargeAsserts(true) },
  { names: ['cbc:CalculationRate'], asserts: [['ibr-002-ae', (r) => /^[0-9]+(\.[0-9]{1,6})?$/.test(r.text)]] },
  { names: ['cac:InvoiceLine', 'cac:CreditNoteLine'], asserts: [
    ['ibr-104-ae', (l) => !path(l, 'cac:Item/cac:ClassifiedTaxCategory').some((c) => norm(one(c, 'cbc:ID')) !== 'E')
      || (has(l, 'cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount') && has(l, 'cac:ItemPriceExtension/cbc:Amount'))],
    ['ibr-111-ae', (l) => (eq(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID', 'N') && path(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:Percent').some((p) => Number(p.text) > 0))
      || !eq(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID', 'N')],
    ['ibr-145-ae', (l) => has(l, 'cac:Item/cac:ClassifiedTaxCategory')],
    ['ibr-147-ae', lineAmount],
    ['ibr-167-ae', (l) => !(eq(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID', 'E') && !has(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:TaxExemptionReasonCode'))],
    ['ibr-123-ae', (l, s) => (typeIs(s.root, '81', '480') && count(l, 'cac:Item/cac:ClassifiedTaxCategory') === 1) || !typeIs(s.root, '81', '480')],
    ['ibr-194-ae', (l) => has(l, 'cac:ItemPriceExtension/cbc:Amount')],
  ] },
  { names: ['*'], match: isRoot, asserts: documentAsserts() },
  { names: ['cac:Item'], asserts: [
    ['ibr-125-ae', (i) => has(i, 'cbc:Description')],
    ['ibr-166-ae', (i) => !eq(i, 'cac:ClassifiedTaxCategory/cbc:ID', 'AE') || has(i, 'cac:CommodityClassification/cbc:NatureCode')],
    ['ibr-184-ae', (i) => !eq(i, 'cac:CommodityClassification/cbc:CommodityCode', 'G') || has(i, 'cac:CommodityClassification/cbc:ItemClassificationCode')],
    ['ibr-185-ae', (i) => !eq(i, 'cac:CommodityClassification/cbc:CommodityCode', 'S') || has(i, 'cac:AdditionalItemIdentification/cbc:ID')],
    ['ibr-186-ae', (i) => !eq(i, 'cac:CommodityClassification/cbc:CommodityCode', 'B') || (has(i, 'cac:CommodityClassification/cbc:ItemClassificationCode') && has(i, 'cac:AdditionalItemIdentification/cbc:ID'))],
    // The official assert is `true()`: it never fails (kept so every official id has its rule).
    ['ibr-187-ae', () => true],
    ['ibr-188-ae', (i) => !has(i, 'cac:CommodityClassification/cbc:ItemClassificationCode') || attrEq(i, 'cac:CommodityClassification/cbc:ItemClassificationCode', 'listID', 'HS')],
    ['ibr-189-ae', (i) => !has(i, 'cac:AdditionalItemIdentification/cbc:ID') || attrEq(i, 'cac:AdditionalItemIdentification/cbc:ID', 'schemeID', 'SAC')],
  ] },
  { names: ['cac:TaxSubtotal'], asserts: [
    ['aligned-ibrp-045', (t) => has(t, 'cbc:TaxableAmount')],
    ['aligned-ibrp-046', (t) => has(t, 'cbc:TaxAmount')],
    ['aligned-ibrp-047', (t) => path(t, 'cac:TaxCategory').filter(isVat).some((c) => has(c, 'cbc:ID'))],
    ['aligned-ibrp-048', (t) => path(t, 'cac:TaxCategory').filter(isVat).some((c) => has(c, 'cbc:Percent'))
      || path(t, 'cac:TaxCategory').filter(isVat).some((c) => ['O', 'E'].includes(norm(one(c, 'cbc:ID'))))],
    ['ibr-119-ae', (t) => (eq(t, 'cac:TaxCategory/cbc:ID', 'O', 'E') && !has(t, 'cac:TaxCategory/cbc:Percent')) || (!eq(t, 'cac:TaxCategory/cbc:ID', 'O', 'E') && has(t, 'cac:TaxCategory/cbc:Percent'))],
  ] },
  ...categoryTemplates(),
  { names: ['cbc:CompanyID'], match: (c, s) => {
    const scheme = s.parent(c);
    const party = scheme && s.parent(scheme);
    return scheme?.name === 'PartyTaxScheme' && party?.name === 'Party' && eq(party, 'cac:PostalAddress/cac:Country/cbc:IdentificationCode', 'AE')
      && path(scheme, 'cac:TaxScheme/cbc:ID').some((e) => norm(e).toUpperCase() === 'VAT');
  }, asserts: [['ibr-132-ae', (c) => companyIdTrn(c.text)]] },
  { names: ['cbc:CompanyID'], match: (c, s) => {
    const scheme = s.parent(c);
    return scheme?.name === 'PartyTaxScheme' && under('cac:AccountingSupplierParty', 'cac:Party', 'cac:PartyTaxScheme')(c, s)
      && path(scheme, 'cac:TaxScheme/cbc:ID').some((e) => norm(e).toUpperCase() !== 'VAT');
  }, asserts: [['ibr-148-ae', (c) => /^1[0-9]{9}$/.test(c.text)]] },
  { names: ['cbc:ID'], match: (el, s) => s.parent(el)?.name === 'TaxScheme', asserts: [
    ['ibr-133-ae', (id, s) => id.text === 'VAT' || descendants(s.root, 'cac:AccountingSupplierParty').some((sp) => path(sp, 'cac:Party/cac:PartyTaxScheme/cbc:CompanyID')
      .some((c) => norm(c).length === 10 && norm(c).startsWith('1') && /^\d+$/.test(norm(c))))],
  ] },
];

/** ibr-132-ae: a TRN is 15 digits, starts with 1 and ends with 03. */
const companyIdTrn = (value: string) => value.length === 15 && value.startsWith('1') && value.endsWith('03') && /^[0-9]+$/.test(value);

function hasPriceAncestor(el: XmlElement, scope: RuleScope): boolean {
  for (let p = scope.parent(el); p; p = scope.parent(p)) if (p.name === 'Price') return true;
  return false;
}

function allowanceChargeAsserts(charge: boolean): Template['asserts'] {
  const [categoryRule, multiplierRule, amountRule, notN, exemptReason] = charge
    ? ['aligned-ibrp-037', 'aligned-ibrp-058', 'ibr-146-ae', 'ibr-114-ae', 'ibr-169-ae']
    : ['aligned-ibrp-032', 'aligned-ibrp-057', 'ibr-131-ae', 'ibr-115-ae', 'ibr-168-ae'];
  return [
    [categoryRule, (a, s) => s.parent(a) !== s.root || path(a, 'cac:TaxCategory').filter(isVat).some((c) => has(c, 'cbc:ID'))],
    [multiplierRule, (a) => !(has(a, 'cbc:MultiplierFactorNumeric') || has(a, 'cbc:BaseAmount')) || (has(a, 'cbc:MultiplierFactorNumeric') && has(a, 'cbc:BaseAmount'))],
    [amountRule, (a) => {
      if (!(has(a, 'cbc:BaseAmount') && has(a, 'cbc:MultiplierFactorNumeric'))) return true;
      const expected = (num(a, 'cbc:BaseAmount') * num(a, 'cbc:MultiplierFactorNumeric')) / 100;
      return num(a, 'cbc:Amount') === expected || num(a, 'cbc:Amount') === Math.floor(expected * 100 + 0.5) / 100;
    }],
    [notN, (a) => !eq(a, 'cac:TaxCategory/cbc:ID', 'N')],
    [exemptReason, (a) => !(eq(a, 'cac:TaxCategory/cbc:ID', 'E') && !has(a, 'cbc:AllowanceChargeReasonCode'))],
  ];
}

/** ibr-147-ae, in doubles as XPath's untyped arithmetic is. */
function lineAmount(line: XmlElement): boolean {
  const quantity = num(line, 'cbc:InvoicedQuantity') || num(line, 'cbc:CreditedQuantity');
  const q = Number.isNaN(num(line, 'cbc:InvoicedQuantity')) ? num(line, 'cbc:CreditedQuantity') : quantity;
  const charges = path(line, 'cac:AllowanceCharge').filter((a) => eq(a, 'cbc:ChargeIndicator', 'true')).reduce((s, a) => s + num(a, 'cbc:Amount'), 0);
  const allowances = path(line, 'cac:AllowanceCharge').filter((a) => eq(a, 'cbc:ChargeIndicator', 'false')).reduce((s, a) => s + num(a, 'cbc:Amount'), 0);
  const expected = q * (num(line, 'cac:Price/cbc:PriceAmount') / num(line, 'cac:Price/cbc:BaseQuantity')) + charges - allowances;
  const round = (x: number) => Math.floor(x + 0.5);
  return round(num(line, 'cbc:LineExtensionAmount') * 100) / 100 === round(expected * 100) / 100;
}

function documentAsserts(): Template['asserts'] {
  const allCategoryIds = (root: XmlElement) => [...descendants(root, 'cac:TaxCategory'), ...descendants(root, 'cac:ClassifiedTaxCategory')].flatMap((c) => path(c, 'cbc:ID'));
  return [
    ['aligned-ibrp-001-ae', (r) => ['urn:peppol:pint:billing-1@ae-1', 'urn:peppol:pint:selfbilling-1@ae-1'].some((c) => norm(one(r, 'cbc:CustomizationID')).startsWith(c))],
    ['aligned-ibrp-002-ae', (r) => has(r, 'cbc:ProfileID') && /^urn:peppol:bis:(billing|selfbilling)/.test(text(r, 'cbc:ProfileID'))],
    ['aligned-ibrp-e-01', categoryBreakdown('E', false)],
    ['aligned-ibrp-o-01', categoryBreakdown('O', false)],
    ['aligned-ibrp-s-01', (r) => {
      const used = descendants(r, 'cac:AllowanceCharge').flatMap((a) => path(a, 'cac:TaxCategory')).filter((c) => norm(one(c, 'cbc:ID')) === 'S').length
        + descendants(r, 'cac:ClassifiedTaxCategory').filter((c) => norm(one(c, 'cbc:ID')) === 'S').length;
      const rows = path(r, 'cac:TaxTotal/cac:TaxSubtotal/cac:TaxCategory').filter((c) => norm(one(c, 'cbc:ID')) === 'S').length;
      return (used > 0 && rows > 0) || (used === 0 && rows === 0);
    }],
    ['aligned-ibrp-z-01', categoryBreakdown('Z', false)],
    ['aligned-ibrp-ae-01-ae', categoryBreakdown('AE', true)],
    ['aligned-ibrp-sr-12', (r) => path(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme').filter((t) => path(t, 'cac:TaxScheme/cbc:ID').some((e) => e.text.toUpperCase() === 'VAT'))
      .flatMap((t) => path(t, 'cbc:CompanyID')).length <= 1],
    ['ibr-007-ae', (r) => !flags(r, /^1[01]{7}$/) || has(r, 'cac:BuyerCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID')],
    ['ibr-134-ae', (r) => (!typeIs(r, '480', '81') && path(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme').some((t) => eq(t, 'cac:TaxScheme/cbc:ID', 'VAT') && has(t, 'cbc:CompanyID')))
      || typeIs(r, '480', '81')],
    ['ibr-136-ae', (r) => !(eq(r, 'cbc:InvoiceTypeCode', '480') || eq(r, 'cbc:CreditNoteTypeCode', '81')) || has(r, `cac:AccountingCustomerParty/cac:Party/${LEGAL}`)],
    ['ibr-137-ae', (r) => (flags(r, /^[01]{5}1[01]{2}$/) && has(r, 'cac:SellerSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID')) || !flags(r, /^[01]{5}1[01]{2}$/)],
    ['ibr-138-ae', (r) => (flags(r, /^[01]{3}1[01]{4}$/) && has(r, 'cac:InvoicePeriod')) || !flags(r, /^[01]{3}1[01]{4}$/)],
    ['ibr-141-ae', (r) => !has(r, 'cbc:TaxPointDate') || text(r, 'cbc:TaxPointDate') < text(r, 'cbc:IssueDate')],
    ['ibr-055-ae', (r) => {
      if (!typeIs(r, '381', '81')) return true;
      return (has(r, 'cac:BillingReference') && ne(r, 'cac:DiscrepancyResponse/cbc:ResponseCode', 'VD'))
        || (!has(r, 'cac:BillingReference') && eq(r, 'cac:DiscrepancyResponse/cbc:ResponseCode', 'VD'));
    }],
    ['ibr-142-ae', (r) => !flags(r, /^[01]{6}1[01]$/) || deliveryAddressComplete(r)],
    ['ibr-105-ae', (r) => {
      const n = descendants(r, 'cac:TaxCategory').filter(isVat).some((c) => path(c, 'cbc:ID').some((i) => norm(i) === 'N'));
      return (n && descendants(r, 'cac:TaxTotal').flatMap((t) => path(t, 'cac:TaxSubtotal')).filter((st) => eq(st, 'cac:TaxCategory/cbc:ID', 'N')).length === 1) || !n;
    }],
    ['ibr-122-ae', (r) => !typeIs(r, '81', '480') || allCategoryIds(r).every((i) => ['E', 'O', 'Z'].includes(norm(i)))],
    ['ibr-124-ae', (r) => !typeIs(r, '381', '81') || !has(r, 'cbc:TaxPointDate')],
    ['ibr-127-ae', (r) => typeIs(r, '381', '81') || eq(r, 'cbc:CreditNoteTypeCode', '261') || flags(r, /^[01]1[01]{6}$/)
      || !path(r, 'cac:LegalMonetaryTotal/cbc:PayableAmount').some((p) => Number(p.text) > 0) || has(r, 'cbc:DueDate')],
    ['ibr-116-ae', (r) => !flags(r, /^[01]{2}1[01]{5}$/) || !allCategoryIds(r).some((i) => norm(i) !== 'N')],
    ['ibr-151-ae', (r) => !typeIs(r, '380', '381')
      || [...path(r, 'cac:InvoiceLine'), ...path(r, 'cac:CreditNoteLine')].some((l) => path(l, 'cac:Item/cac:ClassifiedTaxCategory').some((c) => !['E', 'O'].includes(norm(one(c, 'cbc:ID')))))],
    ['ibr-152-ae', (r) => !flags(r, /^[01]{7}1$/) || eq(r, 'cac:Delivery/cac:DeliveryLocation/cac:Address/cac:Country/cbc:IdentificationCode', 'AE') || deliveryAddressComplete(r)],
    ['ibr-153-ae', (r) => !(eq(r, 'cbc:TaxCurrencyCode', 'AED') && ne(r, 'cbc:DocumentCurrencyCode', 'AED')
      && (!path(r, 'cac:TaxExchangeRate/cbc:SourceCurrencyCode').some((s) => path(r, 'cbc:DocumentCurrencyCode').some((d) => d.text === s.text))
        || !path(r, 'cac:TaxExchangeRate/cbc:TargetCurrencyCode').some((t) => path(r, 'cbc:TaxCurrencyCode').some((c) => c.text === t.text))
        || !has(r, 'cac:TaxExchangeRate/cbc:CalculationRate')))],
    ['ibr-157-ae', (r) => !(typeIs(r, '480', '81') && flags(r, /^[01]{2}1[01]{5}$|^[01]1[01]{6}$|^[01]{3}1[01]{4}$/))],
    ['ibr-158-ae', (r) => !(typeIs(r, '381') && !has(r, 'cac:DiscrepancyResponse/cbc:ResponseCode'))],
    ['ibr-159-ae', (r) => (ne(r, 'cbc:DocumentCurrencyCode', 'AED') && descendants(r, 'cac:TaxExchangeRate').some((x) => has(x, 'cbc:CalculationRate'))) || eq(r, 'cbc:DocumentCurrencyCode', 'AED')],
    ['ibr-160-ae', (r) => !(eq(r, 'cac:InvoicePeriod/cbc:DescriptionCode', 'OTH') && !has(r, 'cbc:Note'))],
    ['ibr-175-ae', (r) => eq(r, 'cbc:DocumentCurrencyCode', 'AED') || (ne(r, 'cbc:DocumentCurrencyCode', 'AED') && eq(r, 'cbc:TaxCurrencyCode', 'AED')
      && path(r, 'cac:TaxTotal/cbc:TaxAmount').some((t) => t.attrs.currencyID === 'AED')
      && path(r, 'cac:AdditionalDocumentReference').some((d) => eq(d, 'cbc:DocumentTypeCode', 'aedtotal-incl-vat') && has(d, 'cbc:DocumentDescription')))],
    ['ibr-176-ae', (r) => (flags(r, /^[01]{5}1[01]{2}$/) && path(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')
      .some((c) => path(r, 'cac:SellerSupplierParty/cac:Party/cac:PartyIdentification/cbc:ID').some((i) => i.text !== c.text))) || !flags(r, /^[01]{5}1[01]{2}$/)],
    ['ibr-190-ae', (r) => {
      const s = descendants(r, 'cac:TaxCategory').filter((c) => eq(c, 'cbc:ID', 'S'));
      return s.length === 0 || s.flatMap((c) => path(c, 'cbc:Percent')).every((p) => decimal(p)?.equals(5) ?? false);
    }],
    ['ibr-191-ae', (r) => typeIs(r, '81', '381', '261') || flags(r, /^[01]1[01]{6}$/) || has(r, 'cac:PaymentMeans/cbc:PaymentMeansCode')],
    ['ibr-154-ae', (r) => flags(r, /^[01]{8}$/)],
    ['ibr-140-ae', (r) => !has(r, 'cbc:TaxCurrencyCode') || eq(r, 'cbc:TaxCurrencyCode', 'AED')],
    ['ibr-193-ae', (r) => has(r, 'cbc:UUID')],
  ];
}

const deliveryAddressComplete = (r: XmlElement) => ['cbc:StreetName', 'cbc:CityName', 'cbc:CountrySubentity'].every((p) => has(r, `cac:Delivery/cac:DeliveryLocation/cac:Address/${p}`));

/** The per-category rules: lines, document allowances, document charges, breakdowns (official priority order). */
function categoryTemplates(): Template[] {
  const line = (c: string) => ({ names: ['cac:ClassifiedTaxCategory'], match: lineCategory(c) });
  const allowance = (c: string) => ({ names: ['cac:TaxCategory'], match: chargeCategory(c, false) });
  const charge = (c: string) => ({ names: ['cac:TaxCategory'], match: chargeCategory(c, true) });
  const breakdown = (c: string) => ({ names: ['cac:TaxCategory'], match: breakdownCategory(c) });
  return [
    { ...line('S'), asserts: [['aligned-ibrp-s-05', positivePercent]] },
    { ...allowance('S'), asserts: [['aligned-ibrp-s-06', positivePercent]] },
    { ...charge('S'), asserts: [['aligned-ibrp-s-07', positivePercent]] },
    { ...breakdown('S'), asserts: [
      ['aligned-ibrp-s-08', breakdownTaxableByRate('S', true)],
      ['aligned-ibrp-s-09', (tc, s) => {
        const subtotal = s.parent(tc);
        const rate = decimal(one(tc, 'cbc:Percent'));
        const taxable = decimal(one(subtotal, 'cbc:TaxableAmount'));
        const tax = decimal(one(subtotal, 'cbc:TaxAmount'));
        if (!rate || !taxable || !tax) return false;
        const expected = round2(taxable.abs().times(rate.div(100)));
        return slack(tax.abs(), expected, 0.02);
      }],
      ['aligned-ibrp-s-10', (tc) => !has(tc, 'cbc:TaxExemptionReason') && !has(tc, 'cbc:TaxExemptionReasonCode')],
    ] },
    { ...breakdown('N'), asserts: [['ibr-102-ae', breakdownTaxableByRate('N', false)], ['ibr-108-ae', (tc, s) => path(s.parent(tc), 'cbc:TaxAmount').some((t) => Number(t.text) === 0)]] },
    { ...breakdown('E'), asserts: [['aligned-ibrp-e-08', breakdownTaxable('E')], ['aligned-ibrp-e-09', subtotalTaxZero], ['ibr-121-ae', (tc) => !has(tc, 'cbc:Percent')]] },
    { ...line('E'), asserts: [['aligned-ibrp-e-05', (tc) => !has(tc, 'cbc:Percent')], ['ibr-163-ae', (tc, s) => !has(s.parent(s.parent(tc) as XmlElement), 'cac:ItemPriceExtension/cac:TaxTotal/cbc:TaxAmount')]] },
    { ...allowance('E'), asserts: [['aligned-ibrp-e-06', zeroPercent]] },
    { ...charge('E'), asserts: [['aligned-ibrp-e-07', zeroPercent]] },
    { ...line('Z'), asserts: [['aligned-ibrp-z-05', zeroPercent], ['ibr-165-ae', lineTaxZero]] },
    { ...allowance('Z'), asserts: [['aligned-ibrp-z-06', zeroPercent]] },
    { ...charge('Z'), asserts: [['aligned-ibrp-z-07', zeroPercent]] },
    { ...breakdown('Z'), asserts: [['aligned-ibrp-z-08', breakdownTaxable('Z')], ['aligned-ibrp-z-09', subtotalTaxZero], ['ibr-120-ae', (tc) => path(tc, 'cbc:Percent').some((p) => Number(p.text) === 0)]] },
    { ...line('O'), asserts: [['aligned-ibrp-o-05', (tc) => !has(tc, 'cbc:Percent')]] },
    { ...allowance('O'), asserts: [['aligned-ibrp-o-06', (tc) => !has(tc, 'cbc:Percent')]] },
    { ...charge('O'), asserts: [['aligned-ibrp-o-07', (tc) => !has(tc, 'cbc:Percent')]] },
    { ...breakdown('O'), asserts: [['aligned-ibrp-o-08', breakdownTaxable('O')], ['aligned-ibrp-o-09', subtotalTaxZero], ['aligned-ibrp-o-11-ae', (tc) => !has(tc, 'cbc:Percent')]] },
    { ...line('AE'), asserts: [
      ['aligned-ibrp-ae-05-ae', (tc) => has(tc, 'cbc:Percent')],
      ['ibr-103-ae', (tc, s) => has(s.root, 'cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID')],
      ['ibr-162-ae', lineTaxZero],
      ['ibr-174-ae', (tc, s) => {
        const item = s.parent(tc);
        return !(!has(item, 'cac:StandardItemIdentification/cbc:ID') || attrNe(item, 'cac:StandardItemIdentification/cbc:ID', 'schemeID', '0160'));
      }],
    ] },
    { ...allowance('AE'), asserts: [['aligned-ibrp-ae-06', (tc) => zeroPercent(tc) && norm(one(tc, 'cbc:Percent')) !== '']] },
    { ...charge('AE'), asserts: [['aligned-ibrp-ae-07', (tc) => zeroPercent(tc) && norm(one(tc, 'cbc:Percent')) !== '']] },
    { ...breakdown('AE'), asserts: [['aligned-ibrp-ae-08-ae', breakdownTaxable('AE')], ['aligned-ibrp-ae-09-ae', subtotalTaxZero]] },
  ];
}

/** The code list pattern of the jurisdiction rules. */
const m13: Mode = [
  { names: ['cbc:ResponseCode'], match: under('cac:DiscrepancyResponse'), asserts: [['ibr-001-ae', (e) => oneOf(e, 'DL8.61.1.A DL8.61.1.B DL8.61.1.C DL8.61.1.D DL8.61.1.E VD')]] },
  { names: ['cbc:DescriptionCode'], match: under('cac:InvoicePeriod'), asserts: [['ibr-005-ae', (e) => oneOf(e, 'DLY WKY Q15 MTH Q45 Q60 QTR YRL HYR OTH')]] },
  { names: ['cbc:ID'], match: (e, s) => ['TaxCategory', 'ClassifiedTaxCategory'].includes(s.parent(e)?.name ?? ''), asserts: [['ibr-139-ae', (e) => oneOf(e, 'S E O AE Z N')]] },
  { names: ['cbc:NatureCode'], asserts: [['ibr-006-ae', (e) => oneOf(e, 'DL8.48.8.2 DL8.48.8.1 DL8.48.3.1 DL8.48.3.2 DL8.48.3.3')]] },
];

/** `contains(' list ', concat(' ', normalize-space(.), ' '))` without spaces inside. */
export const oneOf = (el: XmlElement, list: string): boolean => {
  const v = norm(el);
  return v !== '' && !v.includes(' ') && ` ${list} `.includes(` ${v} `);
};

export const jurisdictionModes: readonly Mode[] = [m12, m13];
