/**
 * The Peppol identifiers a document travels under, read from the document itself (Peppol Policy for use
 * of Identifiers 4.x, §3–4): document type `<root namespace>::<root>##<CustomizationID>::<version>` under
 * `busdox-docid-qns` (PINT, whose receivers register wildcards, under `peppol-doctype-wildcard`, as
 * peppol-participants/document-types.ts registers them), process `<ProfileID>` under `cenbii-procid-ubl`.
 * A scan of the text, not a parse: the delivery worker asks it of every document it transmits.
 */

/** The TSR and EUSR specifications' own identifiers (TSR 1.0.2 and EUSR 1.1.1, chapter 7 "Specification Identifiers"). */
export const REPORTING_SPECIFICATIONS = {
  tsr: {
    namespace: 'urn:fdc:peppol:transaction-statistics-report:1.0',
    root: 'TransactionStatisticsReport',
    customizationId: 'urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0',
    documentTypeId: 'busdox-docid-qns::urn:fdc:peppol:transaction-statistics-report:1.0::TransactionStatisticsReport##urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0::1.0',
  },
  eusr: {
    namespace: 'urn:fdc:peppol:end-user-statistics-report:1.1',
    root: 'EndUserStatisticsReport',
    customizationId: 'urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1',
    documentTypeId: 'busdox-docid-qns::urn:fdc:peppol:end-user-statistics-report:1.1::EndUserStatisticsReport##urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1::1.1',
  },
  /** The ProfileID of both, and their process identifier. */
  profileId: 'urn:fdc:peppol.eu:edec:bis:reporting:1.0',
  processId: 'cenbii-procid-ubl::urn:fdc:peppol.eu:edec:bis:reporting:1.0',
} as const;

/** Identifiers of a Peppol document: both as `scheme::value`. */
export interface PeppolDocumentIds {
  readonly documentTypeId: string;
  readonly processId: string;
}

const ROOT = /<(?:([A-Za-z_][\w.-]*):)?([A-Za-z_][\w.-]*)((?:\s[^>]*)?)>/g;
const child = (name: string) => new RegExp(`<(?:[A-Za-z_][\\w.-]*:)?${name}(?:\\s[^>]*)?>\\s*([^<]*?)\\s*</`);
const CUSTOMIZATION_ID = child('CustomizationID');
const PROFILE_ID = child('ProfileID');
const UBL_VERSION_ID = child('UBLVersionID');

/** The root element: its local name and namespace (its own prefix's declaration). */
function rootOf(xml: string): { name: string; ns: string } | undefined {
  ROOT.lastIndex = 0;
  for (let match = ROOT.exec(xml); match; match = ROOT.exec(xml)) {
    // The XML declaration, comments and processing instructions are not elements.
    if (match[0].startsWith('<?') || match[0].startsWith('<!')) continue;
    const [, prefix, name, attributes] = match;
    const declaration = new RegExp(`\\sxmlns${prefix ? `:${prefix}` : ''}\\s*=\\s*["']([^"']*)["']`).exec(attributes);
    return { name, ns: declaration?.[1] ?? '' };
  }
  return undefined;
}

/**
 * The document type and process a document is sent under; undefined when it names no CustomizationID
 * or ProfileID (not a Peppol business document).
 */
export function peppolDocumentIds(xml: string): PeppolDocumentIds | undefined {
  const root = rootOf(xml);
  if (!root) return undefined;
  for (const spec of [REPORTING_SPECIFICATIONS.tsr, REPORTING_SPECIFICATIONS.eusr]) {
    if (root.ns === spec.namespace && root.name === spec.root) return { documentTypeId: spec.documentTypeId, processId: REPORTING_SPECIFICATIONS.processId };
  }
  const customizationId = CUSTOMIZATION_ID.exec(xml)?.[1];
  const profileId = PROFILE_ID.exec(xml)?.[1];
  if (!customizationId || !profileId) return undefined;
  const scheme = customizationId.startsWith('urn:peppol:pint:') ? 'peppol-doctype-wildcard' : 'busdox-docid-qns';
  const version = UBL_VERSION_ID.exec(xml)?.[1] || '2.1';
  return { documentTypeId: `${scheme}::${root.ns}::${root.name}##${customizationId}::${version}`, processId: `cenbii-procid-ubl::${profileId}` };
}

/** `scheme::value` split at its first `::` (the value holds more). */
export function splitIdentifier(id: string): { scheme: string; value: string } {
  const at = id.indexOf('::');
  return at < 0 ? { scheme: '', value: id } : { scheme: id.slice(0, at), value: id.slice(at + 2) };
}

/** True for the TSR and EUSR themselves, which neither report counts (TSR 1.0.2 and EUSR 1.1.1 §2 "Data Gathering"). */
export const isStatisticsReport = (documentTypeId: string): boolean =>
  documentTypeId === REPORTING_SPECIFICATIONS.tsr.documentTypeId || documentTypeId === REPORTING_SPECIFICATIONS.eusr.documentTypeId;

const SELLER_COUNTRY = /<(?:[A-Za-z_][\w.-]*:)?AccountingSupplierParty\b[\s\S]*?<(?:[A-Za-z_][\w.-]*:)?Country\b[^>]*>\s*<(?:[A-Za-z_][\w.-]*:)?IdentificationCode\b[^>]*>\s*([A-Z]{2})\s*</;

/** The seller's country in a UBL document (BT-40), for a document whose C1 country was not recorded. */
export function sellerCountryOf(xml: string): string | undefined {
  return SELLER_COUNTRY.exec(xml)?.[1];
}
