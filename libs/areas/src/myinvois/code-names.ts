/**
 * The names of MyInvois's codes a printed document shows next to them (#49), from the LHDN MyInvois SDK code
 * tables (sdk.myinvois.hasil.gov.my/codes/): e-Invoice types, tax types, payment modes, state codes.
 */

/** e-Invoice Types (01–04; 11–14 their self-billed counterparts). */
export const DOCUMENT_TYPE_NAMES: Readonly<Record<string, string>> = {
  '01': 'Invoice', '02': 'Credit note', '03': 'Debit note', '04': 'Refund note',
  '11': 'Self-billed invoice', '12': 'Self-billed credit note', '13': 'Self-billed debit note', '14': 'Self-billed refund note',
};

/** Tax Types. */
export const TAX_TYPE_NAMES: Readonly<Record<string, string>> = {
  '01': 'Sales Tax', '02': 'Service Tax', '03': 'Tourism Tax', '04': 'High-Value Goods Tax', '05': 'Sales Tax on Low Value Goods',
  '06': 'Not Applicable', E: 'Tax exemption',
};

/** Payment Modes. */
export const PAYMENT_MODE_NAMES: Readonly<Record<string, string>> = {
  '01': 'Cash', '02': 'Cheque', '03': 'Bank transfer', '04': 'Credit card', '05': 'Debit card', '06': 'e-Wallet / Digital wallet', '07': 'Digital bank', '08': 'Others',
};

/** State Codes (17: not applicable, a foreign address). */
export const STATE_NAMES: Readonly<Record<string, string>> = {
  '01': 'Johor', '02': 'Kedah', '03': 'Kelantan', '04': 'Melaka', '05': 'Negeri Sembilan', '06': 'Pahang', '07': 'Pulau Pinang', '08': 'Perak',
  '09': 'Perlis', '10': 'Selangor', '11': 'Terengganu', '12': 'Sabah', '13': 'Sarawak', '14': 'Wilayah Persekutuan Kuala Lumpur',
  '15': 'Wilayah Persekutuan Labuan', '16': 'Wilayah Persekutuan Putrajaya', '17': '',
};
