/**
 * Request DTOs of the Peppol participant area, field for field as seed 000 "Peppol
 * participant" (create-participant body), plus our additions: the optional top-level
 * `participantIdentifier` and the KYC completion body (README "Choices").
 */
import { AppError, FieldIssue, ParticipantBusinessEntity, issue, validationError } from '@einvoice/domain';
import { Country, Nested, NestedList, OneOf, Text } from '../shared/fields';
import { validateBody } from '../shared/validate';
import { ParticipantId, isParticipantId, parseParticipantId } from './participant-id';
import { PARTICIPANT_ID_SCHEME } from './participant-schemes';

/** `names.name[]` element. */
export class ParticipantNameDto {
  /** Language of the name (ISO 639-1 such as `en`); the seed gives no limit, ours is 10. */
  @Text(10) language: string;
  /** The seed gives no limit; ours is 500. */
  @Text(500) name: string;
}

export class ParticipantNamesDto {
  @NestedList(() => ParticipantNameDto, { min: 1 }) name: ParticipantNameDto[];
}

/** `additionalIdentifiers.additionalIdentifier[]` element (seed: code max 50, value max 100). */
export class AdditionalIdentifierDto {
  /** ISO 6523 ICD / EAS code when `scheme` is `iso6523-actorid-upis` (then it can give the participant id). */
  @Text(50) identifierCode: string;
  @Text(100) identifierValue: string;
  @Text(100, { optional: true }) scheme?: string;
}

export class AdditionalIdentifiersDto {
  @NestedList(() => AdditionalIdentifierDto) additionalIdentifier: AdditionalIdentifierDto[];
}

/** `contacts.contact[]` element (seed limits; all optional). */
export class ContactDto {
  @Text(100, { optional: true }) email?: string;
  @Text(50, { optional: true }) name?: string;
  @Text(20, { optional: true }) phoneNumber?: string;
  /** e.g. `administrative`, `technical`. */
  @Text(50, { optional: true }) type?: string;
}

export class ContactsDto {
  @NestedList(() => ContactDto) contact: ContactDto[];
}

/** `businessEntity[]` element. */
export class BusinessEntityDto {
  @Nested(() => AdditionalIdentifiersDto, { optional: true }) additionalIdentifiers?: AdditionalIdentifiersDto;
  @Text(4000, { optional: true }) additionalInformation?: string;
  @Nested(() => ContactsDto, { optional: true }) contacts?: ContactsDto;
  /** ISO 3166-1 alpha-2. */
  @Country() countryCode: string;
  @Text(4000, { optional: true }) geographicalInformation?: string;
  @Nested(() => ParticipantNamesDto) names: ParticipantNamesDto;
}

/** Body of `POST /1.0/participant`. */
export class CreateParticipantBody {
  /** Our addition: the full participant id. Without it, the first `iso6523-actorid-upis` additional identifier gives it. */
  @Text(100, { optional: true }) participantIdentifier?: string;
  @NestedList(() => BusinessEntityDto, { min: 1 }) businessEntity: BusinessEntityDto[];
}

/** KYC methods accepted (seed: `method` of the 202 answer). */
export const kycMethods = ['PDF_AUTHORIZATION_DOCUMENT'] as const;

/** Body of `POST /1.0/participant/{pid}/kyc` (our addition: the seed does not show completion). */
export class KycCompletionBody {
  @OneOf(kycMethods, { optional: true }) method?: string;
  /** Shown as `Meta.PdfFile`; must end in `.pdf`. */
  @Text(200) fileName: string;
  /** The signed authorization PDF, base64. */
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
