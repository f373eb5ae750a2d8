/**
 * Document types a participant hosted here receives, as SMP document type ids with their
 * process (Peppol Policy for use of identifiers 4.x: BIS as `busdox-docid-qns`, PINT as
 * `peppol-doctype-wildcard`, value `<root namespace>::<root>##<CustomizationID>::2.1`). What a
 * participant receives follows its identifier scheme: ICD 0230 (the Malaysian TIN, PINT MY's
 * EndpointID scheme) is a Malaysian taxpayer, served the PINT MY types the Malaysian area sends
 * (libs/areas/src/myinvois/README.md "PINT MY"); ICD 0235 (the UAE TIN) a UAE participant, served
 * PINT AE billing and self-billing (libs/areas/src/uae/README.md); every other scheme is a BE/DE/SG participant,
 * served BIS Billing 3.0 and PINT SG as that area renders them (libs/areas/src/peppol/README.md).
 * Kept as data.
 */
import { PARTICIPANT_ID_SCHEME, PINT_MY_ENDPOINT_SCHEME } from './participant-schemes';

/** One receivable document type. */
export interface ReceivableDocumentType {
  /** Document type identifier scheme. */
  readonly scheme: 'busdox-docid-qns' | 'peppol-doctype-wildcard';
  /** Document type identifier value (root namespace ## customization ID :: UBL version). */
  readonly value: string;
  readonly processScheme: 'cenbii-procid-ubl';
  readonly processId: string;
  readonly name: string;
}

const INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice';
const CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote';
const BIS_BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const BIS_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const PINT_SG = 'urn:peppol:pint:billing-1@sg-1';
const PINT_PROCESS = 'urn:peppol:bis:billing';

/** A PINT Invoice and Credit Note of one specification (both roots carry the same CustomizationID). */
const pintPair = (customizationId: string, processId: string, name: string): ReceivableDocumentType[] => [
  { scheme: 'peppol-doctype-wildcard', value: `${INVOICE}##${customizationId}::2.1`, processScheme: 'cenbii-procid-ubl', processId, name: `${name} Invoice` },
  { scheme: 'peppol-doctype-wildcard', value: `${CREDIT_NOTE}##${customizationId}::2.1`, processScheme: 'cenbii-procid-ubl', processId, name: `${name} Credit Note` },
];

/** What a BE/DE/SG participant receives. */
export const peppolAreaDocumentTypes: readonly ReceivableDocumentType[] = [
  { scheme: 'busdox-docid-qns', value: `${INVOICE}##${BIS_BILLING}::2.1`, processScheme: 'cenbii-procid-ubl', processId: BIS_PROCESS, name: 'Peppol BIS Billing 3.0 Invoice' },
  { scheme: 'busdox-docid-qns', value: `${CREDIT_NOTE}##${BIS_BILLING}::2.1`, processScheme: 'cenbii-procid-ubl', processId: BIS_PROCESS, name: 'Peppol BIS Billing 3.0 Credit Note' },
  ...pintPair(PINT_SG, PINT_PROCESS, 'PINT SG'),
];

/** PINT MY specification and process identifiers (ibt-024, ibt-023; aligned-ibrp-001-my, aligned-ibrp-002). */
export const pintMyIds = {
  billing: { customizationId: 'urn:peppol:pint:billing-1@my-1', profileId: 'urn:peppol:bis:billing' },
  selfbilling: { customizationId: 'urn:peppol:pint:selfbilling-1@my-1', profileId: 'urn:peppol:bis:selfbilling' },
} as const;

/**
 * What a Malaysian participant (ICD 0230) receives: PINT MY 1.3.1 billing and self-billing
 * (CustomizationID / ProfileID of the official examples, shared/conformance/pint-my/1.3.1). Both,
 * because a Malaysian supplier here sends its self-billed documents to the seller over Peppol.
 */
export const pintMyDocumentTypes: readonly ReceivableDocumentType[] = [
  ...pintPair(pintMyIds.billing.customizationId, pintMyIds.billing.profileId, 'PINT MY'),
  ...pintPair(pintMyIds.selfbilling.customizationId, pintMyIds.selfbilling.profileId, 'PINT MY self-billing'),
];

/**
 * What a UAE participant (ICD 0235) receives: PINT AE 2026.5 billing and self-billing
 * (CustomizationID / ProfileID of the official examples, shared/conformance/pint-ae/2026.5).
 */
export const pintAeDocumentTypes: readonly ReceivableDocumentType[] = [
  ...pintPair('urn:peppol:pint:billing-1@ae-1', 'urn:peppol:bis:billing', 'PINT AE'),
  ...pintPair('urn:peppol:pint:selfbilling-1@ae-1', 'urn:peppol:bis:selfbilling', 'PINT AE self-billing'),
];

/**
 * What an access point's own participant (ICD 0242, the OpenPeppol service provider id `0242:000123`)
 * receives: the Message Level Status (MLS 1.0 §4: every service provider receives MLS, addressed to its
 * service provider id; the same ids as `MLS_DOCUMENT_TYPE_ID` / `MLS_PROCESS_ID` in peppol-ubl/mls.ts,
 * kept here as data because peppol-ubl reads this module, not the other way round).
 */
export const serviceProviderDocumentTypes: readonly ReceivableDocumentType[] = [
  {
    scheme: 'busdox-docid-qns', value: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:peppol:edec:mls:1.0::2.1',
    processScheme: 'cenbii-procid-ubl', processId: 'urn:peppol:edec:mls', name: 'Peppol Message Level Status 1.0',
  },
];

/** OpenPeppol Service Provider Identification Scheme: an access point's id is `0242:<seat number>`. */
export const SERVICE_PROVIDER_ICD = '0242';

/** Identifier schemes (ICD) whose participants receive a national PINT or the MLS; any other scheme gets BIS 3.0 and PINT SG. */
const documentTypesByScheme: Readonly<Record<string, readonly ReceivableDocumentType[]>> = {
  [PINT_MY_ENDPOINT_SCHEME]: pintMyDocumentTypes,
  '0235': pintAeDocumentTypes,
  [SERVICE_PROVIDER_ICD]: serviceProviderDocumentTypes,
};

/** The document types served for a participant id (canonical form, as stored). */
export function receivableDocumentTypesOf(participantId: string): readonly ReceivableDocumentType[] {
  const icd = /^[^:]+::([^:]+):/.exec(participantId)?.[1];
  return (icd && participantId.startsWith(`${PARTICIPANT_ID_SCHEME}::`) && documentTypesByScheme[icd]) || peppolAreaDocumentTypes;
}

/** `scheme::value`, the form SMP URLs and `documentTypeId` use. */
export const fullDocumentTypeId = (t: ReceivableDocumentType): string => `${t.scheme}::${t.value}`;

/**
 * The type named by `id` among those the participant receives: the full `scheme::value`, or the
 * bare value (then any scheme). Exact match: Peppol document type ids are case-sensitive.
 */
export function findReceivableDocumentType(participantId: string, id: string): ReceivableDocumentType | undefined {
  return receivableDocumentTypesOf(participantId).find((t) => fullDocumentTypeId(t) === id || t.value === id);
}

/** The processes offered to a participant, shown as `MetadataProfileIds.ProfileId[]` in lookups. */
export function metadataProfileIdsOf(participantId: string): readonly string[] {
  return [...new Set(receivableDocumentTypesOf(participantId).map((t) => t.processId))];
}
