/**
 * XSD validation with xmllint-wasm (libxml2), loaded on the first validation only: an app whose
 * official checks are off never loads it (runtime.ts).
 */
import type { OfficialFile } from './runtime';

/** One document's verdict: `valid`, or libxml2's complaints. */
export interface XsdVerdict {
  readonly valid: boolean;
  readonly errors: readonly string[];
}

type XmllintWasm = typeof import('xmllint-wasm');
let xmllint: XmllintWasm | undefined;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- on demand: only when a check is on
const engine = (): XmllintWasm => (xmllint ??= require('xmllint-wasm') as XmllintWasm);

/** One document against a schema: its main file first, then the files it imports. */
export async function validateAgainstXsd(schema: readonly OfficialFile[], xml: string, fileName = 'document.xml'): Promise<XsdVerdict> {
  const [main, ...preload] = schema;
  const result = await engine().validateXML({ xml: [{ fileName, contents: xml }], schema: [main], preload });
  return { valid: result.valid, errors: result.errors.map((e) => e.rawMessage) };
}

/** Several documents in one run of the validator (one schema load): each document's own verdict. */
export async function validateManyAgainstXsd(schema: readonly OfficialFile[], xmls: readonly string[], prefix = 'document'): Promise<XsdVerdict[]> {
  if (!xmls.length) return [];
  const [main, ...preload] = schema;
  const files = xmls.map((contents, i) => ({ fileName: `${prefix}-${i}.xml`, contents }));
  const result = await engine().validateXML({ xml: files, schema: [main], preload });
  // An error is pinned on its file by its position, or by the file name it starts with ("document-1.xml
  // fails to validate"); one naming no file counts against every document.
  const named = (e: { readonly rawMessage: string }) => files.some((f) => e.rawMessage.startsWith(f.fileName));
  return files.map(({ fileName }) => {
    const errors = result.errors
      .filter((e) => (e.loc ? e.loc.fileName === fileName : e.rawMessage.startsWith(fileName) || !named(e)))
      .map((e) => e.rawMessage);
    return { valid: result.valid || errors.length === 0, errors };
  });
}
