/**
 * The issuer as onboarded, for the areas whose documents' fields do not name it (Spain, Argentina,
 * Poland...): the supplier's profile printed the way a UBL party is (#49).
 */
import type { SupplierProfile } from '@einvoice/domain';
import type { PrintableParty } from '../registry/printable';

/** The profile as a party: its identifiers labelled by `labels` (scheme → label), the scheme itself otherwise. */
export function partyOfProfile(profile: SupplierProfile, labels: Readonly<Record<string, string>> = {}): PrintableParty {
  const cityLine = [profile.postalCode, profile.city].filter(Boolean).join(' ');
  return {
    name: profile.registeredName,
    identifiers: profile.identifiers.map((i) => ({ label: labels[i.scheme] ?? i.scheme, value: i.id })),
    address: [profile.street, cityLine, profile.county, profile.country].filter((line): line is string => Boolean(line)),
  };
}

/** An amount as the document states it, a string of digits (a number body field printed with its two decimals). */
export function amountText(value: unknown): string {
  if (typeof value === 'number') return value.toFixed(2);
  return typeof value === 'string' ? value : '';
}
