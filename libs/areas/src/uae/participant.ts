/**
 * UAE participants (issue 10; the seed's onboarding is "not shown"): `POST /v1/participants`. A
 * participant is a supplier of area `ae` and a Peppol receiver here under ICD 0235 (its TIN), as
 * BE/DE/SG/MY suppliers are under theirs (README.md "Participants").
 */
import { Type } from 'class-transformer';
import { IsOptional, Matches, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { SupplierProfile } from '@einvoice/domain';
import { OneOf, Text } from '../shared/fields';
import { validateBody } from '../shared/validate';
import type { UaeIssuer } from './render';

/** The seven emirates, as PINT AE codes them (BT-39 subdivision of an AE address). */
export const EMIRATES = ['AUH', 'DXB', 'SHJ', 'AJM', 'UAQ', 'RAK', 'FUJ'] as const;
/** Legal registration types of a UAE party (PINT AE: trade licence, Emirates ID, passport, cabinet decision). */
export const LEGAL_ID_SCHEMES = ['TL', 'EID', 'PAS', 'CD'] as const;

/**
 * A participant's legal registration (IBT-030). Named apart from the document's UaeLegalId (schema-parties.ts,
 * which also takes CL): the OpenAPI schemas are keyed by class name and would merge the two (#47).
 */
export class UaeParticipantLegalId {
  @JSONSchema({ description: 'The registration number (IBT-030 legal registration identifier, cac:PartyLegalEntity/cbc:CompanyID).', example: 'TL-1794625038' })
  @Text(100) id!: string;
  @JSONSchema({ description: 'Its kind (CompanyID@schemeAgencyID): TL trade licence, EID Emirates ID, PAS passport, CD cabinet decision.', example: 'TL' })
  @OneOf(LEGAL_ID_SCHEMES) scheme!: string;
  @JSONSchema({ description: 'Who issued it (CompanyID@schemeAgencyName): the licensing authority, or the passport\'s country.', example: 'Dubai Economy and Tourism' })
  @Text(200, { optional: true }) authority?: string;
}

/** `POST /v1/participants`. */
export class UaeParticipantBody {
  /** `0235:` and the 10-digit TIN (the first ten digits of the TRN); ibr-148: a TIN is `1` and nine digits. */
  @JSONSchema({ description: 'Its Peppol participant id, `0235:` and its 10-digit TIN (ibr-148-ae: 1 and nine digits): IBT-034 seller electronic address; it becomes a Peppol receiver here under it. Unique among participants.', example: '0235:1794625038' })
  @Text(15)
  @Matches(/^0235:1\d{9}$/, { message: 'must be 0235: followed by the 10-digit TIN, which starts with 1 (ibr-148-ae)' })
  peppol_id!: string;
  @JSONSchema({ description: 'Its registered name (IBT-027, cac:PartyLegalEntity/cbc:RegistrationName) on every document it issues.', example: 'Gulf Widgets LLC' })
  @Text(300) legal_name!: string;
  @JSONSchema({ description: 'Its 15-digit VAT tax registration number (IBT-031, cac:PartyTaxScheme/cbc:CompanyID), 1, then digits, then 03 (ibr-132-ae); leave it out when not VAT-registered.', example: '179462503800003' })
  @Text(15, { optional: true })
  @Matches(/^\d{15}$/, { message: 'must be the 15-digit tax registration number' })
  trn?: string;
  @JSONSchema({ description: 'Its legal registration (IBT-030): trade licence, Emirates ID, passport or cabinet decision; its documents need one (ibr-150-ae).', example: { id: 'TL-1794625038', scheme: 'TL', authority: 'Dubai Economy and Tourism' } })
  @IsOptional()
  @ValidateNested()
  @Type(() => UaeParticipantLegalId)
  legal_id?: UaeParticipantLegalId;
  @JSONSchema({ description: 'Street of its address (IBT-035, cbc:StreetName).', example: 'Sheikh Zayed Road 1' })
  @Text(300) street_address!: string;
  @JSONSchema({ description: 'City of its address (IBT-037, cbc:CityName).', example: 'Dubai' })
  @Text(100) city!: string;
  @JSONSchema({ description: 'The emirate of its address (IBT-039, cbc:CountrySubentity).', example: 'DXB' })
  @OneOf(EMIRATES) emirates_code!: string;
  @JSONSchema({ description: 'Country of its address (IBT-040): the UAE.', example: 'AE' })
  @OneOf(['AE']) country_code!: string;
  /** The first day of the financial year, `MM-DD` (default `01-01`): document numbers are unique per financial year. */
  @JSONSchema({ description: 'First day of its financial year, `MM-DD` (`01-01` when absent): a document_identifier is unique per financial year.', example: '01-01' })
  @Text(5, { optional: true })
  @Matches(/^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message: 'must be MM-DD, e.g. 04-01' })
  financial_year_start?: string;
}

/** What a UAE participant's profile keeps beyond the common fields (`SupplierProfile.areaDetails`). */
export interface UaeParticipantDetails {
  readonly peppolId: string;
  readonly trn?: string;
  readonly legalId?: { readonly id: string; readonly scheme: string; readonly authority?: string };
  readonly emiratesCode: string;
  readonly financialYearStart: string;
}

/** The participant's scheme name in `SupplierProfile.identifiers` (its Peppol participant id is 0235 + the TIN). */
export const UAE_TIN_SCHEME = 'AE:TIN';

/** Validates the onboarding body. @throws AppError validation listing every issue */
export function parseUaeParticipant(body: unknown): SupplierProfile {
  const dto = validateBody(UaeParticipantBody, body);
  const details: UaeParticipantDetails = {
    peppolId: dto.peppol_id,
    ...(dto.trn ? { trn: dto.trn } : {}),
    ...(dto.legal_id ? { legalId: { id: dto.legal_id.id, scheme: dto.legal_id.scheme, ...(dto.legal_id.authority ? { authority: dto.legal_id.authority } : {}) } } : {}),
    emiratesCode: dto.emirates_code,
    financialYearStart: dto.financial_year_start ?? '01-01',
  };
  return {
    registeredName: dto.legal_name,
    identifiers: [{ scheme: UAE_TIN_SCHEME, id: dto.peppol_id.slice('0235:'.length) }],
    street: dto.street_address,
    city: dto.city,
    county: dto.emirates_code,
    country: 'AE',
    areaDetails: details as unknown as Record<string, unknown>,
  };
}

/** The onboarding body a participant's profile was read from (a change is merged into it: registry `onboarding.revise`). */
export function uaeParticipantBody(profile: SupplierProfile): Record<string, unknown> {
  const details = uaeDetailsOf(profile);
  return {
    peppol_id: details.peppolId,
    legal_name: profile.registeredName,
    ...(details.trn ? { trn: details.trn } : {}),
    ...(details.legalId ? { legal_id: { ...details.legalId } } : {}),
    street_address: profile.street,
    city: profile.city,
    emirates_code: details.emiratesCode,
    country_code: 'AE',
    financial_year_start: details.financialYearStart,
  };
}

/** The participant's details back from its profile. */
export const uaeDetailsOf = (profile: SupplierProfile): UaeParticipantDetails => profile.areaDetails as unknown as UaeParticipantDetails;

/**
 * The financial year a date falls in, named by the year it starts in: with a start of `04-01`,
 * 2026-03-31 is in 2025 and 2026-04-01 in 2026. Document numbers are unique per participant and year.
 */
export function financialYearOf(issueDate: string, financialYearStart: string): number {
  const year = Number(issueDate.slice(0, 4));
  return issueDate.slice(5, 10) >= financialYearStart ? year : year - 1;
}


/** The registered participant as the renderer's issuer (`issuing_party` may override parts per document). */
export function uaeIssuerOf(profile: SupplierProfile): UaeIssuer {
  const details = uaeDetailsOf(profile);
  return {
    peppolId: details.peppolId,
    legalName: profile.registeredName,
    ...(details.trn ? { trn: details.trn } : {}),
    ...(details.legalId ? { legalId: details.legalId as UaeIssuer['legalId'] } : {}),
    streetAddress: profile.street ?? '',
    city: profile.city ?? '',
    emiratesCode: details.emiratesCode,
    countryCode: 'AE',
  };
}
