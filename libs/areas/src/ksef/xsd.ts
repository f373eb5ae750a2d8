/**
 * FA(3) XML against the Ministry's schema (CONFORMANCE_DIR/ksef/FA: schemat_FA(3)_v1-0E.xsd and the
 * base types it imports from `bazowe/`), as KSeF does before it takes an invoice. At run time an
 * optional check (on when CONFORMANCE_DIR is set, conformance/runtime.ts) over the project's own
 * (fa3-check.ts); in tests the oracle (testing/fa3-oracle.ts).
 */
import { type OfficialFile, declareOfficialCheck } from '../conformance/runtime';
import { type XsdVerdict, validateAgainstXsd, validateManyAgainstXsd } from '../conformance/xsd-engine';

/** The Ministry's FA(3) schema, main file first. */
export const FA3_XSD = declareOfficialCheck({
  name: 'KSeF FA(3) XSD',
  folder: 'ksef/FA',
  files: ['schemat_FA(3)_v1-0E.xsd', 'bazowe/StrukturyDanych_v10-0E.xsd', 'bazowe/ElementarneTypyDanych_v10-0E.xsd', 'bazowe/KodyKrajow_v10-0E.xsd'],
});

export function validateFa3(xml: string, schema: readonly OfficialFile[]): Promise<XsdVerdict> {
  return validateAgainstXsd(schema, xml, 'invoice.xml');
}

/** Several invoices in one run of the validator (one schema load): each invoice's own verdict. */
export function validateFa3Many(xmls: readonly string[], schema: readonly OfficialFile[]): Promise<XsdVerdict[]> {
  return validateManyAgainstXsd(schema, xmls, 'invoice');
}
