import type { Event } from '../events';

/** An identifier of the supplier as the seed sends it (`{scheme, id}`, e.g. `BE:VAT`). */
export interface SupplierIdentifier {
  readonly scheme: string;
  readonly id: string;
}

/** The supplier's profile as onboarded; the renderer fills the seller party from it. */
export interface SupplierProfile {
  readonly registeredName: string;
  readonly identifiers: readonly SupplierIdentifier[];
  readonly street?: string;
  readonly city?: string;
  readonly county?: string;
  readonly postalCode?: string;
  readonly country: string;
  readonly contactNumber?: string;
  readonly contactName?: string;
  readonly contactEmail?: string;
  /** Fields only one area has, as onboarded (e.g. MyInvois MSIC code, industry, state). */
  readonly areaDetails?: Readonly<Record<string, unknown>>;
}

export interface SupplierOnboardedData {
  readonly supplierId: string;
  readonly tenantId: string;
  readonly area: string;
  readonly profile: SupplierProfile;
  /** Peppol participant ids derived from the identifiers (ISO 6523 schemes). */
  readonly participantIds: readonly string[];
  readonly onboardedAt: string;
}
export type SupplierOnboarded = Event<'SupplierOnboarded', SupplierOnboardedData>;

/**
 * The supplier's profile after a change its area lets make (`PATCH /v1/suppliers/{id}`, #47): the whole
 * profile, so that a replay needs no earlier event; its identifiers are the onboarded ones.
 */
export interface SupplierUpdatedData {
  readonly supplierId: string;
  readonly tenantId: string;
  readonly area: string;
  readonly profile: SupplierProfile;
  /** The onboarding body's fields the change named, as the caller sent them (`street`, `postal_code`). */
  readonly changed: readonly string[];
  readonly updatedAt: string;
}
export type SupplierUpdated = Event<'SupplierUpdated', SupplierUpdatedData>;

/** The supplier takes no new documents from now on (`DELETE /v1/suppliers/{id}`, #47); its documents stay readable. */
export interface SupplierDeactivatedData {
  readonly supplierId: string;
  readonly tenantId: string;
  readonly area: string;
  readonly deactivatedAt: string;
}
export type SupplierDeactivated = Event<'SupplierDeactivated', SupplierDeactivatedData>;

export type SupplierEvent = SupplierOnboarded | SupplierUpdated | SupplierDeactivated;

export const supplierStreamId = (supplierId: string): string => `supplier-${supplierId}`;
