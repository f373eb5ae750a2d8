/** Polish NIP (tax identification number): 10 digits, the last a check digit (weights 6 5 7 2 3 4 5 6 7, modulo 11). */
const WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7];

/** The NIP without the separators people write (`123-456-32-18`, `PL1234563218`). */
export function normalizeNip(value: string): string {
  return value.replace(/[\s-]/g, '').replace(/^PL/i, '');
}

export function isValidNip(value: string): boolean {
  const nip = normalizeNip(value);
  if (!/^\d{10}$/.test(nip)) return false;
  const sum = WEIGHTS.reduce((total, weight, i) => total + weight * Number(nip[i]), 0);
  const check = sum % 11;
  // A remainder of 10 is never issued; KSeF's own pattern also refuses a leading 0.
  return check !== 10 && check === Number(nip[9]) && /^[1-9]((\d[1-9])|([1-9]\d))\d{7}$/.test(nip);
}
