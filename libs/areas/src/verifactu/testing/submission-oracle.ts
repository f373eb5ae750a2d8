/** The tests' VeriFactu oracle: the run-time XSD check (xsd.ts) with the AEAT's schemas from shared/conformance. */
import { oracleFiles } from '../../conformance/official-validators';
import { VERIFACTU_XSD, validateSubmission } from '../xsd';

export const submissionOracle = (xml: string) => validateSubmission(xml, oracleFiles(VERIFACTU_XSD));
