/**
 * The transaction type code (BTAE-02, rendered as cbc:ProfileExecutionID): eight 0/1 positions
 * built from the `flags` object. Positions follow the PINT AE Schematron, which wins over the seed
 * (issue 10): 7 is e-commerce (ibr-142-ae) and 8 export (ibr-135-ae, ibr-152-ae). Self-billing has
 * no position; the type code (389, 261) and the self-billing specification identifier say it.
 */
import type { UaeDocument } from './document';
import type { UaeFlagName } from './schema';

/** The flag of each position, 1 to 8. */
export const transactionTypePositions: readonly Exclude<UaeFlagName, 'is_selfbilled'>[] = [
  'is_ftz', // 1 free trade zone (ibr-007-ae: beneficiary id)
  'is_deemed', // 2 deemed supply (no payment means needed, ibr-191-ae)
  'is_margin', // 3 profit margin scheme (ibr-116-ae: category N only)
  'is_summary', // 4 summary invoice (ibr-138-ae: invoicing period)
  'is_continuous', // 5 continuous supply
  'is_dab', // 6 disclosed agent billing (ibr-137-ae: principal id)
  'is_ecommerce', // 7 e-commerce (ibr-142-ae: delivery address)
  'is_export', // 8 export (ibr-152-ae)
];

/** `00000000` when no flag is raised, `10000000` for a free-zone supply alone. */
export function transactionTypeCode(flags: UaeDocument['flags']): string {
  return transactionTypePositions.map((name) => (flags[name] ? '1' : '0')).join('');
}
