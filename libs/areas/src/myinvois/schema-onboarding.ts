/**
 * Onboarding and TIN-validation bodies of the Malaysian area, field for field as seed 000
 * ("Supplier (onboarding request body)", "TIN validation request"). Limits are the seed's.
 */
import { Nested, OneOf, Text } from '../shared/fields';
import { E164, Exact } from './fields';

/** `other_ids` of the onboarding body: each mandatory if applicable (rules.ts decides when). */
export class OtherIds {
  /** Sales and service tax registration; mandatory for SST registrants. */
  @Text(35, { optional: true }) sst?: string;
  /** Business registration number; mandatory for businesses (non-individual TIN). */
  @Text(20, { optional: true }) brn?: string;
  /** Malaysian identity card number (individuals). */
  @Text(12, { optional: true }) nric?: string;
  /** Passport number; mandatory for non-Malaysian individuals. */
  @Text(12, { optional: true }) passport?: string;
  /** Armed-forces identification number, when held. */
  @Text(12, { optional: true }) army?: string;
  /** Tourism tax registration (hotels, online travel operators). */
  @Text(17, { optional: true }) ttx?: string;
}

/** Body of the onboarding request. */
export class MyInvoisOnboardingBody {
  @Text(300) registered_name: string;
  /** LHDN TIN without the employer number (format: rules.ts `tinPattern`). */
  @Text(14) tin_number: string;
  @Nested(() => OtherIds) other_ids: OtherIds;
  /** MSIC 2008 business activity code, e.g. `46510`; `00000` when not applicable. */
  @Exact(5) msic_code: string;
  /** Business activity description (IndustryClassificationCode@name). */
  @Text(300) industry: string;
  @Text(50) city: string;
  /** `NA` if not available. */
  @Text(150) street: string;
  /** MyInvois state code `01`–`17`. */
  @Exact(2) state: string;
  /** ISO 3166-1 alpha-3, e.g. `MYS`. */
  @Exact(3) country: string;
  @E164() contact_number: string;
  /** The service provider's client id issued by LHDN for this taxpayer. */
  @Text(200) client_id: string;
  @Text(200) client_secret: string;
}

/** `id_type` of the TIN validation request (MyInvois "Validate Taxpayer's TIN" idType). */
export const tinIdTypes = ['BRN', 'NRIC', 'PASSPORT', 'ARMY'] as const;
/** One of {@link tinIdTypes}. */
export type TinIdType = (typeof tinIdTypes)[number];

/** Body of the TIN validation request. */
export class TinValidationBody {
  @Text(14) tin_number: string;
  @OneOf(tinIdTypes) id_type: TinIdType;
  /** Value of the chosen id type; the longest, BRN, is 20 characters. */
  @Text(20) id_value: string;
}

/** The other ids of an onboarded supplier. */
export interface MyInvoisOtherIds {
  readonly sst?: string;
  readonly brn?: string;
  readonly nric?: string;
  readonly passport?: string;
  readonly army?: string;
  readonly ttx?: string;
}

/** The supplier as onboarded: the seller of invoices, the buyer of self-billed documents. */
export interface MyInvoisSupplier {
  readonly registeredName: string;
  readonly tin: string;
  readonly otherIds: MyInvoisOtherIds;
  readonly msicCode: string;
  readonly industry: string;
  readonly city: string;
  readonly street: string;
  readonly state: string;
  readonly country: string;
  readonly contactNumber: string;
}

/** A parsed onboarding: the supplier profile and the LHDN credentials kept apart (secrets never go into documents). */
export interface MyInvoisOnboarding {
  readonly supplier: MyInvoisSupplier;
  readonly credentials: { readonly clientId: string; readonly clientSecret: string };
}
