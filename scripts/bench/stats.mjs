// Small helpers for the figures: percentiles and fixed-width formatting.

/** Nearest-rank percentile of unsorted numbers; NaN for an empty list. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

/** The largest of the numbers; NaN for an empty list. Not Math.max(...values): spread into arguments, ~130,000 of them overflow the stack. */
export function largest(values) {
  return values.length ? values.reduce((a, b) => Math.max(a, b), -Infinity) : Number.NaN;
}

/** The smallest of the numbers; NaN for an empty list. */
export function smallest(values) {
  return values.length ? values.reduce((a, b) => Math.min(a, b), Infinity) : Number.NaN;
}

export function distribution(values) {
  return { p50: percentile(values, 50), p99: percentile(values, 99), max: largest(values) };
}

export const ms = (v) => (Number.isFinite(v) ? `${Math.round(v)} ms` : 'n/a');
export const num = (v, digits = 1) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
export const secs = (v) => (Number.isFinite(v) ? `${(v / 1000).toFixed(1)} s` : 'n/a');
