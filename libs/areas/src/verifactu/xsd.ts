/**
 * A `RegFactuSistemaFacturacion` message against the AEAT's own schemas (CONFORMANCE_DIR/verifactu:
 * SuministroLR.xsd, importing SuministroInformacion.xsd and the XML-DSig schema): a message the AEAT
 * refuses for its schema (4102) still spends the records' place in the chain. At run time an optional
 * check (on when CONFORMANCE_DIR is set, conformance/runtime.ts) over the project's own
 * (submission-check.ts); in tests the oracle (testing/submission-oracle.ts).
 */
import { type OfficialFile, declareOfficialCheck } from '../conformance/runtime';
import { type XsdVerdict, validateAgainstXsd } from '../conformance/xsd-engine';

/** The AEAT's schemas, main file first. */
export const VERIFACTU_XSD = declareOfficialCheck({
  name: 'VeriFactu SuministroLR XSD',
  folder: 'verifactu',
  files: ['SuministroLR.xsd', 'SuministroInformacion.xsd', 'xmldsig-core-schema.xsd'],
});

/** `valid`, or the schema's complaints (libxml2's messages). */
export function validateSubmission(xml: string, schema: readonly OfficialFile[]): Promise<XsdVerdict> {
  return validateAgainstXsd(schema, xml, 'submission.xml');
}
