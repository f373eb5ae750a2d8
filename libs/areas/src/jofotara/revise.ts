/**
 * What of a Jordanian supplier `PATCH /v1/suppliers/{id}` may change (#47, registry `onboarding.revise`),
 * under the rules of its onboarding (seed 002 "Jordan", codec.ts `jofotaraOnboarding`): its name, the
 * income-source sequence and invoice class of its device, its city code, postal code and phone. Not its
 * TIN (the supplier is that), nor the device's client id and secret (sealed, never re-sent).
 */
import type { SupplierRevision } from '../registry/area';
import { parseKeepingSealed, reviseByOnboarding } from '../shared/revise';
import { TIN_SCHEME, jofotaraOnboarding, jofotaraSupplierOf } from './codec';

export const jofotaraRevision: SupplierRevision = reviseByOnboarding({
  fields: ['supplier_name', 'default_income_source', 'invoice_class', 'city_code', 'postal_code', 'phone'],
  bodyOf(profile) {
    const { incomeSource, invoiceClass } = jofotaraSupplierOf(profile);
    const body: Record<string, unknown> = {
      supplier_name: profile.registeredName,
      supplier_tin: profile.identifiers.find((i) => i.scheme === TIN_SCHEME)?.id,
      default_income_source: incomeSource,
      invoice_class: invoiceClass,
      city_code: profile.county,
      postal_code: profile.postalCode,
      phone: profile.contactNumber,
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    return body;
  },
  parse: parseKeepingSealed(jofotaraOnboarding.parse, ['client_id', 'client_secret']),
});
