/** Argentine CUIT/CUIL: 11 digits, the last a check digit (weights 5 4 3 2 7 6 5 4 3 2, modulo 11). */
const WEIGHTS = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2];

/** Without the hyphens people write (`20-12345678-3`). */
export const normalizeCuit = (value: string) => value.replace(/[\s-]/g, '');

export function isValidCuit(value: string): boolean {
  const cuit = normalizeCuit(value);
  if (!/^\d{11}$/.test(cuit)) return false;
  const sum = WEIGHTS.reduce((total, weight, i) => total + weight * Number(cuit[i]), 0);
  const check = 11 - (sum % 11);
  // 11 stands for 0; 10 is never issued (AFIP changes the prefix instead).
  const expected = check === 11 ? 0 : check;
  return expected !== 10 && expected === Number(cuit[10]);
}
