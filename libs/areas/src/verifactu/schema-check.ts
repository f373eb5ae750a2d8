/**
 * What stands between a `RegFactuSistemaFacturacion` message and the AEAT's schema: the project's own
 * structural check (submission-check.ts), always, and the AEAT's XSD when CONFORMANCE_DIR turned it on
 * at start (xsd.ts). The AEAT refuses such a message whole (4102).
 */
import { submissionProblems } from './submission-check';
import { VERIFACTU_XSD, validateSubmission } from './xsd';

/** Every problem found; none: the message may go. */
export async function schemaProblems(xml: string): Promise<string[]> {
  const own = submissionProblems(xml);
  const schema = VERIFACTU_XSD.files();
  if (!schema) return own;
  const official = await validateSubmission(xml, schema);
  return [...own, ...(official.valid ? [] : official.errors)];
}
