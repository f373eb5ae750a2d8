/**
 * Checks FA(3) XML against the Ministry's schema (shared/conformance/ksef/FA: schemat_FA(3)_v1-0E.xsd
 * and the base types it imports from `bazowe/`), as KSeF does before it takes an invoice.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { conformanceDir } from '../conformance/location';

const MAIN = 'schemat_FA(3)_v1-0E.xsd';
const BASE = ['bazowe/StrukturyDanych_v10-0E.xsd', 'bazowe/ElementarneTypyDanych_v10-0E.xsd', 'bazowe/KodyKrajow_v10-0E.xsd'];
let schemas: Array<{ fileName: string; contents: string }> | undefined;

function loadSchemas() {
  schemas ??= [MAIN, ...BASE].map((fileName) => ({ fileName, contents: fs.readFileSync(path.join(conformanceDir, 'ksef', 'FA', fileName), 'utf8') }));
  return schemas;
}

export async function validateFa3(xml: string): Promise<{ readonly valid: boolean; readonly errors: readonly string[] }> {
  const [main, ...preload] = loadSchemas();
  const result = await validateXML({ xml: [{ fileName: 'invoice.xml', contents: xml }], schema: [main], preload });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}

/** Several invoices in one run of the validator (one schema load): each invoice's own verdict. */
export async function validateFa3Many(xmls: readonly string[]): Promise<Array<{ readonly valid: boolean; readonly errors: readonly string[] }>> {
  if (!xmls.length) return [];
  const [main, ...preload] = loadSchemas();
  const files = xmls.map((contents, i) => ({ fileName: `invoice-${i}.xml`, contents }));
  const result = await validateXML({ xml: files, schema: [main], preload });
  return files.map(({ fileName }) => {
    // An error is pinned on its file by its position, or by the file name it starts with ("invoice-1.xml
    // fails to validate"); one naming no file counts against every invoice.
    const named = (e: { readonly rawMessage: string }) => files.some((f) => e.rawMessage.startsWith(f.fileName));
    const errors = result.errors
      .filter((e) => (e.loc ? e.loc.fileName === fileName : e.rawMessage.startsWith(fileName) || !named(e)))
      .map((e) => e.rawMessage);
    return { valid: result.valid || errors.length === 0, errors };
  });
}
