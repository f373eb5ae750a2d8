/** Voucher classes by `CbteTipo` (AFIP's table: A, B, C, M; 201+ are FCE MiPyMEs of class A, B or C). */
const CLASSES: Readonly<Record<'A' | 'B' | 'C' | 'M', readonly number[]>> = {
  A: [1, 2, 3, 4, 5, 34, 39, 60, 63, 201, 202, 203],
  B: [6, 7, 8, 9, 10, 35, 40, 61, 64, 206, 207, 208],
  C: [11, 12, 13, 15, 49, 211, 212, 213],
  M: [51, 52, 53, 54],
};

export type VoucherClass = keyof typeof CLASSES | undefined;

export function classOf(cbteTipo: number): VoucherClass {
  return (Object.keys(CLASSES) as Array<keyof typeof CLASSES>).find((c) => CLASSES[c].includes(cbteTipo));
}

/** FCE MiPyMEs (Factura de Crédito Electrónica): 201–213. */
export const isFce = (cbteTipo: number) => cbteTipo >= 201 && cbteTipo <= 213;

/** Debit and credit notes (2, 3, 7, 8, 52, 53…), whose net base need not match their Iva (10061). */
export const NET_BASE_EXEMPT: readonly number[] = [2, 3, 7, 8, 52, 53];
