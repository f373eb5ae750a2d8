/**
 * A supplier's change checked by its area's own onboarding rules (registry `SupplierRevision`, #47):
 * the onboarding body the current profile was read from (`bodyOf`), the change merged in as a JSON
 * Merge Patch (RFC 7396: `null` removes an optional field), read again by the area's `parse`. So a
 * Singapore supplier onboarded without a street (BR-106-GST-SG) is corrected under exactly the rules
 * that onboarded it, and the errors name the fields the caller sent.
 */
import type { SupplierProfile } from '@einvoice/domain';
import type { SupplierRevision } from '../registry/area';

export interface RevisionByOnboarding {
  /** The onboarding body's fields a change may name (not the tax identifier). */
  readonly fields: readonly string[];
  /** The onboarding body that reads into `profile`, secrets left out. */
  bodyOf(profile: SupplierProfile): Record<string, unknown>;
  /** The area's onboarding `parse`. */
  parse(body: unknown): SupplierProfile;
}

export function reviseByOnboarding(revision: RevisionByOnboarding): SupplierRevision {
  return {
    fields: revision.fields,
    apply(profile, change) {
      const body: Record<string, unknown> = revision.bodyOf(profile);
      for (const [field, value] of Object.entries(change)) {
        if (value === null) delete body[field];
        else body[field] = value;
      }
      const revised = revision.parse(body);
      // What the area's parse does not read from a body (what its authority told at onboarding) stays.
      const areaDetails = profile.areaDetails || revised.areaDetails ? { ...profile.areaDetails, ...revised.areaDetails } : undefined;
      return { ...revised, identifiers: profile.identifiers, ...(areaDetails ? { areaDetails } : {}) };
    },
  };
}

/** A profile's common fields in the onboarding bodies' usual names (BE/DE/SG, PL): absent ones left out. */
export function commonOnboardingBody(profile: SupplierProfile): Record<string, unknown> {
  const body: Record<string, unknown> = {
    registered_name: profile.registeredName,
    identifiers: profile.identifiers.map((i) => ({ scheme: i.scheme, id: i.id })),
    street: profile.street,
    city: profile.city,
    county: profile.county,
    postal_code: profile.postalCode,
    country: profile.country,
    contact_number: profile.contactNumber,
    contact_name: profile.contactName,
    contact_email: profile.contactEmail,
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

/** The fields of `commonOnboardingBody` a change may name: all but the identifiers. */
export const COMMON_REVISABLE_FIELDS = ['registered_name', 'street', 'city', 'county', 'postal_code', 'country', 'contact_number', 'contact_name', 'contact_email'] as const;

/**
 * An onboarding `parse` for a change, in an area whose onboarding body requires credentials it seals
 * apart from the profile (MY, JO: the client id and secret; NG: the FIRS password). A change never
 * re-sends them (a second onboarding of the identifier is SUPPLIER.EXISTS, so no route takes them
 * again): they stay sealed as onboarding left them, and `parse` is shown a stand-in for each, which it
 * checks for presence only and reads into no profile field. `names` are never a revision's `fields`.
 */
export function parseKeepingSealed(parse: (body: unknown) => SupplierProfile, names: readonly string[]): (body: unknown) => SupplierProfile {
  const standIns = Object.fromEntries(names.map((name) => [name, 'sealed-at-onboarding']));
  return (body) => parse({ ...(body as Record<string, unknown>), ...standIns });
}
