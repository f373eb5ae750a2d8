/**
 * Document types a participant hosted here receives, as SMP document type ids with their
 * process (Peppol Policy for use of identifiers 4.x; BIS Billing 3.0 and PINT SG as the
 * BE/DE/SG area renders them, libs/areas/src/peppol/README.md). Kept as data.
 */

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

const BIS_BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const BIS_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const PINT_SG = 'urn:peppol:pint:billing-1@sg-1';
const PINT_PROCESS = 'urn:peppol:bis:billing';

export const receivableDocumentTypes: readonly ReceivableDocumentType[] = [
  { scheme: 'busdox-docid-qns', value: `urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##${BIS_BILLING}::2.1`,
    processScheme: 'cenbii-procid-ubl', processId: BIS_PROCESS, name: 'Peppol BIS Billing 3.0 Invoice' },
  { scheme: 'busdox-docid-qns', value: `urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##${BIS_BILLING}::2.1`,
    processScheme: 'cenbii-procid-ubl', processId: BIS_PROCESS, name: 'Peppol BIS Billing 3.0 Credit Note' },
  { scheme: 'peppol-doctype-wildcard', value: `urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##${PINT_SG}::2.1`,
    processScheme: 'cenbii-procid-ubl', processId: PINT_PROCESS, name: 'PINT SG Invoice' },
  { scheme: 'peppol-doctype-wildcard', value: `urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##${PINT_SG}::2.1`,
    processScheme: 'cenbii-procid-ubl', processId: PINT_PROCESS, name: 'PINT SG Credit Note' },
];

/** `scheme::value`, the form SMP URLs and `documentTypeId` use. */
export const fullDocumentTypeId = (t: ReceivableDocumentType): string => `${t.scheme}::${t.value}`;

/**
 * The receivable type named by `id`: the full `scheme::value`, or the bare value (then any
 * scheme). Exact match: Peppol document type ids are case-sensitive.
 */
export function findReceivableDocumentType(id: string): ReceivableDocumentType | undefined {
  return receivableDocumentTypes.find((t) => fullDocumentTypeId(t) === id || t.value === id);
}

/** The processes offered, shown as `MetadataProfileIds.ProfileId[]` in lookups. */
export const metadataProfileIds: readonly string[] = [...new Set(receivableDocumentTypes.map((t) => t.processId))];
