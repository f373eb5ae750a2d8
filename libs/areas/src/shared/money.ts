/**
 * Decimal arithmetic for amounts (DESIGN.md: amounts are decimals, not floats). A JS number is
 * converted through its shortest string form, so `0.1` is exactly 0.1, never 0.1000000000000000055.
 */
import Decimal from 'decimal.js';

/** Decimal constructor used for every amount: ample precision, half-up rounding (EN 16931). */
export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -40, toExpPos: 40 });
/** A decimal amount, quantity or rate. */
export type Dec = Decimal;

/** A number, numeric string or decimal as an exact decimal. */
export function dec(value: number | string | Decimal): Decimal {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
    return new Dec(String(value));
  }
  return new Dec(value);
}

/** Rounds half-up to 2 decimals, the precision of EN 16931 amounts (BR-DEC-*). */
export function round2(value: number | string | Decimal): Decimal {
  return dec(value).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}

/** Exact sum; an empty list sums to 0. */
export function sum(values: readonly (number | string | Decimal)[]): Decimal {
  return values.reduce<Decimal>((acc, v) => acc.plus(dec(v)), new Dec(0));
}

/** `a × b` exactly, then rounded half-up to 2 decimals (BT-131 line net, BR-CO-17 VAT). */
export function mulRound2(a: number | string | Decimal, b: number | string | Decimal): Decimal {
  return round2(dec(a).times(dec(b)));
}

/** Two decimals, half-up, for amounts in XML and messages: `121` → `"121.00"`. */
export function formatAmount(value: number | string | Decimal): string {
  return round2(value).toFixed(2);
}

/** Plain notation without exponent or trailing noise, for quantities and rates: `1.50` → `"1.5"`. */
export function formatDecimal(value: number | string | Decimal): string {
  return dec(value).toFixed();
}

/** True when both round to the same cent. */
export function sameCents(a: number | string | Decimal, b: number | string | Decimal): boolean {
  return round2(a).equals(round2(b));
}
