/** How the console writes amounts and times: the document's currency, the browser's language and time zone. */

/** AFIP's own currency codes (MonId) that are not ISO 4217. */
const ISO_CURRENCY: Readonly<Record<string, string>> = { PES: 'ARS', DOL: 'USD', '060': 'EUR' };

/** One formatter per currency: making one costs the browser far more than using it (a page lists 20-100 amounts). */
const MONEY = new Map<string, Intl.NumberFormat | null>();

function moneyFormat(currency: string): Intl.NumberFormat | null {
  let format = MONEY.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency: ISO_CURRENCY[currency] ?? currency });
    } catch {
      format = null; // not a currency the browser knows: the amount is shown with its code
    }
    MONEY.set(currency, format);
  }
  return format;
}

/** `total` is decimal text as the document gave it: formatted as text, so no digit is lost to a float. */
export function money(total: string | null, currency: string | null): string {
  if (total === null) return '—';
  if (!currency) return total;
  const format = moneyFormat(currency);
  return format ? format.format(total as unknown as number) : `${total} ${currency}`;
}

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An instant in the browser's time zone. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : TIME.format(date);
}

/** The zone the times are shown in, said once per page. */
export const timeZone = ZONE;
