/**
 * The invoice rules of README.md "Decisions" beyond the schema, every issue at its field: the buyer's
 * identifier, JoFotara's rates, categories and discounts per line, the buyer's name where JoFotara wants
 * it, and the order of invoice numbers.
 */
import { type FieldIssue, issue } from '@einvoice/domain';
import { CATEGORY_CODES, type JoBuyer, type JoLine, STANDARD_RATES, joTotals } from './invoice';
import type { InvoiceClass, JofotaraInvoiceBody } from './schema';

/** Above this total (JOD) a cash invoice names its buyer (JoFotara). */
export const NAMED_BUYER_ABOVE_JOD = 10_000;

const same = (a: number, b: number) => Math.abs(a - b) < 1e-9;

export function lineIssues(dto: JofotaraInvoiceBody, invoiceClass: InvoiceClass): { issues: FieldIssue[]; lines: JoLine[] } {
  const issues: FieldIssue[] = [];
  const lines = dto.lineitems.map((item, i): JoLine => {
    const at = `lineitems[${i}]`;
    if (!(item.quantity > 0)) issues.push(issue(`${at}.quantity`, 'JOFOTARA.QUANTITY', 'quantity must be more than 0.'));
    if (item.tax_exclusive_price < 0) issues.push(issue(`${at}.tax_exclusive_price`, 'JOFOTARA.PRICE', 'tax_exclusive_price (the unit price before tax) must not be negative.'));
    const rate = item.tax_percentage;
    if (item.tax_category === 'Standard') {
      if (invoiceClass === 'income') {
        issues.push(issue(`${at}.tax_category`, 'JOFOTARA.INCOME_NO_TAX', 'This supplier issues income invoices, which carry no tax: use Exempted or ZeroTax with tax_percentage 0.'));
      } else if (!STANDARD_RATES.some((r) => same(r, rate))) {
        const hint = rate > 1 ? ` ${rate} looks like a percentage: send the fraction (${rate / 100}).` : '';
        issues.push(issue(`${at}.tax_percentage`, 'JOFOTARA.RATE', `A Standard line takes one of JoFotara's general-sales rates, as a fraction: ${STANDARD_RATES.join(', ')}.${hint}`));
      }
    } else if (!same(rate, 0)) {
      issues.push(issue(`${at}.tax_percentage`, 'JOFOTARA.RATE', `A ${item.tax_category} line takes tax_percentage 0.`));
    }
    const discounts = item.discounts ?? [];
    discounts.forEach((d, j) => {
      if (!(d.amount >= 0)) issues.push(issue(`${at}.discounts[${j}].amount`, 'JOFOTARA.DISCOUNT', 'A discount amount must not be negative.'));
    });
    const line = joLineOf(item);
    if (line.discount > item.tax_exclusive_price * item.quantity + 1e-9) {
      issues.push(issue(`${at}.discounts`, 'JOFOTARA.DISCOUNT', 'The line\'s discounts exceed its amount (tax_exclusive_price × quantity).'));
    }
    if (item.special_tax_amount !== undefined && invoiceClass !== 'special_sales') {
      issues.push(issue(`${at}.special_tax_amount`, 'JOFOTARA.SPECIAL_TAX', 'special_tax_amount belongs to special-sales invoices; this supplier is not registered for them.'));
    }
    return line;
  });
  return { issues, lines };
}

/** A line of the body as the totals take it (its discounts summed); the printed view reads stored lines with it too. */
export function joLineOf(item: JofotaraInvoiceBody['lineitems'][number]): JoLine {
  return {
    description: item.description,
    quantity: item.quantity,
    unitPrice: item.tax_exclusive_price,
    rate: item.tax_percentage,
    category: item.tax_category as keyof typeof CATEGORY_CODES,
    discount: (item.discounts ?? []).reduce((total, d) => total + d.amount, 0),
    ...(item.special_tax_amount !== undefined ? { specialTax: item.special_tax_amount } : {}),
  };
}

/** The buyer: one of its three identifiers (TN, NIN, PN), and its name where JoFotara requires it. */
export function buyerIssues(dto: JofotaraInvoiceBody, payment: 'cash' | 'receivable', lines: readonly JoLine[], invoiceClass: InvoiceClass): { issues: FieldIssue[]; buyer?: JoBuyer } {
  const b = dto.buyer_details;
  const id = b.buyer_tin?.trim() ? { scheme: 'TN' as const, value: b.buyer_tin.trim() }
    : b.buyer_nin?.trim() ? { scheme: 'NIN' as const, value: b.buyer_nin.trim() }
    : b.buyer_pn?.trim() ? { scheme: 'PN' as const, value: b.buyer_pn.trim() }
    : undefined;
  const issues: FieldIssue[] = [];
  if (!id) issues.push(issue('buyer_details', 'JOFOTARA.BUYER_ID', 'buyer_details needs one of buyer_tin, buyer_nin or buyer_pn.'));
  const payable = joTotals(lines, invoiceClass).payable.toNumber();
  if (!b.buyer_name?.trim() && (payment === 'receivable' || payable > NAMED_BUYER_ABOVE_JOD)) {
    issues.push(issue('buyer_details.buyer_name', 'JOFOTARA.BUYER_NAME', `JoFotara requires the buyer's name on a receivable invoice and on a cash invoice above ${NAMED_BUYER_ABOVE_JOD} JOD (this one: ${payable.toFixed(3)}).`));
  }
  if (!id) return { issues };
  return { issues, buyer: { id, ...(b.buyer_name?.trim() ? { name: b.buyer_name.trim() } : {}), ...(b.city_code ? { cityCode: b.city_code } : {}), ...(b.postal_code ? { postalCode: b.postal_code } : {}), ...(b.phone ? { phone: b.phone } : {}) } };
}

/**
 * Invoice numbers in order (the seed: "issued in sequence"): compared part by part, digits as numbers
 * (`INV-9` < `INV-10`). Equal is allowed: it passes only when the earlier one was refused (its number is free again).
 */
export function compareNumbers(a: string, b: string): number {
  const parts = (s: string) => s.match(/\d+|\D+/g) ?? [];
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
    const [p, q] = [x[i], y[i]];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    const numeric = /^\d/.test(p) && /^\d/.test(q);
    const order = numeric ? (BigInt(p) < BigInt(q) ? -1 : BigInt(p) > BigInt(q) ? 1 : 0) : p < q ? -1 : p > q ? 1 : 0;
    if (order) return order;
  }
  return 0;
}
