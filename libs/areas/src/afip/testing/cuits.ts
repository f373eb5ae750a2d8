import { isValidCuit } from '../cuit';

/** A fresh valid CUIT for a test (prefix 20, or the one given; the check digit found by the area's own check). */
export function freshCuit(prefix = '20'): string {
  for (;;) {
    const body = `${prefix}${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
    const valid = Array.from({ length: 10 }, (_, d) => `${body}${d}`).find(isValidCuit);
    if (valid) return valid;
  }
}
