/**
 * Checks a `RegFactuSistemaFacturacion` message against the AEAT's own schemas
 * (shared/conformance/verifactu: SuministroLR.xsd, importing SuministroInformacion.xsd and the
 * XML-DSig schema) before it is sent: a message the AEAT refuses for its schema (4102) still
 * spends the records' place in the chain.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { conformanceDir } from '../conformance/location';

const FILES = ['SuministroLR.xsd', 'SuministroInformacion.xsd', 'xmldsig-core-schema.xsd'] as const;
let schemas: Array<{ fileName: string; contents: string }> | undefined;

function loadSchemas() {
  schemas ??= FILES.map((fileName) => ({ fileName, contents: fs.readFileSync(path.join(conformanceDir, 'verifactu', fileName), 'utf8') }));
  return schemas;
}

/** `valid`, or the schema's complaints (libxml2's messages). */
export async function validateSubmission(xml: string): Promise<{ readonly valid: boolean; readonly errors: readonly string[] }> {
  const [main, ...preload] = loadSchemas();
  const result = await validateXML({ xml: [{ fileName: 'submission.xml', contents: xml }], schema: [main], preload });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}
