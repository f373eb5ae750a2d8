/**
 * The tax side of PINT MY 1.3.1, derived from the MyInvois lines and their totals (totals.ts) so
 * the Peppol copy states the taxes MyInvois validated. How PINT MY expresses each MyInvois case,
 * following the official examples and rules (shared/conformance/pint-my/1.3.1):
 * - each LineTaxes entry of a line is one ClassifiedTaxCategory (ibt-151/152) and one line
 *   TaxSubtotal, as Invoice-Sample-TTX (HVG + TTX on one line); the document has one breakdown
 *   (ibg-23) per category and rate, whose taxable amount sums the net of the lines carrying it
 *   (aligned-ibrp-*-08), so a line taxed twice counts in two breakdowns;
 * - per-unit taxes (TaxBaseUnit × TaxPerUnit) keep BaseUnitMeasure and PerUnitAmount on the line;
 *   TTX has no rate (aligned-ibrp-ttx-08), the VAT-scheme categories SA/SE/HVG/LVG must state one
 *   (aligned-ibrp-048) that reproduces the amount (aligned-ibrp-*-09): the line's effective rate;
 * - document-level Discounts/Charges are untaxed in MyInvois (README "Rounding"): category O.
 * What none of this can express is refused with {@link PintMyUnsupported}.
 */
import Decimal from 'decimal.js';
import { dec, mulRound2, sum } from '../shared/money';
import { PintMyCategoryCode, pintMyCategories, PintMyUnsupported } from './pint-my-codes';
import type { DocumentBase, LineTax } from './schema-document';
import type { DocumentTotals, LineTaxTotal } from './totals';

/** A PINT MY tax category as rendered (TaxCategory / ClassifiedTaxCategory). */
export interface PintMyCategory {
  readonly code: PintMyCategoryCode;
  readonly scheme: 'VAT' | 'AAL';
  /** ibt-119 / ibt-152; absent for O and TTX (aligned-ibrp-048). */
  readonly percent?: Decimal;
  /** ibt-120, exempt (E) only. */
  readonly exemptionReason?: string;
}

/** One LineTaxes entry as a line TaxSubtotal. */
export interface PintMyLineTax {
  readonly category: PintMyCategory;
  /** Index of the LineTaxes entry it renders (for refusals). */
  readonly index: number;
  readonly taxable: Decimal;
  readonly amount: Decimal;
  /** Per-unit form only: TaxBaseUnit (BaseUnitMeasure) and TaxPerUnit (PerUnitAmount). */
  readonly baseUnit?: Decimal;
  readonly perUnit?: Decimal;
}

/** The taxes of one line. */
export interface PintMyLine {
  readonly taxes: readonly PintMyLineTax[];
  /** Distinct categories of the line, in order (its ClassifiedTaxCategory elements). */
  readonly categories: readonly PintMyCategory[];
  /**
   * Line TaxTotal/TaxAmount: all the line's tax, except on a line with tourism tax, where
   * aligned-ibrp-ttx-09 reads it as the line's TTX amount (as in the official Invoice-Sample-TTX).
   */
  readonly taxAmount: Decimal;
}

/** One document tax breakdown (ibg-23). */
export interface PintMyBreakdown { readonly category: PintMyCategory; readonly taxable: Decimal; readonly amount: Decimal }

/** Everything tax-related the PINT MY renderer writes. */
export interface PintMyTaxes {
  readonly lines: readonly PintMyLine[];
  readonly breakdown: readonly PintMyBreakdown[];
  /** ibt-110 = Σ breakdown amounts (ibr-co-14). */
  readonly total: Decimal;
}

/** Category of document-level Discounts and Charges: not subject to tax, as MyInvois treats them. */
export const documentLevelCategory: PintMyCategory = { code: 'O', scheme: 'VAT' };

/** Slack of the official amount checks (u:slack(..., 0.02) in aligned-ibrp-*-08/-09). */
const SLACK = dec('0.02');
const keyOf = (c: PintMyCategory) => `${c.code}|${c.percent?.toFixed() ?? ''}`;
const isRated = (c: PintMyCategory) => c.percent !== undefined && c.code !== 'E';
const ruleOf = (c: PintMyCategory, n: string) => `aligned-ibrp-${c.code.toLowerCase()}-${n}`;

/**
 * The rate that reproduces a per-unit amount: the fewest decimals p such that
 * round2(net × p / 100) = tax, so aligned-ibrp-*-09 holds exactly; none on a zero or negative net.
 */
export function effectivePercent(net: Decimal, tax: Decimal): Decimal | undefined {
  if (tax.isZero()) return dec(0);
  if (net.lte(0)) return undefined;
  const exact = tax.dividedBy(net).times(100);
  for (let places = 0; places <= 12; places++) {
    const p = exact.toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
    if (mulRound2(net, p.dividedBy(100)).equals(tax)) return p;
  }
  return undefined;
}

function categoryOf(t: LineTax, x: LineTaxTotal, net: Decimal, at: string): PintMyCategory {
  const { code, scheme } = pintMyCategories[t.TaxType];
  const field = t.TaxRate !== undefined ? 'TaxRate' : 'TaxPerUnit';
  if (code === 'E') {
    if (t.TaxRate !== undefined && !dec(t.TaxRate).isZero()) throw new PintMyUnsupported(`${at}.TaxRate`, 'aligned-ibrp-e-05', 'an exempt tax (TaxType E) must have the rate 0 in PINT MY');
    if (!x.tax.isZero()) throw new PintMyUnsupported(`${at}.${field}`, 'aligned-ibrp-e-09', 'an exempt tax (TaxType E) must amount to 0 in PINT MY');
    return { code, scheme, percent: dec(0), exemptionReason: t.TaxExemptionReason };
  }
  if (code === 'O') {
    if (!x.tax.isZero()) throw new PintMyUnsupported(`${at}.${field}`, 'aligned-ibrp-o-09', 'a tax of TaxType 06 (not applicable) must amount to 0 in PINT MY');
    return { code, scheme };
  }
  if (code === 'TTX') return { code, scheme };
  if (x.percent !== undefined) return { code, scheme, percent: x.percent };
  const percent = effectivePercent(net, x.tax);
  if (!percent) {
    throw new PintMyUnsupported(`${at}.TaxPerUnit`, `aligned-ibrp-${code.toLowerCase()}-09`,
      `a per-unit ${code} tax of ${x.tax.toFixed(2)} on a line net amount of ${net.toFixed(2)}: PINT MY states ${code} as a rate of a positive taxable amount`);
  }
  return { code, scheme, percent };
}

function lineOf(body: DocumentBase, totals: DocumentTotals, i: number): PintMyLine {
  const lt = totals.lines[i];
  const taxes: PintMyLineTax[] = [];
  body.InvoiceLines[i].LineTaxes.forEach((t, j) => {
    const at = `InvoiceLines[${i}].LineTaxes[${j}]`;
    const x = lt.taxes[j];
    const category = categoryOf(t, x, lt.net, at);
    const twin = taxes.find((o) => keyOf(o.category) === keyOf(category));
    if (twin && isRated(category)) {
      throw new PintMyUnsupported(at, ruleOf(category, '08'),
        `a second ${category.code} tax at ${category.percent?.toFixed()} % on one line: the ${category.code} breakdown counts a line's net amount once per rate`);
    }
    // A repeated E or O adds nothing (zero tax, net counted once); TTX entries each keep their amount.
    if (twin && category.code !== 'TTX') return;
    taxes.push({ category, index: j, taxable: lt.net, amount: x.tax, baseUnit: x.baseUnit, perUnit: x.perUnit });
  });
  const ttx = taxes.filter((t) => t.category.code === 'TTX');
  const categories = [...new Map(taxes.map((t) => [keyOf(t.category), t.category])).values()];
  return { taxes, categories, taxAmount: sum((ttx.length ? ttx : taxes).map((t) => t.amount)) };
}

/**
 * aligned-ibrp-*-08 selects the lines of a (category, rate) breakdown by "has the category" and
 * "has some category at that rate" separately, so a line with SA 10 % and SE 6 % would also count
 * in an SA 6 % breakdown. Such a document cannot pass the rule: refused, naming the line's tax.
 */
function refuseCrossCounting(lines: readonly PintMyLine[], keys: readonly PintMyCategory[]): void {
  lines.forEach((line, i) => {
    const rates = line.categories.map((c) => c.percent ?? dec(0));
    for (const k of keys.filter(isRated)) {
      const own = line.taxes.find((t) => t.category.code === k.code);
      const counted = own && rates.some((r) => r.equals(k.percent as Decimal));
      if (own && counted && !line.taxes.some((t) => keyOf(t.category) === keyOf(k))) {
        throw new PintMyUnsupported(`InvoiceLines[${i}].LineTaxes[${own.index}]`, ruleOf(k, '08'),
          `this line's ${k.code} tax and another tax at ${k.percent?.toFixed()} % on the same line would count its net amount in the ${k.code} ${k.percent?.toFixed()} % breakdown of another line`);
      }
    }
  });
}

/**
 * Lines, breakdowns and total tax of a document. A rated breakdown states the MyInvois sum of its
 * lines' taxes when that lies within the official slack of round2(taxable × rate), so the Peppol
 * copy and MyInvois agree; otherwise EN 16931's round2(taxable × rate).
 * @throws PintMyUnsupported for what PINT MY cannot express
 */
export function pintMyTaxes(body: DocumentBase, totals: DocumentTotals): PintMyTaxes {
  const lines = body.InvoiceLines.map((_, i) => lineOf(body, totals, i));
  const groups = new Map<string, { category: PintMyCategory; taxable: Decimal[]; taxes: Decimal[] }>();
  const group = (c: PintMyCategory) => {
    const g = groups.get(keyOf(c)) ?? { category: c, taxable: [], taxes: [] };
    groups.set(keyOf(c), g);
    return g;
  };
  lines.forEach((line, i) => {
    for (const c of line.categories) group(c).taxable.push(totals.lines[i].net);
    for (const t of line.taxes) group(t.category).taxes.push(t.amount);
  });
  if (body.Discounts?.length || body.Charges?.length) group(documentLevelCategory).taxable.push(totals.chargeTotal.minus(totals.allowanceTotal));
  const keys = [...groups.values()].map((g) => g.category);
  refuseCrossCounting(lines, keys);
  const breakdown = [...groups.values()].map(({ category, taxable, taxes }): PintMyBreakdown => {
    const base = sum(taxable);
    const stated = sum(taxes);
    if (!isRated(category)) return { category, taxable: base, amount: category.code === 'TTX' ? stated : dec(0) };
    const en16931 = mulRound2(base, (category.percent as Decimal).dividedBy(100));
    return { category, taxable: base, amount: stated.minus(en16931).abs().lte(SLACK) ? stated : en16931 };
  });
  return { lines, breakdown, total: sum(breakdown.map((b) => b.amount)) };
}
