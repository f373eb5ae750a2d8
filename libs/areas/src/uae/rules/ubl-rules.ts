/**
 * PINT AE 2026.5 `PINT-UBL-validation-preprocessed` (the PINT rules on UBL: cardinalities, totals,
 * identifiers, dates) and its code lists, their two patterns in the official priority order.
 */
import Decimal from 'decimal.js';
import type { XmlElement } from '../../shared/xml-read';
import { type Assert, type Mode, type RuleScope, type Template, isRoot, qname, under } from './engine';
import { oneOf } from './jurisdiction';
import { officialCodeLists } from './official-code-lists';
import { count, decimal, descendants, has, norm, one, path, round2, text } from './tree';
import { eq } from './xpath';

const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
type Spec = 'billing' | 'selfbilling';

const sumOf = (els: XmlElement[]) => els.reduce((s, e) => s.plus(decimal(e) ?? 0), new Decimal(0));
const dec = (el: XmlElement | undefined, p: string) => decimal(one(el, p));
const decimalsAfterPoint = (value: string) => (value.includes('.') ? value.slice(value.indexOf('.') + 1).length : 0);
const isDate = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const isTime = (v: string) => /^\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/.test(v) && Number(v.slice(0, 2)) < 24 && Number(v.slice(3, 5)) < 60 && Number(v.slice(6, 8)) < 60;
const hasAncestor = (el: XmlElement, scope: RuleScope, ...names: string[]) => {
  for (let p = scope.parent(el); p; p = scope.parent(p)) if (names.includes(qname(p))) return true;
  return false;
};
const inLine = (el: XmlElement, scope: RuleScope) => hasAncestor(el, scope, 'cac:InvoiceLine', 'cac:CreditNoteLine');

/** Identifier schemes with a check the rules make (`cbc:EndpointID | cac:PartyIdentification/cbc:ID | cbc:CompanyID` with that scheme). */
const identifierTemplate = (schemes: string[], id: string, valid: (v: string, raw: string) => boolean): Template => ({
  names: ['cbc:EndpointID', 'cbc:ID', 'cbc:CompanyID'],
  match: (el, s) => schemes.includes(el.attrs.schemeID ?? '') && (el.name !== 'ID' || s.parent(el)?.name === 'PartyIdentification'),
  asserts: [[id, (el) => valid(norm(el), el.text)]],
});

const digits = (v: string) => [...v].map((c) => c.charCodeAt(0) - 48);
function gln(v: string): boolean {
  const d = digits(v.slice(0, -1)).reverse();
  const sum = d.reduce((s, x, i) => s + x * (1 + (((i + 1) % 2) * 2)), 0);
  return (10 - (sum % 10)) % 10 === Number(v.slice(-1));
}
function mod11(v: string): boolean {
  const d = digits(v.slice(0, -1)).reverse();
  const sum = d.reduce((s, x, i) => s + x * ((i % 6) + 2), 0);
  return Number(v) > 0 && (11 - (sum % 11)) % 11 === Number(v.slice(-1));
}
const mod97 = (v: string) => Number(v.slice(8, 10)) === 97 - (Number(v.slice(0, 8)) % 97);
function abn(v: string): boolean {
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = [...v].reduce((s, c, i) => s + (c.charCodeAt(0) - (i === 0 ? 49 : 48)) * weights[i], 0);
  return sum % 89 === 0;
}
const letters = /^[A-Za-z]*$/;
function codiceFiscale(v: string): boolean {
  if (v.length === 11) return /^[+-]?\d+$/.test(v);
  if (v.length !== 16) return false;
  return letters.test(v.slice(0, 6)) && /^[+-]?\d+$/.test(v.slice(6, 8)) && letters.test(v.slice(8, 9)) && /^[+-]?\d+$/.test(v.slice(9, 11))
    && /^[+-]?\d+$/.test(v.slice(14, 15)) && letters.test(v.slice(15, 16));
}
function partitaIva(v: string): boolean {
  const country = v.slice(0, 2);
  if (country !== 'IT' && country !== 'it') return true;
  const code = v.slice(2);
  if (code.length !== 11 || !/^[+-]?\d+$/.test(code)) return false;
  let sum = 0;
  for (let i = 0; i < code.length; i++) {
    const n = Number(code[i]);
    sum += i % 2 === 1 ? Number('0246813579'[n]) : n;
  }
  return sum % 10 === 0;
}

function monetaryTotals(): Assert[] {
  const places = (p: string, id: string): Assert => [id, (t) => decimalsAfterPoint(text(t, p)) <= 2];
  return [
    ['ibr-012', (t) => has(t, 'cbc:LineExtensionAmount')],
    ['ibr-013', (t) => has(t, 'cbc:TaxExclusiveAmount')],
    ['ibr-014', (t) => has(t, 'cbc:TaxInclusiveAmount')],
    ['ibr-015', (t) => has(t, 'cbc:PayableAmount')],
    places('cbc:PayableAmount', 'ibr-091'),
    places('cbc:AllowanceTotalAmount', 'ibr-121'),
    places('cbc:ChargeTotalAmount', 'ibr-122'),
    places('cbc:TaxExclusiveAmount', 'ibr-123'),
    places('cbc:TaxInclusiveAmount', 'ibr-125'),
    ['ibr-co-10', (t, s) => {
      const lines = [...descendants(s.root, 'cac:InvoiceLine'), ...descendants(s.root, 'cac:CreditNoteLine')].flatMap((l) => path(l, 'cbc:LineExtensionAmount'));
      const total = dec(t, 'cbc:LineExtensionAmount');
      return total !== undefined && total.equals(round2(sumOf(lines)));
    }],
    ['ibr-co-11', (t, s) => documentTotal(t, s, 'cbc:AllowanceTotalAmount', false)],
    ['ibr-co-12', (t, s) => documentTotal(t, s, 'cbc:ChargeTotalAmount', true)],
    ['ibr-co-13', (t, s) => {
      if (path(s.parent(t), 'cac:TaxTotal/cbc:TaxIncludedIndicator').some((i) => i.text.trim() === 'true')) return true;
      const exclusive = dec(t, 'cbc:TaxExclusiveAmount');
      const lines = dec(t, 'cbc:LineExtensionAmount');
      const charges = has(t, 'cbc:ChargeTotalAmount') ? dec(t, 'cbc:ChargeTotalAmount') : new Decimal(0);
      const allowances = has(t, 'cbc:AllowanceTotalAmount') ? dec(t, 'cbc:AllowanceTotalAmount') : new Decimal(0);
      if (!exclusive || !lines || !charges || !allowances) return false;
      if (!has(t, 'cbc:ChargeTotalAmount') && !has(t, 'cbc:AllowanceTotalAmount')) return exclusive.equals(lines);
      return exclusive.equals(round2(lines.plus(charges).minus(allowances)));
    }],
    ['ibr-co-16', (t) => {
      // `xs:decimal(x)` as a condition is its effective boolean value: absent or zero is false.
      const prepaid = dec(t, 'cbc:PrepaidAmount');
      const rounding = dec(t, 'cbc:PayableRoundingAmount');
      const payable = dec(t, 'cbc:PayableAmount');
      const inclusive = dec(t, 'cbc:TaxInclusiveAmount');
      const p = prepaid !== undefined && !prepaid.isZero();
      const r = rounding !== undefined && !rounding.isZero();
      if (!payable || !inclusive) return false;
      if (p && !r) return payable.equals(round2(inclusive.minus(prepaid as Decimal)));
      if (!p && !r) return payable.equals(inclusive);
      if (p && r) return round2(payable.minus(rounding as Decimal)).equals(round2(inclusive.minus(prepaid as Decimal)));
      return round2(payable.minus(rounding as Decimal)).equals(inclusive);
    }],
  ];
}

function documentTotal(t: XmlElement, s: RuleScope, p: string, charge: boolean): boolean {
  const entries = path(s.parent(t), 'cac:AllowanceCharge').filter((a) => text(a, 'cbc:ChargeIndicator') === String(charge));
  const total = dec(t, p);
  return (total !== undefined && total.equals(round2(sumOf(entries.flatMap((a) => path(a, 'cbc:Amount')))))) || (!has(t, p) && entries.length === 0);
}

function documentAsserts(): Assert[] {
  const max1 = (p: string, id: string): Assert => [id, (r) => count(r, p) <= 1];
  const additional = (r: XmlElement, code: string) => path(r, 'cac:AdditionalDocumentReference').filter((d) => eq(d, 'cbc:DocumentTypeCode', code));
  return [
    ['ibr-001', (r) => text(r, 'cbc:CustomizationID') !== ''],
    ['ibr-sr-63', (r) => !text(r, 'cbc:CustomizationID').includes('*')],
    ['ibr-002', (r) => text(r, 'cbc:ID') !== ''],
    ['ibr-003', (r) => text(r, 'cbc:IssueDate') !== ''],
    ['ibr-004', (r) => text(r, 'cbc:InvoiceTypeCode') !== '' || text(r, 'cbc:CreditNoteTypeCode') !== ''],
    ['ibr-005', (r) => text(r, 'cbc:DocumentCurrencyCode') !== ''],
    ['ibr-006', (r) => text(r, 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') !== ''],
    ['ibr-007', (r) => text(r, 'cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName') !== ''],
    ['ibr-008', (r) => has(r, 'cac:AccountingSupplierParty/cac:Party/cac:PostalAddress')],
    ['ibr-010', (r) => has(r, 'cac:AccountingCustomerParty/cac:Party/cac:PostalAddress')],
    ['ibr-016', (r) => has(r, 'cac:InvoiceLine') || has(r, 'cac:CreditNoteLine')],
    ['ibr-053', (r) => path(r, 'cbc:TaxCurrencyCode').every((c) => descendants(r, 'cac:TaxTotal').some((t) => path(t, 'cbc:TaxAmount').some((a) => a.attrs.currencyID === c.text)))],
    max1('cac:PaymentMeans/cac:CardAccount', 'ibr-066'),
    max1('cac:PaymentMeans/cac:PaymentMandate', 'ibr-067'),
    ['ibr-071', (r) => !descendants(r, 'cac:AdditionalDocumentReference').some((d) => eq(d, 'cbc:DocumentTypeCode', '130') && has(d, 'cac:Attachment'))],
    ['ibr-072', (r) => !descendants(r, 'cac:AdditionalDocumentReference').some((d) => eq(d, 'cbc:DocumentTypeCode', '130') && has(d, 'cbc:DocumentDescription'))],
    ['ibr-076', (r) => has(r, 'cbc:ProfileID')],
    ['ibr-078', (r) => additional(r, '130').length <= 1],
    ['ibr-084', (r) => {
      if (!has(r, 'cbc:TaxCurrencyCode')) return true;
      const amounts = (currency: string) => path(r, 'cac:TaxTotal/cbc:TaxAmount').filter((a) => a.attrs.currencyID === currency).map((a) => Number(a.text));
      const tax = amounts(text(r, 'cbc:TaxCurrencyCode'));
      const own = amounts(text(r, 'cbc:DocumentCurrencyCode'));
      return (tax.some((a) => a <= 0) && own.some((a) => a <= 0)) || (tax.some((a) => a >= 0) && own.some((a) => a >= 0));
    }],
    ['ibr-090', (r) => count(r, 'cac:ProjectReference') <= 1 && additional(r, '50').length <= 1],
    max1('cac:ContractDocumentReference/cbc:ID', 'ibr-094'),
    max1('cac:ReceiptDocumentReference/cbc:ID', 'ibr-095'),
    max1('cac:DespatchDocumentReference/cbc:ID', 'ibr-096'),
    max1('cac:InvoicePeriod', 'ibr-097'),
    max1('cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName', 'ibr-098'),
    max1('cac:AccountingSupplierParty/cac:Party/cac:PartyName/cbc:Name', 'ibr-099'),
    max1('cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID', 'ibr-100'),
    max1('cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyLegalForm', 'ibr-101'),
    max1('cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName', 'ibr-102'),
    max1('cac:AccountingCustomerParty/cac:Party/cac:PartyLegalEntity/cbc:CompanyID', 'ibr-103'),
    max1('cac:AccountingCustomerParty/cac:Party/cac:PartyTaxScheme/cbc:CompanyID', 'ibr-104'),
    max1('cac:Delivery', 'ibr-107'),
    max1('cac:AccountingCustomerParty/cac:Party/cac:PartyName/cbc:Name', 'ibr-112'),
    ['ibr-co-15', (r) => {
      if (path(r, 'cac:TaxTotal/cbc:TaxIncludedIndicator').some((i) => i.text.trim() === 'true')) return true;
      const inclusive = dec(r, 'cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount');
      const exclusive = dec(r, 'cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount');
      const currency = text(r, 'cbc:DocumentCurrencyCode');
      const tax = decimal(path(path(r, 'cac:TaxTotal')[0], 'cbc:TaxAmount').find((a) => a.attrs.currencyID === currency));
      return inclusive !== undefined && exclusive !== undefined && tax !== undefined && inclusive.equals(round2(exclusive.plus(tax)));
    }],
    max1('cac:AccountingCustomerParty/cac:Party/cac:PartyIdentification/cbc:ID', 'ibr-sr-16'),
    max1('cac:ProjectReference/cbc:ID', 'ibr-sr-39'),
    max1('cac:InvoicePeriod/cbc:DescriptionCode', 'ibr-sr-49'),
    max1('cbc:Note', 'ibr-sr-51'),
    max1('cac:OriginatorDocumentReference/cbc:ID', 'ibr-sr-52'),
  ];
}

const lineAsserts: Assert[] = [
  ['ibr-021', (l) => text(l, 'cbc:ID') !== ''],
  ['ibr-022', (l) => has(l, 'cbc:InvoicedQuantity') || has(l, 'cbc:CreditedQuantity')],
  ['ibr-023', (l) => [...path(l, 'cbc:InvoicedQuantity'), ...path(l, 'cbc:CreditedQuantity')].some((q) => q.attrs.unitCode !== undefined)],
  ['ibr-024', (l) => has(l, 'cbc:LineExtensionAmount')],
  ['ibr-025', (l) => text(l, 'cac:Item/cbc:Name') !== ''],
  ['ibr-026', (l) => has(l, 'cac:Price/cbc:PriceAmount')],
  ['ibr-027', (l) => path(l, 'cac:Price/cbc:PriceAmount').some((p) => Number(p.text) >= 0)],
  ['ibr-028', (l) => path(l, 'cac:Price/cac:AllowanceCharge/cbc:BaseAmount').some((b) => Number(b.text) >= 0) || !has(l, 'cac:Price/cac:AllowanceCharge/cbc:BaseAmount')],
  ['ibr-087', (l) => !has(l, 'cac:Price/cbc:BaseQuantity') || (dec(l, 'cac:Price/cbc:BaseQuantity')?.gt(0) ?? false)],
  ['ibr-089', (l) => path(l, 'cac:DocumentReference').filter((d) => path(d, 'cbc:DocumentTypeCode').some((c) => Number(c.text) === 130)).length <= 1],
  ['ibr-109', (l) => count(l, 'cac:OrderLineReference/cbc:LineID') <= 1],
  ['ibr-110', (l) => count(l, 'cac:InvoicePeriod') <= 1],
  ['ibr-111', (l) => count(l, 'cac:Price/cac:AllowanceCharge/cbc:Amount') <= 1],
  ['ibr-sr-34', (l) => count(l, 'cbc:Note') <= 1],
  ['ibr-sr-38', (l) => count(l, 'cac:Item/cac:ClassifiedTaxCategory/cbc:TaxExemptionReason') <= 1],
  ['ibr-sr-50', (l) => count(l, 'cac:Item/cbc:Description') <= 1],
];

const periodValid = (p: XmlElement) => (has(p, 'cbc:EndDate') && has(p, 'cbc:StartDate') && text(p, 'cbc:EndDate') >= text(p, 'cbc:StartDate')) || !has(p, 'cbc:StartDate') || !has(p, 'cbc:EndDate');
const AMOUNTS = ['cbc:Amount', 'cbc:BaseAmount', 'cbc:PriceAmount', 'cbc:LineExtensionAmount', 'cbc:TaxExclusiveAmount', 'cbc:TaxInclusiveAmount', 'cbc:AllowanceTotalAmount', 'cbc:ChargeTotalAmount', 'cbc:PrepaidAmount', 'cbc:PayableRoundingAmount', 'cbc:PayableAmount'];
/** `cac:TaxTotal[cbc:TaxAmount/@currencyID=/*\/cbc:DocumentCurrencyCode]` — the tax total in the document currency. */
const inDocumentCurrencyTaxTotal = (total: XmlElement | undefined, s: RuleScope) => total?.name === 'TaxTotal' && path(total, 'cbc:TaxAmount').some((a) => path(s.root, 'cbc:DocumentCurrencyCode').some((c) => c.text === a.attrs.currencyID));

const m22: Mode = [
  identifierTemplate(['0088'], 'ibr-068', (v) => /^[0-9]+$/.test(v) && gln(v)),
  identifierTemplate(['0007'], 'ibr-127', (v) => v.length === 10 && !Number.isNaN(Number(v))),
  identifierTemplate(['0192'], 'ibr-069', (v) => /^[0-9]{9}$/.test(v) && mod11(v)),
  identifierTemplate(['0184'], 'ibr-070', (_v, raw) => raw.length === 10 && raw.slice(0, 2) === 'DK' && /^[0-9]*$/.test(raw.slice(2, 10))),
  identifierTemplate(['0208'], 'ibr-113', (v) => /^[0-9]{10}$/.test(v) && mod97(v)),
  identifierTemplate(['0201'], 'ibr-114', (v) => v.length === 6 && /^[A-Za-z0-9]*$/.test(v)),
  identifierTemplate(['0210', '9907'], 'ibr-115', codiceFiscale),
  identifierTemplate(['0211', '9906'], 'ibr-116', partitaIva),
  identifierTemplate(['0151'], 'ibr-120', (v) => /^[0-9]{11}$/.test(v) && abn(v)),
  { names: ['cac:AllowanceCharge'], match: under('cac:Price'), asserts: [['ibr-083', (a) => norm(one(a, 'cbc:ChargeIndicator')) === 'false']] },
  { names: ['cac:AllowanceCharge'], match: (a) => eq(a, 'cbc:ChargeIndicator', 'false'), asserts: [
    ['ibr-sr-30', (a) => count(a, 'cbc:AllowanceChargeReason') <= 1],
    ['ibr-031', (a, s) => (has(a, 'cbc:Amount') && !inLine(a, s)) || inLine(a, s)],
    ['ibr-033', (a, s) => ((has(a, 'cbc:AllowanceChargeReason') || has(a, 'cbc:AllowanceChargeReasonCode')) && !inLine(a, s)) || inLine(a, s)],
    ['ibr-041', (a, s) => has(a, 'cbc:Amount') || !inLine(a, s)],
    ['ibr-042', (a, s) => has(a, 'cbc:AllowanceChargeReason') || has(a, 'cbc:AllowanceChargeReasonCode') || !inLine(a, s)],
  ] },
  { names: ['cac:AllowanceCharge'], match: (a) => eq(a, 'cbc:ChargeIndicator', 'true'), asserts: [
    ['ibr-036', (a, s) => (has(a, 'cbc:Amount') && !inLine(a, s)) || inLine(a, s)],
    ['ibr-sr-31', (a) => count(a, 'cbc:AllowanceChargeReason') <= 1],
    ['ibr-038', (a, s) => ((has(a, 'cbc:AllowanceChargeReason') || has(a, 'cbc:AllowanceChargeReasonCode')) && !inLine(a, s)) || inLine(a, s)],
    ['ibr-043', (a, s) => has(a, 'cbc:Amount') || !inLine(a, s)],
    ['ibr-044', (a) => has(a, 'cbc:AllowanceChargeReason') || has(a, 'cbc:AllowanceChargeReasonCode')],
  ] },
  { names: ['cac:AllowanceCharge'], asserts: [['ibr-082', (a) => ['true', 'false'].includes(norm(one(a, 'cbc:ChargeIndicator')))]] },
  { names: ['cac:TaxCategory'], match: under('cac:AllowanceCharge'), asserts: [['ibr-sr-61', (c) => count(c, 'cbc:TaxExemptionReason') <= 1]] },
  { names: ['cac:AdditionalDocumentReference'], asserts: [['ibr-052', (d) => text(d, 'cbc:ID') !== ''], ['ibr-sr-33', (d) => count(d, 'cbc:DocumentDescription') <= 1]] },
  { names: ['cac:Party'], match: under('cac:AccountingCustomerParty'), asserts: [['ibr-080', (p) => has(p, 'cbc:EndpointID')]] },
  { names: ['cbc:EndpointID'], match: under('cac:AccountingCustomerParty', 'cac:Party'), asserts: [['ibr-063', (e) => e.attrs.schemeID !== undefined]] },
  { names: ['cac:PostalAddress'], match: under('cac:AccountingCustomerParty', 'cac:Party'), asserts: [
    ['ibr-011', (a) => text(a, 'cac:Country/cbc:IdentificationCode') !== ''], ['ibr-sr-54', (a) => count(a, 'cac:AddressLine/cbc:Line') <= 1],
  ] },
  { names: ['cac:Address'], match: under('cac:Delivery', 'cac:DeliveryLocation'), asserts: [
    ['ibr-057', (a) => has(a, 'cac:Country/cbc:IdentificationCode')], ['ibr-sr-56', (a) => count(a, 'cac:AddressLine/cbc:Line') <= 1],
  ] },
  { names: ['cac:LegalMonetaryTotal'], asserts: monetaryTotals() },
  { names: ['*'], match: isRoot, asserts: documentAsserts() },
  { names: ['cac:InvoiceLine', 'cac:CreditNoteLine'], asserts: lineAsserts },
  { names: ['cac:InvoicePeriod'], match: (p, s) => ['InvoiceLine', 'CreditNoteLine'].includes(s.parent(p)?.name ?? ''), asserts: [
    ['ibr-085', (p, s) => {
      const own = text(p, 'cbc:StartDate');
      const document = path(s.root, 'cac:InvoicePeriod/cbc:StartDate');
      return !has(p, 'cbc:StartDate') || document.length === 0 || document.every((d) => own >= d.text.trim());
    }],
    ['ibr-086', (p, s) => {
      const own = text(p, 'cbc:EndDate');
      const document = path(s.root, 'cac:InvoicePeriod/cbc:EndDate');
      return !has(p, 'cbc:EndDate') || document.length === 0 || document.every((d) => own <= d.text.trim());
    }],
    ['ibr-030', periodValid],
    ['ibr-co-20', (p) => has(p, 'cbc:StartDate') || has(p, 'cbc:EndDate')],
  ] },
  { names: ['cac:InvoicePeriod'], asserts: [
    ['ibr-029', periodValid],
    ['ibr-co-19', (p) => has(p, 'cbc:StartDate') || has(p, 'cbc:EndDate') || (has(p, 'cbc:DescriptionCode') && !has(p, 'cbc:StartDate') && !has(p, 'cbc:EndDate'))],
  ] },
  { names: ['cac:AdditionalItemProperty'], asserts: [['ibr-054', (p) => has(p, 'cbc:Name') && has(p, 'cbc:Value')]] },
  { names: ['cbc:ItemClassificationCode'], match: (c, s) => under('cac:InvoiceLine', 'cac:Item', 'cac:CommodityClassification')(c, s) || under('cac:CreditNoteLine', 'cac:Item', 'cac:CommodityClassification')(c, s),
    asserts: [['ibr-065', (c) => c.attrs.listID !== undefined]] },
  { names: ['cbc:ID'], match: (c, s) => under('cac:InvoiceLine', 'cac:Item', 'cac:StandardItemIdentification')(c, s) || under('cac:CreditNoteLine', 'cac:Item', 'cac:StandardItemIdentification')(c, s),
    asserts: [['ibr-064', (c) => c.attrs.schemeID !== undefined]] },
  { names: ['cac:ClassifiedTaxCategory'], match: under('cac:InvoiceLine', 'cac:Item'), asserts: [['ibr-sr-58', (c) => has(c, 'cbc:ID')]] },
  { names: ['cac:PayeeParty'], asserts: [
    ['ibr-017', (p, s) => {
      const seller = path(s.parent(p), 'cac:AccountingSupplierParty/cac:Party');
      const sameName = path(p, 'cac:PartyName/cbc:Name').some((n) => seller.some((sp) => path(sp, 'cac:PartyName/cbc:Name').some((x) => x.text === n.text)));
      const sameId = path(p, 'cac:PartyIdentification/cbc:ID').some((n) => seller.some((sp) => path(sp, 'cac:PartyIdentification/cbc:ID').some((x) => x.text === n.text)));
      return has(p, 'cac:PartyName/cbc:Name') && !sameName && !sameId;
    }],
    ['ibr-105', (p, s) => path(p, 'cac:PartyIdentification/cbc:ID').filter((i) => (i.attrs.schemeID ?? '').toUpperCase() !== 'SEPA' && i.attrs.schemeID !== undefined).length <= 1 || payeeIsSeller(p, s)],
    ['ibr-106', (p, s) => count(p, 'cac:PartyLegalEntity/cbc:CompanyID') <= 1 || payeeIsSeller(p, s)],
    ['ibr-sr-19', (p, s) => count(p, 'cac:PartyName/cbc:Name') <= 1 || payeeIsSeller(p, s)],
  ] },
  { names: ['cac:Address'], match: under('cac:PaymentMeans', 'cac:PayeeFinancialAccount', 'cac:FinancialInstitutionBranch'), asserts: [['ibr-sr-59', (a) => count(a, 'cac:AddressLine/cbc:Line') <= 1]] },
  { names: ['cac:PaymentMeans'], asserts: [
    ['ibr-049', (m) => has(m, 'cbc:PaymentMeansCode')],
    ['ibr-sr-27', (m) => count(m, 'cbc:PaymentMeansCode') <= 1],
    ['ibr-sr-28', (m) => count(m, 'cac:PaymentMandate/cbc:ID') <= 1],
    ['ibr-sr-46', (m) => path(m, 'cbc:PaymentMeansCode').filter((c) => c.attrs.name !== undefined).length <= 1],
  ] },
  { names: [...AMOUNTS, 'cbc:TaxAmount', 'cbc:TaxableAmount'], match: (a, s) => {
    if (AMOUNTS.includes(qname(a))) return true;
    const parent = s.parent(a);
    return inDocumentCurrencyTaxTotal(parent, s) || (parent?.name === 'TaxSubtotal' && inDocumentCurrencyTaxTotal(s.parent(parent), s));
  }, asserts: [['ibr-126', (a, s) => hasAncestor(a, s, 'cac:ItemPriceExtension') || path(s.root, 'cbc:DocumentCurrencyCode').some((c) => c.text === a.attrs.currencyID)]] },
  { names: ['cac:PaymentTerms'], asserts: [['ibr-sr-05', (t) => count(t, 'cbc:Note') <= 1], ['ibr-sr-60', (t) => count(t, 'cbc:PaymentMeansID') <= 1]] },
  { names: ['cac:BillingReference'], asserts: [
    ['ibr-055', (b) => has(b, 'cac:InvoiceDocumentReference/cbc:ID')],
    ['ibr-sr-07', (b) => has(b, 'cac:InvoiceDocumentReference/cbc:ID')],
    ['ibr-sr-06', (b) => count(b, 'cac:InvoiceDocumentReference') <= 1],
  ] },
  { names: ['cac:Party'], match: under('cac:AccountingSupplierParty'), asserts: [
    ['ibr-co-26', (p) => has(p, 'cac:PartyTaxScheme/cbc:CompanyID') || has(p, 'cac:PartyIdentification/cbc:ID') || has(p, 'cac:PartyLegalEntity/cbc:CompanyID')],
    ['ibr-081', (p) => has(p, 'cbc:EndpointID')],
    ['ibr-sr-42', (p) => count(p, 'cac:PartyTaxScheme') <= 2],
  ] },
  { names: ['cbc:EndpointID'], match: under('cac:AccountingSupplierParty', 'cac:Party'), asserts: [['ibr-062', (e) => e.attrs.schemeID !== undefined]] },
  { names: ['cac:PostalAddress'], match: under('cac:AccountingSupplierParty', 'cac:Party'), asserts: [
    ['ibr-009', (a) => text(a, 'cac:Country/cbc:IdentificationCode') !== ''], ['ibr-sr-53', (a) => count(a, 'cac:AddressLine/cbc:Line') <= 1],
  ] },
  { names: ['cac:TaxRepresentativeParty'], asserts: [
    ['ibr-018', (p) => text(p, 'cac:PartyName/cbc:Name') !== ''],
    ['ibr-019', (p) => has(p, 'cac:PostalAddress')],
    ['ibr-056', (p) => has(p, 'cac:PartyTaxScheme/cbc:CompanyID')],
    ['ibr-sr-22', (p) => count(p, 'cac:PartyName/cbc:Name') <= 1],
    ['ibr-sr-23', (p) => count(p, 'cac:Party/cac:PartyTaxScheme/cbc:CompanyID') <= 1],
  ] },
  { names: ['cac:PostalAddress'], match: under('cac:TaxRepresentativeParty'), asserts: [
    ['ibr-020', (a) => text(a, 'cac:Country/cbc:IdentificationCode') !== ''], ['ibr-sr-55', (a) => count(a, 'cac:AddressLine/cbc:Line') <= 1],
  ] },
  // `/cn:CreditNote/cac:Taxtotal` (sic): the official pattern never matches a credit note's tax total.
  { names: ['cac:TaxTotal'], match: (t, s) => s.parent(t) === s.root && s.root.name === 'Invoice', asserts: [
    ['ibr-124', (t) => decimalsAfterPoint(text(t, 'cbc:TaxAmount')) <= 2],
    ['ibr-co-14', (t) => {
      if (!has(t, 'cac:TaxSubtotal')) return true;
      const tax = dec(t, 'cbc:TaxAmount');
      return tax !== undefined && tax.equals(round2(sumOf(path(t, 'cac:TaxSubtotal/cbc:TaxAmount'))));
    }],
  ] },
  { names: ['cac:TaxSubtotal'], asserts: [['ibr-sr-32', (t) => count(t, 'cac:TaxCategory/cbc:TaxExemptionReason') <= 1]] },
  { names: ['cac:PartyTaxScheme'], asserts: [['ibr-sr-57', (t) => has(t, 'cbc:CompanyID')]] },
  { names: ['cbc:IssueDate', 'cbc:DueDate', 'cbc:TaxPointDate', 'cbc:StartDate', 'cbc:EndDate', 'cbc:ActualDeliveryDate'], asserts: [['ibr-073', (d) => d.text.length === 10 && isDate(d.text)]] },
  { names: ['*'], match: (e) => e.ns === CBC && e.name.endsWith('Time'), asserts: [['ibr-119', (e) => isTime(e.text)]] },
  { names: ['*'], match: (e) => e.name.endsWith('BinaryObject'), asserts: [['ibr-074', (e) => e.attrs.mimeCode !== undefined], ['ibr-075', (e) => e.attrs.filename !== undefined]] },
  { names: ['cbc:TaxCurrencyCode'], asserts: [['ibr-077', (c, s) => !path(s.parent(c), 'cbc:DocumentCurrencyCode').some((d) => norm(d) === norm(c))]] },
  { names: ['*'], match: (e) => e.children.length === 0 && e.text.trim() === '', asserts: [['ibr-079', () => false]] },
  { names: ['cbc:BaseQuantity'], match: (q, s) => q.attrs.unitCode !== undefined && s.parent(q)?.name === 'Price', asserts: [['ibr-088', (q, s) => {
    const line = s.parent(s.parent(q) as XmlElement);
    const quantities = [...path(line, 'cbc:InvoicedQuantity'), ...path(line, 'cbc:CreditedQuantity')];
    return quantities.length === 0 || quantities.some((x) => x.attrs.unitCode === q.attrs.unitCode);
  }]] },
  { names: ['cbc:ID'], match: (i, s) => under('cac:InvoiceLine', 'cac:DespatchLineReference', 'cac:DocumentReference')(i, s) || under('cac:CreditNoteLine', 'cac:DespatchLineReference', 'cac:DocumentReference')(i, s),
    asserts: [['ibr-092', (_i, s) => descendants(s.root, 'cac:DespatchDocumentReference').length === 0]] },
  { names: ['cac:DespatchLineReference'], match: (d, s) => ['InvoiceLine', 'CreditNoteLine'].includes(s.parent(d)?.name ?? ''), asserts: [['ibr-sr-62', (d) => count(d, 'cac:DocumentReference') <= 1]] },
  { names: ['cac:PrepaidPayment'], match: (p, s) => path(s.parent(p), 'cac:PrepaidPayment')[0] === p, asserts: [['ibr-093', (p, s) => has(s.parent(p), 'cac:LegalMonetaryTotal/cbc:PrepaidAmount')]] },
  { names: ['cac:Delivery'], asserts: [['ibr-108', (d) => count(d, 'cac:DeliveryParty/cac:PartyName/cbc:Name') <= 1]] },
];

const payeeIsSeller = (p: XmlElement, s: RuleScope) => path(p, 'cac:PartyName/cbc:Name').some((n) => path(s.parent(p), 'cac:AccountingSupplierParty/cac:Party/cac:PartyLegalEntity/cbc:RegistrationName').some((r) => r.text === n.text));

/** The code list pattern, for one specification (their type code lists differ). */
function codeLists(spec: Spec): Mode {
  const lists = officialCodeLists[spec];
  // Sets made once: the unit code list alone has 2,162 codes.
  const sets = new Map<string, ReadonlySet<string>>();
  const setOf = (id: string) => {
    let set = sets.get(id);
    if (!set) sets.set(id, (set = new Set(lists[id] as readonly string[])));
    return set;
  };
  const inList = (value: string, id: string) => {
    const v = value.replace(/\s+/g, ' ').trim();
    return v !== '' && !v.includes(' ') && setOf(id).has(v);
  };
  const list = { has: (e: XmlElement, id: string) => inList(e.text, id) };
  const attrIn = (name: string, id: string) => (e: XmlElement) => inList(e.attrs[name] ?? '', id);
  const [invoiceTypes, creditNoteTypes] = lists['ibr-cl-01'] as readonly (readonly string[])[];
  const [schemes] = lists['ibr-cl-10'] as readonly (readonly string[])[];
  const amounts = [...AMOUNTS, 'cbc:TaxAmount', 'cbc:TaxableAmount'];
  return [
    { names: ['cbc:InvoiceTypeCode', 'cbc:CreditNoteTypeCode'], asserts: [['ibr-cl-01', (e) => oneOf(e, (e.name === 'InvoiceTypeCode' ? invoiceTypes : creditNoteTypes).join(' '))]] },
    { names: amounts, asserts: [['ibr-cl-03', attrIn('currencyID', 'ibr-cl-03')]] },
    { names: ['cbc:DocumentCurrencyCode'], asserts: [['ibr-cl-04', (e) => list.has(e, 'ibr-cl-04')]] },
    { names: ['cbc:TaxCurrencyCode'], asserts: [['ibr-cl-05', (e) => list.has(e, 'ibr-cl-05')]] },
    { names: ['cbc:ID'], match: (e, s) => e.attrs.schemeID !== undefined && ['AdditionalDocumentReference', 'DocumentReference'].includes(s.parent(e)?.name ?? '') && eq(s.parent(e), 'cbc:DocumentTypeCode', '130'),
      asserts: [['ibr-cl-07', attrIn('schemeID', 'ibr-cl-07')]] },
    { names: ['cbc:ID'], match: (e, s) => e.attrs.schemeID !== undefined && s.parent(e)?.name === 'PartyIdentification', asserts: [['ibr-cl-10', (e, s) => {
      const v = norm({ ...e, text: e.attrs.schemeID ?? '' });
      return (!v.includes(' ') && ` ${schemes.join(' ')} `.includes(` ${v} `)) || (v === 'SEPA' && hasAncestor(e, s, 'cac:AccountingSupplierParty', 'cac:PayeeParty'));
    }]] },
    { names: ['cbc:CompanyID'], match: (e, s) => e.attrs.schemeID !== undefined && s.parent(e)?.name === 'PartyLegalEntity', asserts: [['ibr-cl-11', attrIn('schemeID', 'ibr-cl-11')]] },
    { names: ['cbc:ItemClassificationCode'], match: (e, s) => e.attrs.listID !== undefined && s.parent(e)?.name === 'CommodityClassification', asserts: [['ibr-cl-13', attrIn('listID', 'ibr-cl-13')]] },
    { names: ['cbc:IdentificationCode'], match: under('cac:Country'), asserts: [['ibr-cl-14', (e) => list.has(e, 'ibr-cl-14')]] },
    { names: ['cbc:IdentificationCode'], match: under('cac:OriginCountry'), asserts: [['ibr-cl-15', (e) => list.has(e, 'ibr-cl-15')]] },
    { names: ['cbc:PaymentMeansCode'], match: under('cac:PaymentMeans'), asserts: [['ibr-cl-16', (e) => list.has(e, 'ibr-cl-16')]] },
    { names: ['cbc:AllowanceChargeReasonCode'], match: (e, s) => eq(s.parent(e), 'cbc:ChargeIndicator', 'false'), asserts: [['ibr-cl-19', (e) => list.has(e, 'ibr-cl-19')]] },
    { names: ['cbc:AllowanceChargeReasonCode'], match: (e, s) => eq(s.parent(e), 'cbc:ChargeIndicator', 'true'), asserts: [['ibr-cl-20', (e) => list.has(e, 'ibr-cl-20')]] },
    { names: ['cbc:ID'], match: (e, s) => e.attrs.schemeID !== undefined && s.parent(e)?.name === 'StandardItemIdentification', asserts: [['ibr-cl-21', attrIn('schemeID', 'ibr-cl-21')]] },
    { names: ['cbc:InvoicedQuantity', 'cbc:BaseQuantity', 'cbc:CreditedQuantity'], match: (e) => e.attrs.unitCode !== undefined, asserts: [['ibr-cl-23', attrIn('unitCode', 'ibr-cl-23')]] },
    { names: ['cbc:EmbeddedDocumentBinaryObject'], match: (e) => e.attrs.mimeCode !== undefined, asserts: [['ibr-cl-24', (e) => (lists['ibr-cl-24'] as readonly string[]).includes(e.attrs.mimeCode ?? '')]] },
    { names: ['cbc:EndpointID'], match: (e) => e.attrs.schemeID !== undefined, asserts: [['ibr-cl-25', attrIn('schemeID', 'ibr-cl-25')]] },
    { names: ['cbc:ID'], match: (e, s) => e.attrs.schemeID !== undefined && s.parent(e)?.name === 'DeliveryLocation', asserts: [['ibr-cl-26', attrIn('schemeID', 'ibr-cl-26')]] },
  ];
}

/** The PAS issuing country (an attribute context of the jurisdiction code lists: ibr-011-ae, ibr-013-ae). */
function passportCountries(spec: Spec): Mode {
  const lists = officialCodeLists[spec];
  const check = (id: string, party: string): Template => ({
    names: ['cbc:CompanyID'],
    match: (e, s) => under(party, 'cac:Party', 'cac:PartyLegalEntity')(e, s) && e.attrs.schemeAgencyID === 'PAS' && e.attrs.schemeAgencyName !== undefined,
    asserts: [[id, (e) => {
      const v = (e.attrs.schemeAgencyName ?? '').replace(/\s+/g, ' ').trim();
      return v !== '' && !v.includes(' ') && ` ${(lists[id] as readonly string[]).join(' ')} `.includes(` ${v} `);
    }]],
  });
  return [check('ibr-011-ae', 'cac:AccountingCustomerParty'), check('ibr-013-ae', 'cac:AccountingSupplierParty')];
}

/** The modes of a specification (billing, self-billing): the UBL rules, the code lists, the passport countries. */
export const ublModesOf = (spec: Spec): readonly Mode[] => [m22, codeLists(spec), passportCountries(spec)];

