/** Namespaces of the UBL family and of the Peppol documents this connector reads and writes. */
export const NS = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cec: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  applicationResponse: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
  /** The Peppol TDD (AE TDD Schematron 1.0: `pxs`). */
  pxs: 'urn:peppol:schema:taxdata:1.0',
} as const;
