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
