/**
 * The invoice rules of README.md "Decisions" beyond the schema, every issue at its field: the invoice
 * type, the lines' amounts, the taxes, and the totals (reconciled when sent, derived when not); the IRN.
 */
import { type FieldIssue, issue } from '@einvoice/domain';
import { Dec, formatAmount } from '../shared/money';
import { INVOICE_TYPES, TAX_CATEGORIES } from './codes';
import type { FirsInvoiceBody } from './schema';

/** A cent either way: the caller rounds its own way. */
const TOLERANCE = 0.01;
const near = (a: number, b: Parameters<typeof formatAmount>[0]) => Math.abs(a - Number(formatAmount(b))) <= TOLERANCE + 1e-9;

export interface FirsTotals {
  readonly lineExtension: string;
  readonly taxExclusive: string;
  readonly tax: string;
  readonly taxInclusive: string;
  readonly payable: string;
  readonly allowances: string;
  readonly charges: string;
}

/** Every issue with the invoice, and its totals (as strings, 2 decimals). */
export function checkInvoice(dto: FirsInvoiceBody): { issues: FieldIssue[]; totals: FirsTotals } {
  const issues: FieldIssue[] = [];
  if (!INVOICE_TYPES[dto.invoice_type_code]) {
    issues.push(issue('invoice_type_code', 'FIRS.INVOICE_TYPE', `invoice_type_code must be one of FIRS's invoice types: ${Object.entries(INVOICE_TYPES).map(([code, name]) => `${code} (${name})`).join(', ')}.`));
  }
  if (dto.due_date && dto.due_date < dto.issue_date) issues.push(issue('due_date', 'FIRS.DUE_DATE', 'due_date may not be before issue_date.'));
  if (!dto.document_identifier.replace(/[^A-Za-z0-9]/g, '')) issues.push(issue('document_identifier', 'FIRS.DOCUMENT_IDENTIFIER', 'document_identifier needs letters or digits (the IRN keeps only those).'));
  let lineExtension = new Dec(0);
  dto.invoice_line.forEach((line, i) => {
    const at = `invoice_line[${i}]`;
    if (!(line.invoiced_quantity > 0)) issues.push(issue(`${at}.invoiced_quantity`, 'FIRS.QUANTITY', 'invoiced_quantity must be more than 0.'));
    if (line.price.price_amount < 0) issues.push(issue(`${at}.price.price_amount`, 'FIRS.PRICE', 'price_amount must not be negative.'));
    for (const [field, value] of [['discount_amount', line.discount_amount], ['fee_amount', line.fee_amount], ['discount_rate', line.discount_rate], ['fee_rate', line.fee_rate]] as const) {
      if (value !== undefined && value < 0) issues.push(issue(`${at}.${field}`, 'FIRS.AMOUNT', `${field} must not be negative.`));
    }
    const expected = new Dec(line.price.price_amount).times(line.invoiced_quantity).minus(line.discount_amount ?? 0).plus(line.fee_amount ?? 0);
    if (!near(line.line_extension_amount, expected)) {
      issues.push(issue(`${at}.line_extension_amount`, 'FIRS.LINE_AMOUNT', `line_extension_amount must be invoiced_quantity × price_amount − discount_amount + fee_amount = ${formatAmount(expected)}.`));
    }
    lineExtension = lineExtension.plus(line.line_extension_amount);
  });
  let tax = new Dec(0);
  (dto.tax_total ?? []).forEach((total, i) => {
    let sum = new Dec(0);
    total.tax_subtotal.forEach((sub, j) => {
      const at = `tax_total[${i}].tax_subtotal[${j}]`;
      if (!TAX_CATEGORIES.includes(sub.tax_category.id)) issues.push(issue(`${at}.tax_category.id`, 'FIRS.TAX_CATEGORY', `tax_category.id must be one of FIRS's tax categories: ${TAX_CATEGORIES.join(', ')}.`));
      if (sub.tax_category.percent < 0 || sub.tax_category.percent > 100) issues.push(issue(`${at}.tax_category.percent`, 'FIRS.TAX_PERCENT', 'percent is a percentage between 0 and 100.'));
      const expected = new Dec(sub.taxable_amount).times(sub.tax_category.percent).dividedBy(100);
      if (!near(sub.tax_amount, expected)) issues.push(issue(`${at}.tax_amount`, 'FIRS.TAX_AMOUNT', `tax_amount must be taxable_amount × percent / 100 = ${formatAmount(expected)}.`));
      sum = sum.plus(sub.tax_amount);
    });
    if (!near(total.tax_amount, sum)) issues.push(issue(`tax_total[${i}].tax_amount`, 'FIRS.TAX_AMOUNT', `tax_amount must be the sum of its subtotals, ${formatAmount(sum)}.`));
    tax = tax.plus(total.tax_amount);
  });
  const allowances = (dto.allowance_charge ?? []).filter((a) => !a.charge_indicator).reduce((s, a) => s.plus(a.amount), new Dec(0));
  const charges = (dto.allowance_charge ?? []).filter((a) => a.charge_indicator).reduce((s, a) => s.plus(a.amount), new Dec(0));
  (dto.allowance_charge ?? []).forEach((a, i) => {
    if (a.amount < 0) issues.push(issue(`allowance_charge[${i}].amount`, 'FIRS.AMOUNT', 'amount must not be negative.'));
  });
  const taxExclusive = lineExtension.minus(allowances).plus(charges);
  const taxInclusive = taxExclusive.plus(tax);
  const totals: FirsTotals = {
    lineExtension: formatAmount(lineExtension),
    taxExclusive: formatAmount(taxExclusive),
    tax: formatAmount(tax),
    taxInclusive: formatAmount(taxInclusive),
    payable: formatAmount(taxInclusive),
    allowances: formatAmount(allowances),
    charges: formatAmount(charges),
  };
  const sent = dto.legal_monetary_total;
  if (sent) {
    const expected: Array<[keyof typeof sent, string, string]> = [
      ['line_extension_amount', totals.lineExtension, 'the sum of the lines'],
      ['tax_exclusive_amount', totals.taxExclusive, 'lines − allowances + charges'],
      ['tax_inclusive_amount', totals.taxInclusive, 'tax exclusive + taxes'],
      ['payable_amount', totals.payable, 'tax inclusive'],
    ];
    for (const [field, value, how] of expected) {
      if (!near(sent[field], value)) issues.push(issue(`legal_monetary_total.${field}`, 'FIRS.TOTAL_MISMATCH', `legal_monetary_total.${field} must be ${value} (${how}).`));
    }
  }
  return { issues, totals };
}

/** IRN = document identifier without non-alphanumerics - the supplier's service id - YYYYMMDD of issue_date. */
export const irnOf = (documentIdentifier: string, serviceId: string, issueDate: string) =>
  `${documentIdentifier.replace(/[^A-Za-z0-9]/g, '')}-${serviceId}-${issueDate.replace(/-/g, '')}`;
