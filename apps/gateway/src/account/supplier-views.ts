/**
 * What `/v1/suppliers` answers of a supplier (#47, docs/account-api.md): the list's record, and the
 * detail with the profile its area onboarded. Built from the `suppliers` read model alone; a
 * supplier's secrets are never in it (they are sealed in `supplier_secrets`, registry `onboarding.secrets`).
 */
import type { SupplierIdentifier, SupplierProfile } from '@einvoice/domain';
import { findArea } from '@einvoice/areas';

/** A `suppliers` row as the account's routes read it. */
export interface SupplierRow {
  readonly id: string;
  readonly area: string;
  readonly registered_name: string;
  readonly profile: SupplierProfile;
  readonly status: 'active' | 'inactive';
  readonly created_at: Date;
  readonly updated_at: Date | null;
  readonly participant_ids?: string[] | null;
}

/** One supplier of the list. */
export interface SupplierListItem {
  readonly id: string;
  readonly area: string;
  readonly name: string;
  readonly identifiers: readonly SupplierIdentifier[];
  readonly status: 'active' | 'inactive';
  readonly created_at: string;
}

/** One supplier in detail: the list's record, its profile as onboarded (or changed), what PATCH may change. */
export interface SupplierDetail extends SupplierListItem {
  readonly updated_at: string | null;
  readonly address: { readonly street?: string; readonly city?: string; readonly county?: string; readonly postal_code?: string; readonly country: string };
  readonly contact: { readonly name?: string; readonly email?: string; readonly phone?: string };
  /** The area's own onboarding fields (MyInvois: MSIC code, industry, state; Argentina: points of sale). */
  readonly details: Readonly<Record<string, unknown>>;
  /** Its Peppol participant ids, in an area that delivers over Peppol. */
  readonly participant_ids: readonly string[];
  /** The onboarding body's fields `PATCH /v1/suppliers/{id}` takes for its area (registry `onboarding.revise`); empty: none. */
  readonly editable_fields: readonly string[];
}

export function listItemOf(row: SupplierRow): SupplierListItem {
  return {
    id: row.id,
    area: row.area,
    name: row.registered_name,
    identifiers: row.profile.identifiers.map((i) => ({ scheme: i.scheme, id: i.id })),
    status: row.status,
    created_at: new Date(row.created_at).toISOString(),
  };
}

export function detailOf(row: SupplierRow): SupplierDetail {
  const p = row.profile;
  return {
    ...listItemOf(row),
    updated_at: row.updated_at ? new Date(row.updated_at).toISOString() : null,
    address: defined({ street: p.street, city: p.city, county: p.county, postal_code: p.postalCode, country: p.country }),
    contact: defined({ name: p.contactName, email: p.contactEmail, phone: p.contactNumber }),
    details: p.areaDetails ?? {},
    participant_ids: row.participant_ids ?? [],
    editable_fields: findArea(row.area)?.onboarding?.revise?.fields ?? [],
  };
}

/** The object without its undefined fields (absent in JSON either way; this keeps `toEqual` in tests honest). */
function defined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
