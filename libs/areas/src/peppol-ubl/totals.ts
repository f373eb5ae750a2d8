/**
 * The totals of a document, computed once and used by the rules (TotalIncludingVat check)
 * and the renderer, so the XML always says what was checked.
 */
import Decimal from 'decimal.js';
import { dec, mulRound2, round2, sum } from '../shared/money';
import type { AreaProfile } from './profiles';
import type { InvoiceBody } from './schema';
import type { TaxCategory } from './tax';

/** One line's computed amounts. */
export interface LineTotal {
  /** BT-129 (default 1). */
  readonly quantity: Decimal;
  /** BT-131 = PriceAmount × quantity, rounded half-up to 2 decimals. */
  readonly net: Decimal;
  readonly category: TaxCategory;
  /** BT-152 (0 for categories without a rate). */
  readonly rate: Decimal;
}

/** One VAT/GST breakdown (BG-23), per (category, rate). */
export interface TaxGroup {
  readonly category: TaxCategory;
  readonly rate: Decimal;
  /** BT-116. */
  readonly taxable: Decimal;
  /** BT-117 = taxable × rate / 100, rounded half-up to 2 decimals (BR-CO-17). */
  readonly tax: Decimal;
  /** BT-120 as given on the group's first line. */
  readonly exemptionReason?: string;
}

/** Document totals (BG-22). */
export interface Totals {
  readonly lines: readonly LineTotal[];
  readonly groups: readonly TaxGroup[];
  /** BT-106 = BT-109 (no document allowances or charges are taken). */
  readonly lineTotal: Decimal;
  /** BT-110. */
  readonly taxTotal: Decimal;
  /** BT-112 = BT-115. */
  readonly totalIncludingVat: Decimal;
}

/** The line's category in this area, or undefined when the area does not use its TaxType. */
export function categoryOf(profile: AreaProfile, taxType: string): TaxCategory | undefined {
  return profile.taxCategories[taxType as keyof AreaProfile['taxCategories']];
}

/** The totals of the documents being handled, by their lines: the rules' and the renderer's are one computation (issue 11). */
const computed = new WeakMap<object, { readonly profile: AreaProfile; readonly totals: Totals }>();

/**
 * Computes line nets, breakdowns and totals with decimal arithmetic, once for a document's lines in an
 * area: the rules (totalRule) and the renderer ask for the same lines of the same parsed body, which
 * nothing changes in between (computing them twice was ~2% of a submission's time on the gateway).
 * @throws RangeError if a line's TaxType is not one of the area's (call after the rules).
 */
export function computeTotals(profile: AreaProfile, dto: Pick<InvoiceBody, 'InvoiceLines'>): Totals {
  const known = computed.get(dto.InvoiceLines);
  if (known?.profile === profile) return known.totals;
  const totals = totalsOf(profile, dto);
  computed.set(dto.InvoiceLines, { profile, totals });
  return totals;
}

function totalsOf(profile: AreaProfile, dto: Pick<InvoiceBody, 'InvoiceLines'>): Totals {
  const lines = dto.InvoiceLines.map((line): LineTotal => {
    const category = categoryOf(profile, line.TaxType.TaxType);
    if (!category) throw new RangeError(`TaxType ${line.TaxType.TaxType} is not used in area ${profile.code}`);
    const quantity = dec(line.InvoicedQuantity ?? 1);
    const rate = category.rate === 'none' ? dec(0) : dec(line.TaxType.TaxRate);
    return { quantity, net: mulRound2(line.PriceAmount, quantity), category, rate };
  });
  const groups = new Map<string, { category: TaxCategory; rate: Decimal; nets: Decimal[]; reason?: string }>();
  lines.forEach((line, i) => {
    const key = `${line.category.code}|${line.rate.toString()}`;
    const group = groups.get(key) ?? { category: line.category, rate: line.rate, nets: [], reason: dto.InvoiceLines[i].TaxType.TaxExemptionReason };
    group.nets.push(line.net);
    groups.set(key, group);
  });
  const taxGroups = [...groups.values()].map((g): TaxGroup => {
    const taxable = sum(g.nets);
    return { category: g.category, rate: g.rate, taxable, tax: round2(taxable.times(g.rate).dividedBy(100)), exemptionReason: g.reason };
  });
  const lineTotal = sum(lines.map((l) => l.net));
  const taxTotal = sum(taxGroups.map((g) => g.tax));
  return { lines, groups: taxGroups, lineTotal, taxTotal, totalIncludingVat: lineTotal.plus(taxTotal) };
}
