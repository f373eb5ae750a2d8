/** The tests' FA(3) oracle: the run-time XSD check (xsd.ts) with the schema from shared/conformance. */
import { oracleFiles } from '../../conformance/official-validators';
import { FA3_XSD, validateFa3, validateFa3Many } from '../xsd';

export const fa3Oracle = (xml: string) => validateFa3(xml, oracleFiles(FA3_XSD));
export const fa3OracleMany = (xmls: readonly string[]) => validateFa3Many(xmls, oracleFiles(FA3_XSD));
