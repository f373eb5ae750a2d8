/**
 * A Malaysian supplier as the platform keeps it (`SupplierProfile`, its MyInvois details in
 * `areaDetails`) and back: onboarding writes one, submissions and the reporting worker read it.
 */
import type { SupplierProfile } from '@einvoice/domain';
import type { MyInvoisOtherIds, MyInvoisSupplier } from './schema-onboarding';

/** The profile an onboarding stores: the TIN and each other id as identifiers (`MY:TIN`, `MY:SST`...). */
export function supplierProfileOf(supplier: MyInvoisSupplier): SupplierProfile {
  const ids = Object.entries(supplier.otherIds).filter(([, value]) => value);
  return {
    registeredName: supplier.registeredName,
    identifiers: [{ scheme: 'MY:TIN', id: supplier.tin }, ...ids.map(([key, id]) => ({ scheme: `MY:${key.toUpperCase()}`, id: String(id) }))],
    street: supplier.street,
    city: supplier.city,
    country: supplier.country,
    contactNumber: supplier.contactNumber,
    areaDetails: { msicCode: supplier.msicCode, industry: supplier.industry, state: supplier.state, otherIds: supplier.otherIds },
  };
}

/** The MyInvois supplier of an onboarded profile (`supplierProfileOf` wrote it). */
export function supplierOfProfile(profile: SupplierProfile): MyInvoisSupplier {
  const details = (profile.areaDetails ?? {}) as { msicCode?: string; industry?: string; state?: string; otherIds?: MyInvoisOtherIds };
  return {
    registeredName: profile.registeredName,
    tin: profile.identifiers.find((i) => i.scheme === 'MY:TIN')?.id ?? '',
    otherIds: details.otherIds ?? {},
    msicCode: details.msicCode ?? '',
    industry: details.industry ?? '',
    city: profile.city ?? '',
    street: profile.street ?? '',
    state: details.state ?? '',
    country: profile.country,
    contactNumber: profile.contactNumber ?? '',
  };
}
