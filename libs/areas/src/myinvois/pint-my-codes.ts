/**
 * PINT MY 1.3.1 code tables (shared/conformance/pint-my/1.3.1, both Schematron SEFs) and the one
 * error for what PINT MY cannot express. Every mapping here was checked against the official
 * rules cited next to it.
 */
import type { TaxType } from './schema-document';

// The PINT MY specification and process identifiers live with the document types a Malaysian
// participant receives (peppol-participants, shared: it imports no area).
export { pintMyIds } from '../peppol-participants/document-types';

/** A PINT MY tax category code (aligned-ibrp-cl-01-my: SA SE HVG LVG E O TTX). */
export type PintMyCategoryCode = 'SA' | 'SE' | 'TTX' | 'HVG' | 'LVG' | 'O' | 'E';

/**
 * MyInvois TaxType → PINT MY tax category and scheme. `rate`: the category carries a Percent
 * (aligned-ibrp-048: VAT categories except O; TTX under scheme AAL never does, aligned-ibrp-ttx-08).
 */
export const pintMyCategories: Readonly<Record<TaxType, { code: PintMyCategoryCode; scheme: 'VAT' | 'AAL'; rate: boolean }>> = {
  '01': { code: 'SA', scheme: 'VAT', rate: true },
  '02': { code: 'SE', scheme: 'VAT', rate: true },
  '03': { code: 'TTX', scheme: 'AAL', rate: false },
  '04': { code: 'HVG', scheme: 'VAT', rate: true },
  '05': { code: 'LVG', scheme: 'VAT', rate: true },
  '06': { code: 'O', scheme: 'VAT', rate: false },
  E: { code: 'E', scheme: 'VAT', rate: true },
};

/** UBL root and UNTDID 1001 code of one MyInvois document type. */
export interface PintMyType { readonly root: 'Invoice' | 'CreditNote'; readonly typeCode: string }

/**
 * MyInvois type → UBL root and UNTDID 1001 code, within what ibr-cl-01 allows: billing takes
 * Invoice 380/383 (among others) and CreditNote 381; self-billing ONLY Invoice 389 and CreditNote
 * 261. So 01 → 380, 02 → CreditNote 381, 03 → 383 (debit note), 04 refund note → CreditNote 381
 * (UNTDID has no refund note; value goes back to the buyer); self-billed 11 → 389, 12 and 14 →
 * CreditNote 261, and 13 (self-billed debit note) → Invoice 389 (527 fails ibr-cl-01 of
 * self-billing), told apart from 11 by its BillingReference to the debited invoice.
 */
const types: Readonly<Record<string, PintMyType>> = {
  '01': { root: 'Invoice', typeCode: '380' }, '02': { root: 'CreditNote', typeCode: '381' },
  '03': { root: 'Invoice', typeCode: '383' }, '04': { root: 'CreditNote', typeCode: '381' },
  '11': { root: 'Invoice', typeCode: '389' }, '12': { root: 'CreditNote', typeCode: '261' },
  '13': { root: 'Invoice', typeCode: '389' }, '14': { root: 'CreditNote', typeCode: '261' },
};

/** The PINT MY root and type code of a MyInvois type code (01–04, 11–14). */
export function pintMyType(code: string): PintMyType {
  const type = types[code];
  if (!type) throw new RangeError(`PINT MY: no document type for MyInvois InvoiceTypeCode ${code}`);
  return type;
}

/**
 * A document MyInvois accepts but PINT MY cannot express: names the body field (`path`, as in
 * FieldIssue paths) and the official PINT MY rule that forbids it (`rule`).
 */
export class PintMyUnsupported extends RangeError {
  constructor(readonly path: string, readonly rule: string, readonly reason: string) {
    super(`PINT MY: ${path}: ${reason} (${rule})`);
    this.name = 'PintMyUnsupported';
  }
}
