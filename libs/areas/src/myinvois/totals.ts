/**
 * Totals of a MyInvois document, computed once with decimal.js and used by the rules
 * (InvoiceTotal check) and both renderers, so the document always says what was checked.
 *
 * Rounding (README "Rounding"): half-up to 2 decimals at exactly these points —
 *   line subtotal  = round2(InvoicedQuantity × PriceAmount)            (ItemPriceExtension)
 *   line amount    = subtotal − Σ line Discounts + Σ line Charges       (exact: each Amount round2)
 *   line tax       = round2(line amount × TaxRate)  or  round2(TaxBaseUnit × TaxPerUnit)
 * Every document amount is an exact sum of rounded amounts and is never rounded again.
 */
import Decimal from 'decimal.js';
import { dec, mulRound2, round2, sum } from '../shared/money';
import type { DocumentBase, TaxType } from './schema-document';

/** One tax of one line (a line TaxSubtotal). */
export interface LineTaxTotal {
  readonly taxType: TaxType;
  /** TaxRate as a percentage (0.06 → 6), when the rate form is used. */
  readonly percent?: Decimal;
  readonly baseUnit?: Decimal;
  readonly perUnit?: Decimal;
  readonly taxable: Decimal;
  readonly tax: Decimal;
  readonly exemptionReason?: string;
}

/** One line's amounts. */
export interface LineTotals {
  readonly quantity: Decimal;
  /** quantity × price, rounded (ItemPriceExtension/Amount). */
  readonly subtotal: Decimal;
  readonly allowances: Decimal;
  readonly charges: Decimal;
  /** subtotal − allowances + charges (LineExtensionAmount). */
  readonly net: Decimal;
  readonly taxes: readonly LineTaxTotal[];
  readonly tax: Decimal;
}

/** One document TaxSubtotal, per TaxType. */
export interface TaxTypeTotal {
  readonly taxType: TaxType;
  readonly taxable: Decimal;
  readonly tax: Decimal;
  readonly exemptionReason?: string;
}

/** Document totals (LegalMonetaryTotal and TaxTotal). */
export interface DocumentTotals {
  readonly lines: readonly LineTotals[];
  readonly taxTypes: readonly TaxTypeTotal[];
  /** Σ line amounts. */
  readonly lineTotal: Decimal;
  /** Σ document Discounts. */
  readonly allowanceTotal: Decimal;
  /** Σ document Charges. */
  readonly chargeTotal: Decimal;
  /** lineTotal − allowanceTotal + chargeTotal. */
  readonly taxExclusive: Decimal;
  /** Σ line taxes. */
  readonly taxTotal: Decimal;
  /** taxExclusive + taxTotal. */
  readonly taxInclusive: Decimal;
  readonly prepaid: Decimal;
  /** InvoiceTotal − taxInclusive when InvoiceTotal is given (README "InvoiceTotal"), else 0. */
  readonly rounding: Decimal;
  /** taxInclusive + rounding − prepaid. */
  readonly payable: Decimal;
}

const amounts = (list?: readonly { Amount: number }[]) => sum((list ?? []).map((a) => round2(a.Amount)));

/** Line and document totals. Call after the schema (numbers are finite). */
export function computeTotals(doc: Pick<DocumentBase, 'InvoiceLines' | 'Discounts' | 'Charges' | 'Prepayments' | 'InvoiceTotal'>): DocumentTotals {
  const lines = doc.InvoiceLines.map((line): LineTotals => {
    const quantity = dec(line.InvoicedQuantity);
    const subtotal = mulRound2(quantity, line.PriceAmount);
    const allowances = amounts(line.Discounts);
    const charges = amounts(line.Charges);
    const net = subtotal.minus(allowances).plus(charges);
    const taxes = line.LineTaxes.map((t): LineTaxTotal => {
      const perUnitForm = t.TaxRate === undefined && t.TaxBaseUnit !== undefined && t.TaxPerUnit !== undefined;
      if (perUnitForm) {
        const baseUnit = dec(t.TaxBaseUnit as number);
        const perUnit = dec(t.TaxPerUnit as number);
        return { taxType: t.TaxType, baseUnit, perUnit, taxable: net, tax: mulRound2(baseUnit, perUnit), exemptionReason: t.TaxExemptionReason };
      }
      const rate = dec(t.TaxRate ?? 0);
      return { taxType: t.TaxType, percent: rate.times(100), taxable: net, tax: mulRound2(net, rate), exemptionReason: t.TaxExemptionReason };
    });
    return { quantity, subtotal, allowances, charges, net, taxes, tax: sum(taxes.map((t) => t.tax)) };
  });
  const groups = new Map<TaxType, { taxable: Decimal[]; tax: Decimal[]; reason?: string }>();
  for (const t of lines.flatMap((l) => l.taxes)) {
    const g = groups.get(t.taxType) ?? { taxable: [], tax: [], reason: t.exemptionReason };
    g.taxable.push(t.taxable);
    g.tax.push(t.tax);
    groups.set(t.taxType, g);
  }
  const taxTypes = [...groups.entries()].map(([taxType, g]): TaxTypeTotal => ({ taxType, taxable: sum(g.taxable), tax: sum(g.tax), exemptionReason: g.reason }));
  const lineTotal = sum(lines.map((l) => l.net));
  const allowanceTotal = amounts(doc.Discounts);
  const chargeTotal = amounts(doc.Charges);
  const taxExclusive = lineTotal.minus(allowanceTotal).plus(chargeTotal);
  const taxTotal = sum(lines.map((l) => l.tax));
  const taxInclusive = taxExclusive.plus(taxTotal);
  const prepaid = amounts(doc.Prepayments);
  const rounding = doc.InvoiceTotal === undefined ? dec(0) : round2(doc.InvoiceTotal).minus(taxInclusive);
  return {
    lines, taxTypes, lineTotal, allowanceTotal, chargeTotal, taxExclusive, taxTotal, taxInclusive, prepaid, rounding,
    payable: taxInclusive.plus(rounding).minus(prepaid),
  };
}

/**
 * The largest |InvoiceTotal − computed total| accepted: 0.01 per line plus 0.01 for the
 * document, i.e. one cent per independently rounded line (its amount and its tax each round by
 * at most half a cent) and one for the client's own final rounding.
 */
export function invoiceTotalTolerance(lineCount: number): Decimal {
  return dec(0.01).times(lineCount + 1);
}
