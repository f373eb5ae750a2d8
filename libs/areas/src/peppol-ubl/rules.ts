/**
 * Business rules beyond the schema, with the official rule id where one exists. Every rule is
 * pure and returns FieldIssue[]; `checkInvoice` runs them all so a client sees every problem at once.
 */
import { FieldIssue, issue } from '@einvoice/domain';
import { formatAmount, sameCents } from '../shared/money';
import { findDocumentType } from './document-types';
import { checkCustomerIdentifiers, identifierSchemes, resolveIdentifier } from './identifiers';
import type { AreaProfile } from './profiles';
import type { InvoiceBody, Supplier } from './schema';
import { currencyCodes, euCountries } from './tax';
import { categoryOf, computeTotals } from './totals';

type Rule = (p: AreaProfile, dto: InvoiceBody) => FieldIssue[];

/** EN 16931 names rule families after the category, except K whose rules are BR-IC-nn. */
const family = (code: string) => (code === 'K' ? 'IC' : code);

/** BT-3: the value must be in the area's table. */
export const documentTypeRule: Rule = (p, dto) =>
  findDocumentType(p.documentTypes, dto.DocumentType) ? [] : [issue('DocumentType', 'FIELD.INVALID_VALUE',
    `DocumentType ${dto.DocumentType} is not accepted here; accepted values: ${p.documentTypes.map((t) => t.value).join(', ')}`)];

/** BT-5 must be an ISO 4217 code (BR-CL-04). */
export const currencyRule: Rule = (p, dto) => {
  const code = dto.DocumentCurrencyCode ?? p.defaultCurrency;
  return currencyCodes.has(code) ? [] : [issue('DocumentCurrencyCode', 'BR-CL-04', `DocumentCurrencyCode ${code} is not an ISO 4217 currency code`)];
};

/** Per line: TaxType allowed in the area, rate coherent with the category, TaxCountry, exemption reason, price sign. */
export const lineTaxRule: Rule = (p, dto) => dto.InvoiceLines.flatMap((line, i) => {
  const at = `InvoiceLines[${i}]`;
  const issues: FieldIssue[] = [];
  if (line.PriceAmount < 0) issues.push(issue(`${at}.PriceAmount`, 'BR-27', `${at}.PriceAmount must not be negative (BR-27); use a negative InvoicedQuantity or a credit note`));
  const tax = line.TaxType;
  if (tax.TaxCountry !== p.country) {
    issues.push(issue(`${at}.TaxType.TaxCountry`, 'FIELD.INVALID_VALUE', `${at}.TaxType.TaxCountry must be ${p.country}: this area charges ${p.country} ${p.taxSchemeId} only`));
  }
  const category = categoryOf(p, tax.TaxType);
  if (!category) {
    issues.push(issue(`${at}.TaxType.TaxType`, 'FIELD.INVALID_VALUE',
      `${at}.TaxType.TaxType ${tax.TaxType} is not used in ${p.country}; accepted values: ${Object.keys(p.taxCategories).join(', ')}`));
    return issues;
  }
  if (tax.TaxRate < 0 || tax.TaxRate >= 100) {
    issues.push(issue(`${at}.TaxType.TaxRate`, 'FIELD.INVALID_VALUE', `${at}.TaxType.TaxRate must be a percentage from 0 to below 100`));
  } else if (category.rate === 'positive' && tax.TaxRate <= 0) {
    issues.push(issue(`${at}.TaxType.TaxRate`, `BR-${family(category.code)}-05`, `${at}.TaxType.TaxRate must be greater than 0 for a ${tax.TaxType} line (BR-${family(category.code)}-05)`));
  } else if (category.rate !== 'positive' && tax.TaxRate !== 0) {
    issues.push(issue(`${at}.TaxType.TaxRate`, `BR-${family(category.code)}-05`, `${at}.TaxType.TaxRate must be 0 for a ${tax.TaxType} line (BR-${family(category.code)}-05)`));
  }
  if (category.exemption === 'required' && !tax.TaxExemptionReason) {
    issues.push(issue(`${at}.TaxType.TaxExemptionReason`, 'FIELD.REQUIRED', `${at}.TaxType.TaxExemptionReason is required for a ${tax.TaxType} line (BR-${family(category.code)}-10)`));
  }
  if (category.exemption === 'forbidden' && tax.TaxExemptionReason) {
    issues.push(issue(`${at}.TaxType.TaxExemptionReason`, 'FIELD.INVALID_VALUE', `${at}.TaxType.TaxExemptionReason must be left out for a ${tax.TaxType} line (BR-${family(category.code)}-10)`));
  }
  return issues;
});

/** Categories that must stand alone (BR-O-11, BR-NG-11-GST-SG); one exemption reason per breakdown (BR-CO-17 grouping). */
export const categoryMixRule: Rule = (p, dto) => {
  const cats = dto.InvoiceLines.map((l) => categoryOf(p, l.TaxType.TaxType)).filter((c) => c !== undefined);
  const codes = new Set(cats.map((c) => c.code));
  const exclusive = cats.find((c) => c.exclusive);
  const issues: FieldIssue[] = [];
  if (exclusive && codes.size > 1) {
    const rule = p.code === 'sg' ? `BR-${exclusive.code}-11-GST-SG` : `BR-${exclusive.code}-11`;
    issues.push(issue('InvoiceLines', rule, `A document with ${exclusive.code} lines cannot contain other tax categories (${rule})`));
  }
  const reasons = new Map<string, string | undefined>();
  dto.InvoiceLines.forEach((l, i) => {
    const c = categoryOf(p, l.TaxType.TaxType);
    if (!c || c.exemption === 'forbidden') return;
    const key = `${c.code}|${l.TaxType.TaxRate}`;
    if (reasons.has(key) && reasons.get(key) !== l.TaxType.TaxExemptionReason) {
      issues.push(issue(`InvoiceLines[${i}].TaxType.TaxExemptionReason`, 'FIELD.INVALID_VALUE',
        `InvoiceLines[${i}].TaxType.TaxExemptionReason must match the other ${l.TaxType.TaxType} lines: one breakdown carries one reason`));
    }
    if (!reasons.has(key)) reasons.set(key, l.TaxType.TaxExemptionReason);
  });
  return issues;
};

const hasBuyerVat = (dto: InvoiceBody) => dto.CustomerParty.Identifiers.some((id) => resolveIdentifier(id.Scheme, id.ID)?.vat);

/** Buyer-side requirements of reverse charge and intra-Community supply (BR-AE-02, BR-IC-02), and export (BR-G). */
export const buyerRule: Rule = (p, dto) => {
  const issues = checkCustomerIdentifiers(dto.CustomerParty.Identifiers, 'CustomerParty.Identifiers');
  const types = new Set(dto.InvoiceLines.map((l) => l.TaxType.TaxType));
  const country = dto.CustomerParty.address.Country;
  for (const t of types) {
    const c = categoryOf(p, t);
    if (c?.buyerVat && !hasBuyerVat(dto)) {
      issues.push(issue('CustomerParty.Identifiers', `BR-${c.code === 'K' ? 'IC' : c.code}-02`,
        `CustomerParty.Identifiers must include the buyer's VAT number (e.g. BE:VAT or EAS 99xx) for ${t} lines`));
    }
    if (p.taxSchemeId === 'VAT' && t === 'intra_community' && (!euCountries.has(country) || country === p.country)) {
      issues.push(issue('CustomerParty.address.Country', 'FIELD.INVALID_VALUE', `An intra_community supply needs a buyer in another EU member state, not ${country}`));
    }
    if (p.taxSchemeId === 'VAT' && t === 'export' && euCountries.has(country)) {
      issues.push(issue('CustomerParty.address.Country', 'FIELD.INVALID_VALUE', `An export line needs a buyer outside the EU, not ${country}`));
    }
  }
  return issues;
};

/** Credit notes reference the invoice they correct (BG-3); SG credit notes state the reason (BR-111-GST-SG). */
export const creditNoteRule: Rule = (p, dto) => {
  const type = findDocumentType(p.documentTypes, dto.DocumentType);
  const issues: FieldIssue[] = [];
  if (type?.root === 'CreditNote') {
    if (!dto.BillingReference) issues.push(issue('BillingReference', 'FIELD.REQUIRED', 'BillingReference is required for a credit note: give the ID of the invoice it corrects'));
    if (p.code === 'sg' && !dto.Note) issues.push(issue('Note', 'BR-111-GST-SG', 'Note is required for a credit note: give the reason for the credit (BR-111-GST-SG)'));
  }
  if (dto.BillingReference?.IssueDate && dto.BillingReference.IssueDate > dto.IssueDate) {
    issues.push(issue('BillingReference.IssueDate', 'FIELD.INVALID_VALUE', 'BillingReference.IssueDate cannot be after IssueDate'));
  }
  if (dto.DueDate && dto.DueDate < dto.IssueDate) issues.push(issue('DueDate', 'FIELD.INVALID_VALUE', 'DueDate cannot be before IssueDate'));
  return issues;
};

/** Payment means and accounting currency. */
export const paymentRule: Rule = (p, dto) => {
  const issues: FieldIssue[] = [];
  const pm = dto.PaymentMeans;
  if (pm && (pm.Code === '30' || pm.Code === '58') && !pm.AccountID) {
    issues.push(issue('PaymentMeans.AccountID', 'FIELD.REQUIRED', 'PaymentMeans.AccountID is required for a credit transfer (BR-50, DE-R-023-1)'));
  }
  if (p.code === 'de' && dto.CustomerParty.address.Country === 'DE' && !pm) {
    issues.push(issue('PaymentMeans', 'DE-R-001', 'PaymentMeans is required when supplier and customer are both in Germany (DE-R-001)'));
  }
  const currency = dto.DocumentCurrencyCode ?? p.defaultCurrency;
  if (dto.TaxExchangeRate !== undefined && dto.TaxExchangeRate <= 0) {
    issues.push(issue('TaxExchangeRate', 'FIELD.INVALID_VALUE', 'TaxExchangeRate must be greater than 0'));
  }
  const gst = dto.InvoiceLines.some((l) => categoryOf(p, l.TaxType.TaxType)?.sellerVat !== 'forbidden');
  if (p.taxCurrency && currency !== p.taxCurrency && gst && dto.TaxExchangeRate === undefined) {
    issues.push(issue('TaxExchangeRate', 'BR-113-GST-SG',
      `TaxExchangeRate (${p.taxCurrency} per ${currency}) is required to state GST in ${p.taxCurrency} (BR-113-GST-SG)`));
  }
  return issues;
};

/** BT-112: the client's total must be ours to the cent (BT-131, BR-CO-17, BR-CO-15). */
export const totalRule: Rule = (p, dto) => {
  const totals = computeTotals(p, dto);
  if (sameCents(totals.totalIncludingVat, dto.TotalIncludingVat)) return [];
  return [issue('TotalIncludingVat', 'DOCUMENT.TOTAL_MISMATCH', `TotalIncludingVat is ${String(dto.TotalIncludingVat)} but the lines with VAT come to ${formatAmount(totals.totalIncludingVat)}`)];
};

/** Rules that need the onboarded supplier: seller VAT id and address per category and country. */
export function checkSupplier(p: AreaProfile, dto: InvoiceBody, supplier: Supplier): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const cats = dto.InvoiceLines.map((l) => categoryOf(p, l.TaxType.TaxType)).filter((c) => c !== undefined);
  const hasVat = supplier.identifiers.some((i) => identifierSchemes[i.scheme]?.vat) || p.code === 'sg';
  const needVat = cats.find((c) => c.sellerVat === 'required');
  if (needVat && !hasVat) {
    issues.push(issue('supplier.identifiers', `BR-${needVat.code}-02`, `Category ${needVat.code} needs the supplier's VAT identifier (${p.requiredSchemes[0]}) in its onboarding (BR-${needVat.code}-02)`));
  }
  const missing = (field: keyof Supplier, rule: string, name: string) => {
    if (!supplier[field] || supplier[field] === 'NA') issues.push(issue(`supplier.${name}`, rule, `The supplier's onboarding lacks ${name}, required here (${rule})`));
  };
  if (p.code === 'de' && supplier.country === 'DE' && dto.CustomerParty.address.Country === 'DE') {
    missing('city', 'DE-R-003', 'city');
    missing('postalCode', 'DE-R-004', 'postal_code');
    missing('contactName', 'DE-R-005', 'contact_name');
    missing('contactNumber', 'DE-R-006', 'contact_number');
    missing('contactEmail', 'DE-R-007', 'contact_email');
  }
  if (p.code === 'sg' && cats.some((c) => ['SR', 'ZR'].includes(c.code))) {
    missing('street', 'BR-106-GST-SG', 'street');
    missing('postalCode', 'BR-106-GST-SG', 'postal_code');
  }
  return issues;
}

const rules: readonly Rule[] = [documentTypeRule, currencyRule, lineTaxRule, categoryMixRule, buyerRule, creditNoteRule, paymentRule];

/** All business-rule issues of a schema-valid invoice; supplier rules run when the supplier is known. */
export function checkInvoice(p: AreaProfile, dto: InvoiceBody, supplier?: Supplier): FieldIssue[] {
  const issues = rules.flatMap((rule) => rule(p, dto));
  // Totals need every line's category; an unknown TaxType is already reported above.
  const categorized = dto.InvoiceLines.every((l) => categoryOf(p, l.TaxType.TaxType));
  if (categorized) issues.push(...totalRule(p, dto));
  if (supplier) issues.push(...checkSupplier(p, dto, supplier));
  return issues;
}
