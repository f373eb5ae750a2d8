/**
 * The seed's `TaxType {TaxRate, TaxType}` as a Polish VAT rate of FA(3) (`P_12`, TStawkaPodatku) and
 * the invoice total it is summed into (`P_13_x` net, `P_14_x` tax). README.md "Tax types" lists the
 * mapping; what FA(3) cannot express is refused with the values it can.
 */

/** The rates FA(3) names (TStawkaPodatku) that this gateway issues. */
export type PolishRate = '23' | '8' | '5' | '0 KR' | '0 WDT' | '0 EX' | 'zw' | 'oo' | 'np I' | 'np II';

/** Where a rate's net and tax go in `Fa` (FA(3) P_13_1..P_13_10 / P_14_1..P_14_3). */
export const TOTAL_FIELDS: Readonly<Record<PolishRate, { readonly net: string; readonly tax?: string; readonly percent: number }>> = {
  '23': { net: 'P_13_1', tax: 'P_14_1', percent: 23 },
  '8': { net: 'P_13_2', tax: 'P_14_2', percent: 8 },
  '5': { net: 'P_13_3', tax: 'P_14_3', percent: 5 },
  '0 KR': { net: 'P_13_6_1', percent: 0 },
  '0 WDT': { net: 'P_13_6_2', percent: 0 },
  '0 EX': { net: 'P_13_6_3', percent: 0 },
  zw: { net: 'P_13_7', percent: 0 },
  'np I': { net: 'P_13_8', percent: 0 },
  'np II': { net: 'P_13_9', percent: 0 },
  oo: { net: 'P_13_10', percent: 0 },
};

/**
 * The seed's TaxType names and the rate each takes: `standard` 23; `reduced` 8 or 5; `zero` (domestic
 * 0%), `intra_eu` (0% WDT), `export` (0% EX); `exempt` (zw); `reverse_charge` (oo); `not_subject`
 * (np I, supply outside Poland) and `not_subject_services` (np II, services taxed where the buyer is).
 */
const BY_TYPE: Readonly<Record<string, ReadonlyArray<[number, PolishRate]>>> = {
  standard: [[23, '23']],
  reduced: [[8, '8'], [5, '5']],
  zero: [[0, '0 KR']],
  intra_eu: [[0, '0 WDT']],
  export: [[0, '0 EX']],
  exempt: [[0, 'zw']],
  reverse_charge: [[0, 'oo']],
  not_subject: [[0, 'np I']],
  not_subject_services: [[0, 'np II']],
};

export const TAX_TYPES = Object.keys(BY_TYPE);

/** The rates in the order FA(3) lists their totals (object keys would put '5' and '8' before '23'). */
export const RATES_IN_FA_ORDER: readonly PolishRate[] = ['23', '8', '5', '0 KR', '0 WDT', '0 EX', 'zw', 'np I', 'np II', 'oo'];

/** The FA(3) rate of a line, or why there is none (a message naming what is accepted). */
export function polishRate(taxType: string, taxRate: number): { rate: PolishRate } | { refused: string } {
  const options = BY_TYPE[taxType];
  if (!options) return { refused: `TaxType must be one of: ${TAX_TYPES.join(', ')}.` };
  const match = options.find(([percent]) => percent === taxRate);
  if (!match) return { refused: `A ${taxType} line in Poland takes TaxRate ${options.map(([p]) => p).join(' or ')}, not ${taxRate}.` };
  return { rate: match[1] };
}
