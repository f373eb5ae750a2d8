// Fresh, valid Peppol identifiers per test: a receiver is registered in exactly one SMP, so two
// tests may not onboard the same one.
import { randomInt } from 'node:crypto';

/** Belgian enterprise number (KBO, 10 digits) with its mod-97 check digits. */
export function kboNumber(): string {
  const base = `0${String(randomInt(10_000_000, 99_999_999)).padStart(7, '0')}`.slice(0, 8);
  const check = 97 - (Number(base) % 97);
  return `${base}${String(check).padStart(2, '0')}`;
}

export const beVat = (): string => `BE${kboNumber()}`;
export const deVat = (): string => `DE${randomInt(100_000_000, 999_999_999)}`;
export const sgUen = (): string => `${randomInt(199_000_000, 202_599_999)}${'ABCDEFGHKLMNRZ'[randomInt(0, 14)]}`;
