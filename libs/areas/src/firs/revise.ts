/**
 * What of a Nigerian supplier `PATCH /v1/suppliers/{id}` may change (#47, registry `onboarding.revise`),
 * under the rules of its onboarding (seed 002 "Nigeria", codec.ts `firsOnboarding`): its party name,
 * telephone, business description and postal address (`postal_address` whole: a change replaces it, its
 * `country` required as at onboarding). Not its TIN; not its e-mail, which is its FIRS login (onboarding
 * logs in with it and seals it with the password: a change, which re-sends no password, could not be
 * checked at FIRS); not the password (sealed, never re-sent).
 */
import type { SupplierRevision } from '../registry/area';
import { parseKeepingSealed, reviseByOnboarding } from '../shared/revise';
import { firsOnboarding, firsSupplierOf } from './codec';
import { TIN_SCHEME } from './names';

export const firsRevision: SupplierRevision = reviseByOnboarding({
  fields: ['party_name', 'telephone', 'business_description', 'postal_address'],
  bodyOf(profile) {
    const postalAddress: Record<string, unknown> = { street_name: profile.street, city_name: profile.city, postal_zone: profile.postalCode, country: profile.country };
    for (const key of Object.keys(postalAddress)) if (postalAddress[key] === undefined) delete postalAddress[key];
    return {
      party_name: profile.registeredName,
      tin: profile.identifiers.find((i) => i.scheme === TIN_SCHEME)?.id,
      email: profile.contactEmail,
      ...(profile.contactNumber ? { telephone: profile.contactNumber } : {}),
      business_description: firsSupplierOf(profile).businessDescription,
      postal_address: postalAddress,
    };
  },
  parse: parseKeepingSealed(firsOnboarding.parse, ['password']),
});
