/**
 * Amounts of a UAE document, fill-missing-only (seed "Totals"): a stated value is used as sent, an
 * omitted one is derived from the lines, following the PINT AE rules the official Schematron
 * checks (ibr-147-ae line net, ibr-co-10..16 totals, aligned-ibrp-*-08/09 breakdown). Every
 * derived amount is rounded half-up to 2 decimals once, where EN 16931 rounds it.
 */
import type Decimal from 'decimal.js';
import { dec, Dec, round2, sum } from '../shared/money';
import type { UaeDocument } from './document';
import type { UaeTaxCategory } from './schema-fields';

type Line = UaeDocument['lines'][number];
type AllowanceCharge = NonNullable<UaeDocument['allowance_charges']>[number];

/** The only rate of category S (ibr-190-ae) and of Z: used when a line or allowance states none. */
const defaultRates: Partial<Record<UaeTaxCategory, string>> = { S: '5', Z: '0' };

/** A line's amounts (IBG-25, IBG-29, BTAE-08/10). */
export interface UaeLineAmounts {
  readonly quantity: Decimal;
  /** Item net price (IBT-146) and its base quantity (IBT-149, default 1). */
  readonly price: Decimal;
  readonly baseQuantity: Decimal;
  /** Price discount (IBT-147) and gross price (IBT-148): omitted gross = net + discount (seed "Lines"). */
  readonly discount: Decimal;
  readonly gross: Decimal;
  /** Line net amount (IBT-131). */
  readonly net: Decimal;
  /** Category of an out-of-scope credit note line without one is O. */
  readonly category: UaeTaxCategory;
  /** Rendered rate: none on E and O (issue 10). */
  readonly percent?: Decimal;
  /** VAT of the line (BTAE-08): S at its rate, 0 for Z, AE, N and O, none for E (ibr-163-ae). */
  readonly tax?: Decimal;
  /** Line amount with VAT (BTAE-10). */
  readonly withTax: Decimal;
}

/** One VAT breakdown row (IBG-23). */
export interface UaeBreakdown {
  readonly category: UaeTaxCategory;
  readonly percent?: Decimal;
  readonly taxable: Decimal;
  readonly tax: Decimal;
}

export interface UaeTotals {
  readonly lines: readonly UaeLineAmounts[];
  readonly breakdown: readonly UaeBreakdown[];
  readonly lineExtension: Decimal;
  /** Present when the document has allowances (or states their total) / charges. */
  readonly allowanceTotal?: Decimal;
  readonly chargeTotal?: Decimal;
  readonly taxExclusive: Decimal;
  readonly tax: Decimal;
  readonly taxInclusive: Decimal;
  readonly prepaid?: Decimal;
  readonly payable: Decimal;
}

const noRate = (c: UaeTaxCategory) => c === 'E' || c === 'O';
const opt = (v: string | undefined) => (v === undefined ? undefined : dec(v));

/** The rendered rate of a line: as sent, S and Z defaulted, none on E and O. */
function lineRate(category: UaeTaxCategory, sent: string | undefined): Decimal | undefined {
  if (noRate(category)) return undefined;
  return opt(sent ?? defaultRates[category]);
}

/**
 * The rendered rate of a document-level allowance or charge: E and AE are 0 (aligned-ibrp-e-06/07,
 * aligned-ibrp-ae-06/07), O none (aligned-ibrp-o-06/07), S and Z as sent or defaulted, N as sent.
 */
export function allowanceRate(a: AllowanceCharge): Decimal | undefined {
  const c = a.tax_category;
  if (c === undefined || c === 'O') return undefined;
  if (c === 'E' || c === 'AE') return new Dec(0);
  return opt(a.tax_percentage ?? defaultRates[c]);
}

export function lineAmounts(l: Line): UaeLineAmounts {
  const category = l.tax_category ?? 'O';
  const price = dec(l.unit_price);
  const baseQuantity = dec(l.base_quantity ?? '1');
  const discount = l.price_discount !== undefined ? dec(l.price_discount) : l.gross_price !== undefined ? dec(l.gross_price).minus(price) : new Dec(0);
  const gross = l.gross_price !== undefined ? dec(l.gross_price) : price.plus(discount);
  const quantity = dec(l.quantity);
  const adjust = sum((l.allowance_charges ?? []).map((a) => (a.charge_indicator ? dec(a.amount) : dec(a.amount).negated())));
  const net = l.line_amount !== undefined ? round2(l.line_amount) : round2(quantity.times(price).dividedBy(baseQuantity).plus(adjust));
  const percent = lineRate(category, l.tax_percentage);
  const computed = category === 'E' ? undefined : category === 'S' && percent ? round2(net.times(percent).dividedBy(100)) : new Dec(0);
  const tax = category === 'E' ? undefined : opt(l.tax_line_amount_aed) ?? computed;
  const withTax = opt(l.line_amount_aed) ?? net.plus(tax ?? 0);
  return { quantity, price, baseQuantity, discount, gross, net, category, percent, tax, withTax };
}

/**
 * Rows by category, and by rate for S, Z and N (aligned-ibrp-s-08); AE takes its lines' rate
 * (the allowances' 0 joins the same row, as in the official AE examples); E and O have none.
 */
function breakdown(lines: readonly UaeLineAmounts[], allowances: readonly AllowanceCharge[]): UaeBreakdown[] {
  const rows = new Map<string, { category: UaeTaxCategory; percent?: Decimal; taxable: Decimal }>();
  const add = (category: UaeTaxCategory, percent: Decimal | undefined, amount: Decimal) => {
    const byRate = category === 'S' || category === 'Z' || category === 'N';
    const key = byRate ? `${category}/${percent?.toString() ?? ''}` : category;
    const row = rows.get(key);
    if (row) row.taxable = row.taxable.plus(amount);
    else rows.set(key, { category, percent: noRate(category) ? undefined : percent, taxable: amount });
  };
  lines.forEach((l) => add(l.category, l.percent, l.net));
  allowances.filter((a) => a.tax_category !== undefined).forEach((a) => {
    add(a.tax_category as UaeTaxCategory, allowanceRate(a), a.charge_indicator ? dec(a.amount) : dec(a.amount).negated());
  });
  return [...rows.values()].map((r) => ({
    ...r,
    taxable: round2(r.taxable),
    // Only S carries VAT in the breakdown; Z, E, O, AE (aligned-ibrp-ae-09-ae) and N (ibr-108-ae) are 0.
    tax: r.category === 'S' && r.percent ? round2(r.taxable.times(r.percent).dividedBy(100)) : new Dec(0),
  }));
}

/** The document's amounts: stated totals and tax rows as sent, the rest derived. */
export function computeUaeTotals(d: UaeDocument): UaeTotals {
  const stated = d.invoice_totals ?? {};
  const lines = d.lines.map(lineAmounts);
  const allowances = d.allowance_charges ?? [];
  const rows: UaeBreakdown[] = d.tax_totals
    ? d.tax_totals.map((r) => ({ category: r.tax_category, percent: noRate(r.tax_category) ? undefined : dec(r.tax_rate), taxable: dec(r.taxable_amount), tax: dec(r.tax_amount) }))
    : breakdown(lines, allowances);
  const allowanceSum = sum(allowances.filter((a) => !a.charge_indicator).map((a) => a.amount));
  const chargeSum = sum(allowances.filter((a) => a.charge_indicator).map((a) => a.amount));
  const lineExtension = opt(stated.line_extension_amount) ?? sum(lines.map((l) => l.net));
  const allowanceTotal = opt(stated.allowance_total_amount) ?? (allowances.some((a) => !a.charge_indicator) ? allowanceSum : undefined);
  const chargeTotal = allowances.some((a) => a.charge_indicator) ? chargeSum : undefined;
  const taxExclusive = opt(stated.taxable_amount) ?? lineExtension.minus(allowanceTotal ?? 0).plus(chargeTotal ?? 0);
  const tax = sum(rows.map((r) => r.tax));
  const taxInclusive = taxExclusive.plus(tax);
  const prepaid = opt(stated.prepaid_amount);
  const payable = opt(stated.payable_amount) ?? taxInclusive.minus(prepaid ?? 0);
  return { lines, breakdown: rows, lineExtension, allowanceTotal, chargeTotal, taxExclusive, tax, taxInclusive, prepaid, payable };
}

/**
 * Document currency to AED (BTAE-04): as sent, else the AED total with VAT over the total with VAT
 * (or, for a document whose total is 0, the AED VAT over the VAT), at the 6 decimals ibr-002-ae allows.
 */
export function exchangeRate(d: UaeDocument, t: UaeTotals): Decimal | undefined {
  if (d.exchange_rate !== undefined) return dec(d.exchange_rate);
  const pairs: [string | undefined, Decimal][] = [[d.total_amount_with_tax_in_aed, t.taxInclusive], [d.total_tax_amount_in_aed, t.tax]];
  const [aed, own] = pairs.find(([a, o]) => a !== undefined && !o.isZero()) ?? [];
  return aed === undefined || own === undefined ? undefined : dec(aed).dividedBy(own).toDecimalPlaces(6, Dec.ROUND_HALF_UP);
}
