/**
 * Onboarding and TIN-validation bodies of the Malaysian area, field for field as seed 000
 * ("Supplier (onboarding request body)", "TIN validation request"). Limits are the seed's.
 */
import { JSONSchema } from 'class-validator-jsonschema';
import { Nested, OneOf, Text } from '../shared/fields';
import { E164, Exact } from './fields';

/** `other_ids` of the onboarding body: each mandatory if applicable (rules.ts decides when). */
export class OtherIds {
  /** Sales and service tax registration; mandatory for SST registrants. */
  @JSONSchema({ description: 'SST registration number (MyInvois supplier `SST`), `NA` when not registered; two joined by `;` at most.', example: 'W10-1808-32000001' })
  @Text(35, { optional: true }) sst?: string;
  /** Business registration number; mandatory for businesses (non-individual TIN). */
  @JSONSchema({ description: 'Business registration number (MyInvois `BRN`, the 12-digit SSM number); mandatory for a business.', example: '202001234567' })
  @Text(20, { optional: true }) brn?: string;
  /** Malaysian identity card number (individuals). */
  @JSONSchema({ description: 'MyKad / MyKas number of a Malaysian individual (MyInvois `NRIC`), 12 digits without dashes.', example: '770625015324' })
  @Text(12, { optional: true }) nric?: string;
  /** Passport number; mandatory for non-Malaysian individuals. */
  @JSONSchema({ description: 'Passport number (MyInvois `PASSPORT`); mandatory for a non-Malaysian individual.', example: 'A12345678' })
  @Text(12, { optional: true }) passport?: string;
  /** Armed-forces identification number, when held. */
  @JSONSchema({ description: 'Armed-forces identification number (MyInvois `ARMY`), when held.', example: '551587706543' })
  @Text(12, { optional: true }) army?: string;
  /** Tourism tax registration (hotels, online travel operators). */
  @JSONSchema({ description: 'Tourism tax registration number (MyInvois `TTX`) of hotels and online travel operators.', example: '141-1801-13000001' })
  @Text(17, { optional: true }) ttx?: string;
}

/** Body of the onboarding request. */
export class MyInvoisOnboardingBody {
  @JSONSchema({ description: 'The supplier\'s registered business name: the seller\'s cac:PartyLegalEntity/cbc:RegistrationName in its documents.', example: 'Kedai Runcit Maju Sdn Bhd' })
  @Text(300) registered_name: string;
  /** LHDN TIN without the employer number (format: rules.ts `tinPattern`). */
  @JSONSchema({ description: 'Its LHDN tax identification number without the employer number: a prefix (C, IG, D, E, F, J, CS, …) then digits. Also its PINT MY Peppol participant id here (0230:<TIN>). Never changes after onboarding.', example: 'C47190385260' })
  @Text(14) tin_number: string;
  @JSONSchema({ description: 'Its other identifiers, each mandatory if applicable (a business: brn; an SST registrant: sst).', example: { brn: '202001234567', sst: 'W10-1808-32000001' } })
  @Nested(() => OtherIds) other_ids: OtherIds;
  /** MSIC 2008 business activity code, e.g. `46510`; `00000` when not applicable. */
  @JSONSchema({ description: 'MSIC 2008 code of its business activity (cbc:IndustryClassificationCode); `00000` when not applicable.', example: '47111' })
  @Exact(5) msic_code: string;
  /** Business activity description (IndustryClassificationCode@name). */
  @JSONSchema({ description: 'Description of its business activity (cbc:IndustryClassificationCode@name).', example: 'Retail sale in non-specialized stores' })
  @Text(300) industry: string;
  @JSONSchema({ description: 'City of its address (cac:PostalAddress/cbc:CityName).', example: 'Kuala Lumpur' })
  @Text(50) city: string;
  /** `NA` if not available. */
  @JSONSchema({ description: 'Street line of its address (cac:AddressLine); `NA` when not available.', example: 'Lot 66, Bangunan Merdeka, Persiaran Jaya' })
  @Text(150) street: string;
  /** MyInvois state code `01`–`17`. */
  @JSONSchema({ description: 'MyInvois state code of its address (cbc:CountrySubentityCode): `01`–`16` (14: W.P. Kuala Lumpur), `17` not applicable.', example: '14' })
  @Exact(2) state: string;
  /** ISO 3166-1 alpha-3, e.g. `MYS`. */
  @JSONSchema({ description: 'ISO 3166-1 alpha-3 country code of its address (cac:Country/cbc:IdentificationCode).', example: 'MYS' })
  @Exact(3) country: string;
  @JSONSchema({ description: 'Its telephone number in E.164 form (cac:Contact/cbc:Telephone).', example: '+60123456789' })
  @E164() contact_number: string;
  /** The service provider's client id issued by LHDN for this taxpayer. */
  @JSONSchema({ description: 'The client id LHDN issued this service provider for the taxpayer: onboarding logs in with it first (bad credentials: 400); sealed at rest, never returned.', example: 'my-client-id' })
  @Text(200) client_id: string;
  @JSONSchema({ description: 'The client secret issued with client_id; sealed at rest, never returned. The sandbox accepts any pair.', example: 'my-client-secret' })
  @Text(200) client_secret: string;
}

/** `id_type` of the TIN validation request (MyInvois "Validate Taxpayer's TIN" idType). */
export const tinIdTypes = ['BRN', 'NRIC', 'PASSPORT', 'ARMY'] as const;
/** One of {@link tinIdTypes}. */
export type TinIdType = (typeof tinIdTypes)[number];

/** Body of the TIN validation request. */
export class TinValidationBody {
  @JSONSchema({ description: 'The TIN to check at MyInvois ("Validate Taxpayer\'s TIN").', example: 'C20880050010' })
  @Text(14) tin_number: string;
  @JSONSchema({ description: 'The kind of id id_value holds (MyInvois idType).', example: 'BRN' })
  @OneOf(tinIdTypes) id_type: TinIdType;
  /** Value of the chosen id type; the longest, BRN, is 20 characters. */
  @JSONSchema({ description: 'The id of that kind registered with the TIN (MyInvois idValue).', example: '199901012345' })
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
