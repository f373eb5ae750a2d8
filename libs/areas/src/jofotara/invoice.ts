/**
 * A JoFotara invoice or credit note as data, and its totals as JoFotara computes them (ISTD technical
 * guide v1.4; README.md "Totals"), in JOD with 3 decimals (fils), half up, line by line:
 * - line: gross = unit price × quantity; discount = Σ its discounts; `LineExtensionAmount` = gross −
 *   discount; tax = `LineExtensionAmount` × rate; `RoundingAmount` = `LineExtensionAmount` + tax (+ special tax);
 * - document: `TaxExclusiveAmount` = Σ gross (before discounts); `AllowanceTotalAmount` = Σ discounts;
 *   `TaxAmount` = Σ line taxes (+ special taxes); `TaxInclusiveAmount` = `PayableAmount` =
 *   `TaxExclusiveAmount` − `AllowanceTotalAmount` + `TaxAmount`.
 */
import Decimal from 'decimal.js';
import { Dec } from '../shared/money';
import type { InvoiceClass } from './schema';

/** JoFotara's category letters are the reverse of UN/ECE 5305's for these two: Z = exempt, O = zero-rated. */
export const CATEGORY_CODES = { Exempted: 'Z', ZeroTax: 'O', Standard: 'S' } as const;
/** JoFotara's general-sales rates (fractions): the only ones a Standard line takes. */
export const STANDARD_RATES = [0.01, 0.02, 0.03, 0.04, 0.05, 0.07, 0.08, 0.1, 0.16] as const;

export interface JoLine {
  /** The line's id (default its position); a credit note's lines carry their original line's. */
  readonly lineId?: number;
  readonly description: string;
  readonly quantity: number;
  readonly unitPrice: number;
  /** A fraction (0.16). */
  readonly rate: number;
  readonly category: keyof typeof CATEGORY_CODES;
  readonly discount: number;
  readonly specialTax?: number;
}

export interface JoBuyer {
  readonly name?: string;
  readonly id: { readonly scheme: 'TN' | 'NIN' | 'PN'; readonly value: string };
  readonly cityCode?: string;
  readonly postalCode?: string;
  readonly phone?: string;
}

export interface JoInvoice {
  readonly kind: 'invoice' | 'credit_note';
  readonly number: string;
  /** The invoice's UUID (cbc:UUID): JoFotara answers it as EINV_INV_UUID. */
  readonly uuid: string;
  readonly issueDate: string;
  /** HH:MM:SS. */
  readonly issueTime: string;
  readonly invoiceClass: InvoiceClass;
  readonly payment: 'cash' | 'receivable';
  readonly seller: { readonly tin: string; readonly name: string; readonly incomeSource: string };
  /** Credit notes carry an empty buyer block. */
  readonly buyer?: JoBuyer;
  readonly lines: readonly JoLine[];
  /** The invoice counter of the supplier's device (`AdditionalDocumentReference` ICV). */
  readonly icv: number;
  readonly note?: string;
  /** Credit notes: the invoice returned against and why. */
  readonly original?: { readonly number: string; readonly uuid: string; readonly total: string; readonly reason: string };
}

export interface LineTotals {
  readonly gross: Decimal;
  readonly discount: Decimal;
  readonly net: Decimal;
  readonly tax: Decimal;
  readonly special: Decimal;
  readonly rounding: Decimal;
}

export interface JoTotals {
  readonly lines: readonly LineTotals[];
  readonly taxExclusive: Decimal;
  readonly allowances: Decimal;
  readonly tax: Decimal;
  readonly specialTax: Decimal;
  readonly taxInclusive: Decimal;
  readonly payable: Decimal;
}

export const round3 = (value: Decimal.Value) => new Dec(value).toDecimalPlaces(3, Decimal.ROUND_HALF_UP);
export const formatJod = (value: Decimal.Value) => round3(value).toFixed(3);

/** Income invoices carry no tax at all (the guide): their lines' rates do not count. */
export function joTotals(lines: readonly JoLine[], invoiceClass: InvoiceClass): JoTotals {
  const taxed = invoiceClass !== 'income';
  const each = lines.map((line) => {
    const gross = round3(new Dec(line.unitPrice).times(line.quantity));
    const discount = round3(line.discount);
    const net = gross.minus(discount);
    const tax = taxed ? round3(net.times(line.rate)) : new Dec(0);
    const special = invoiceClass === 'special_sales' ? round3(line.specialTax ?? 0) : new Dec(0);
    return { gross, discount, net, tax, special, rounding: net.plus(tax).plus(special) };
  });
  const sum = (pick: (l: LineTotals) => Decimal) => each.reduce((total, l) => total.plus(pick(l)), new Dec(0));
  const taxExclusive = sum((l) => l.gross);
  const allowances = sum((l) => l.discount);
  const tax = sum((l) => l.tax);
  const specialTax = sum((l) => l.special);
  const taxInclusive = taxExclusive.minus(allowances).plus(tax).plus(specialTax);
  return { lines: each, taxExclusive, allowances, tax, specialTax, taxInclusive, payable: taxInclusive };
}

/** `InvoiceTypeCode@name`: payment (0 cash, 0 receivable → 01x / 02x) and class (1 income, 2 general, 3 special). */
export function typeName(invoiceClass: InvoiceClass, payment: 'cash' | 'receivable'): string {
  return `0${payment === 'cash' ? 1 : 2}${invoiceClass === 'income' ? 1 : invoiceClass === 'general_sales' ? 2 : 3}`;
}
