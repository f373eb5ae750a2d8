/**
 * What of a Malaysian supplier `PATCH /v1/suppliers/{id}` may change (#47, registry `onboarding.revise`),
 * under the rules of its onboarding (seed 000 "Supplier (onboarding request body)", rules.ts
 * `checkOnboarding`): its name, business activity (MSIC code, industry), address and contact number.
 * Not its TIN nor its `other_ids` (BRN, SST, NRIC...: they are the profile's identifiers, which a change
 * keeps, and the documents' seller ids); not the LHDN client id and secret (sealed, never re-sent).
 */
import type { OnboardingCodec } from '../registry/area';
import { parseKeepingSealed, reviseByOnboarding } from '../shared/revise';
import { myInvoisArea } from './area';
import { supplierOfProfile, supplierProfileOf } from './supplier-profile';

/** The profile the Malaysian onboarding stores (apps/gateway/src/areas/myinvois: its own route onboards). */
const parseOnboardingProfile = (body: unknown) => supplierProfileOf(myInvoisArea.parseOnboarding(body).supplier);

/**
 * The area's onboarding as the registry knows it: `parse` for the change's check only (no pipeline route
 * onboards a Malaysian supplier: MyInvois's own controller does, logging in at LHDN first) and `revise`.
 */
export const myInvoisOnboarding: OnboardingCodec = {
  parse: parseOnboardingProfile,
  revise: reviseByOnboarding({
    fields: ['registered_name', 'msic_code', 'industry', 'street', 'city', 'state', 'country', 'contact_number'],
    bodyOf(profile) {
      const s = supplierOfProfile(profile);
      const otherIds = Object.fromEntries(Object.entries(s.otherIds).filter(([, value]) => value !== undefined && value !== null));
      return {
        registered_name: s.registeredName, tin_number: s.tin, other_ids: otherIds, msic_code: s.msicCode, industry: s.industry,
        city: s.city, street: s.street, state: s.state, country: s.country, contact_number: s.contactNumber,
      };
    },
    parse: parseKeepingSealed(parseOnboardingProfile, ['client_id', 'client_secret']),
  }),
};
