/**
 * Request DTOs of the Peppol participant area, field for field as seed 000 "Peppol
 * participant" (create-participant body), plus our additions: the optional top-level
 * `participantIdentifier` and the KYC completion body (README "Choices").
 */
import { AppError, FieldIssue, ParticipantBusinessEntity, issue, validationError } from '@einvoice/domain';
import { JSONSchema } from 'class-validator-jsonschema';
import { Country, Nested, NestedList, OneOf, Text } from '../shared/fields';
import { validateBody } from '../shared/validate';
import { ParticipantId, isParticipantId, parseParticipantId } from './participant-id';
import { PARTICIPANT_ID_SCHEME } from './participant-schemes';

/** `names.name[]` element. */
export class ParticipantNameDto {
  /** Language of the name (ISO 639-1 such as `en`); the seed gives no limit, ours is 10. */
  @JSONSchema({ description: 'The name\'s language, ISO 639-1 (Peppol Directory business card `Name@language`).', example: 'nl' })
  @Text(10) language: string;
  /** The seed gives no limit; ours is 500. */
  @JSONSchema({ description: 'The business\'s name in that language, as the Peppol Directory business card shows it.', example: 'Brussels Widgets NV' })
  @Text(500) name: string;
}

export class ParticipantNamesDto {
  @JSONSchema({ description: 'The business\'s names, at least one (one per language).', example: [{ language: 'nl', name: 'Brussels Widgets NV' }] })
  @NestedList(() => ParticipantNameDto, { min: 1 }) name: ParticipantNameDto[];
}

/** `additionalIdentifiers.additionalIdentifier[]` element (seed: code max 50, value max 100). */
export class AdditionalIdentifierDto {
  @JSONSchema({ description: 'With scheme `iso6523-actorid-upis` (or none): the ISO 6523 ICD / Peppol EAS code (`0208` Belgian enterprise number, `9925` Belgian VAT, `0088` GLN...), and the first such identifier gives the participant id when `participantIdentifier` is absent.', example: '0208' })
  @Text(50) identifierCode: string;
  @JSONSchema({ description: 'The identifier in that scheme, check digits included where the scheme has them (a Belgian enterprise number: 97 minus its first eight digits modulo 97).', example: '1082643130' })
  @Text(100) identifierValue: string;
  @JSONSchema({ description: 'The identifier\'s scheme: `iso6523-actorid-upis` (also when absent) for a Peppol participant identifier; another value is shown but gives no participant id.', example: 'iso6523-actorid-upis' })
  @Text(100, { optional: true }) scheme?: string;
}

export class AdditionalIdentifiersDto {
  @JSONSchema({ description: 'The business\'s identifiers (Peppol Directory `Identifier`).', example: [{ identifierCode: '0208', identifierValue: '1082643130', scheme: 'iso6523-actorid-upis' }] })
  @NestedList(() => AdditionalIdentifierDto) additionalIdentifier: AdditionalIdentifierDto[];
}

/** `contacts.contact[]` element (seed limits; all optional). */
export class ContactDto {
  @JSONSchema({ description: 'The contact\'s e-mail address.', example: 'peppol@widgets.example' })
  @Text(100, { optional: true }) email?: string;
  @JSONSchema({ description: 'The contact\'s name.', example: 'Accounts receivable' })
  @Text(50, { optional: true }) name?: string;
  @JSONSchema({ description: 'The contact\'s telephone number.', example: '+3225551234' })
  @Text(20, { optional: true }) phoneNumber?: string;
  @JSONSchema({ description: 'What the contact is for, e.g. `administrative` or `technical`.', example: 'administrative' })
  @Text(50, { optional: true }) type?: string;
}

export class ContactsDto {
  @JSONSchema({ description: 'The business\'s contacts (Peppol Directory `Contact`).', example: [{ type: 'administrative', name: 'Accounts receivable', email: 'peppol@widgets.example' }] })
  @NestedList(() => ContactDto) contact: ContactDto[];
}

/** `businessEntity[]` element. */
export class BusinessEntityDto {
  @JSONSchema({ description: 'The business\'s identifiers; one with scheme `iso6523-actorid-upis` gives the participant id unless `participantIdentifier` does.', example: { additionalIdentifier: [{ identifierCode: '0208', identifierValue: '1082643130', scheme: 'iso6523-actorid-upis' }] } })
  @Nested(() => AdditionalIdentifiersDto, { optional: true }) additionalIdentifiers?: AdditionalIdentifiersDto;
  @JSONSchema({ description: 'Free text about the business (Peppol Directory `AdditionalInfo`).', example: 'Industrial widgets since 1962.' })
  @Text(4000, { optional: true }) additionalInformation?: string;
  @JSONSchema({ description: 'The business\'s contacts.', example: { contact: [{ type: 'administrative', name: 'Accounts receivable', email: 'peppol@widgets.example' }] } })
  @Nested(() => ContactsDto, { optional: true }) contacts?: ContactsDto;
  @JSONSchema({ description: 'The business\'s country, ISO 3166-1 alpha-2 (Peppol Directory `CountryCode`).', example: 'BE' })
  @Country() countryCode: string;
  @JSONSchema({ description: 'Where the business is, free text such as its address (Peppol Directory `GeoInfo`).', example: 'Rue de la Loi 16, 1000 Brussels' })
  @Text(4000, { optional: true }) geographicalInformation?: string;
  @JSONSchema({ description: 'The business\'s names.', example: { name: [{ language: 'nl', name: 'Brussels Widgets NV' }] } })
  @Nested(() => ParticipantNamesDto) names: ParticipantNamesDto;
}

/** Body of `POST /1.0/participant`. */
export class CreateParticipantBody {
  /** Our addition: the full participant id. Without it, the first `iso6523-actorid-upis` additional identifier gives it. */
  @JSONSchema({ description: 'The participant id `iso6523-actorid-upis::<ICD>:<value>`; without it, the first additional identifier with scheme `iso6523-actorid-upis` gives it. A participant is registered once with this access point (409 `PARTICIPANT.ALREADY_REGISTERED`).', example: 'iso6523-actorid-upis::0208:1082643130' })
  @Text(100, { optional: true }) participantIdentifier?: string;
  @JSONSchema({ description: 'The business behind the participant, as its Peppol Directory business card (lookups show the first).', example: [{ names: { name: [{ language: 'nl', name: 'Brussels Widgets NV' }] }, countryCode: 'BE' }] })
  @NestedList(() => BusinessEntityDto, { min: 1 }) businessEntity: BusinessEntityDto[];
}

/** KYC methods accepted (seed: `method` of the 202 answer). */
export const kycMethods = ['PDF_AUTHORIZATION_DOCUMENT'] as const;

/** Body of `POST /1.0/participant/{pid}/kyc` (our addition: the seed does not show completion). */
export class KycCompletionBody {
  @JSONSchema({ description: 'How KYC is completed: `PDF_AUTHORIZATION_DOCUMENT` (the default and only one), a signed authorization letter.', example: 'PDF_AUTHORIZATION_DOCUMENT' })
  @OneOf(kycMethods, { optional: true }) method?: string;
  @JSONSchema({ description: 'The PDF\'s file name, without a path, ending in `.pdf`; shown as `Meta.PdfFile` in lookups.', example: 'authorization-1082643130.pdf' })
  @Text(200) fileName: string;
  @JSONSchema({ description: 'The signed authorization PDF, base64-encoded; it must start with `%PDF-` and be at most KYC_PDF_MAX_BYTES once decoded.', example: 'JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDwvVHlwZS9DYXRhbG9nPj4KZW5kb2JqCnRyYWlsZXIKPDwvUm9vdCAxIDAgUj4+CiUlRU9GCg==' })
  @Text(20_000_000) content: string;
}

/** A validated create-participant request in domain terms. */
export interface CreateParticipantRequest {
  readonly participantId: ParticipantId;
  readonly businessEntities: ParticipantBusinessEntity[];
}

function fail(issues: FieldIssue[]): never {
  throw validationError(issues);
}

/** Which participant a create request registers (README "Choices": explicit id, else the first iso6523 identifier). */
function participantIdOf(dto: CreateParticipantBody): ParticipantId {
  if (dto.participantIdentifier !== undefined) {
    const parsed = parseParticipantId(dto.participantIdentifier, 'participantIdentifier');
    return isParticipantId(parsed) ? parsed : fail([parsed]);
  }
  for (const [e, entity] of dto.businessEntity.entries()) {
    const identifiers = entity.additionalIdentifiers?.additionalIdentifier ?? [];
    for (const [i, ident] of identifiers.entries()) {
      if (ident.scheme !== undefined && ident.scheme.toLowerCase() !== PARTICIPANT_ID_SCHEME) continue;
      const path = `businessEntity[${e}].additionalIdentifiers.additionalIdentifier[${i}]`;
      const parsed = parseParticipantId(`${PARTICIPANT_ID_SCHEME}::${ident.identifierCode}:${ident.identifierValue}`, path);
      return isParticipantId(parsed) ? parsed : fail([parsed]);
    }
  }
  return fail([
    issue('participantIdentifier', 'FIELD.REQUIRED',
      'participantIdentifier is required, or an additionalIdentifier with scheme iso6523-actorid-upis (identifierCode = ISO 6523 code, identifierValue = the identifier)'),
  ]);
}

/** Validates a create-participant body. @throws AppError `validation` listing every issue. */
export function parseCreateParticipant(body: unknown): CreateParticipantRequest {
  const dto = validateBody(CreateParticipantBody, body);
  const participantId = participantIdOf(dto);
  const businessEntities = dto.businessEntity.map((e): ParticipantBusinessEntity => ({
    names: e.names.name.map((n) => ({ name: n.name, language: n.language })),
    countryCode: e.countryCode,
    geographicalInformation: e.geographicalInformation,
    additionalInformation: e.additionalInformation,
    additionalIdentifiers: (e.additionalIdentifiers?.additionalIdentifier ?? []).map((i) => ({
      identifierCode: i.identifierCode, identifierValue: i.identifierValue, scheme: i.scheme,
    })),
    contacts: (e.contacts?.contact ?? []).map((c) => ({ email: c.email, name: c.name, phoneNumber: c.phoneNumber, type: c.type })),
  }));
  return { participantId, businessEntities };
}

/** A validated KYC document. */
export interface KycDocument {
  readonly method: string;
  readonly fileName: string;
  readonly bytes: Buffer;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Validates a KYC completion body: a `.pdf` name, base64 content, PDF magic bytes (`%PDF-`,
 * ISO 32000-1 §7.5.2) and at most `maxBytes` decoded.
 */
export function parseKycCompletion(body: unknown, maxBytes: number): KycDocument {
  const dto = validateBody(KycCompletionBody, body);
  const issues: FieldIssue[] = [];
  if (!/\.pdf$/i.test(dto.fileName) || /[/\\]/.test(dto.fileName)) {
    issues.push(issue('fileName', 'FIELD.INVALID_FORMAT', 'fileName must be a file name ending in .pdf, without a path'));
  }
  const compact = dto.content.replace(/\s/g, '');
  if (!BASE64.test(compact) || compact.length === 0) {
    issues.push(issue('content', 'FIELD.INVALID_FORMAT', 'content must be the PDF encoded as base64'));
    fail(issues);
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > maxBytes) {
    issues.push(issue('content', 'KYC.FILE_TOO_LARGE', `content must be at most ${maxBytes} bytes once decoded (it is ${bytes.length})`));
  } else if (bytes.subarray(0, 5).toString('latin1') !== '%PDF-') {
    issues.push(issue('content', 'KYC.NOT_A_PDF', 'content is not a PDF (it does not start with %PDF-)'));
  }
  if (issues.length > 0) fail(issues);
  return { method: dto.method ?? kycMethods[0], fileName: dto.fileName, bytes };
}

/** Guards a `documentTypeId` query parameter. */
export function requireDocumentTypeId(raw: unknown): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new AppError('validation', 'REQUEST.INVALID', 'documentTypeId is required.', {
      issues: [issue('documentTypeId', 'FIELD.REQUIRED', 'documentTypeId is required, e.g. busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##...::2.1')],
    });
  }
  return value.trim();
}
