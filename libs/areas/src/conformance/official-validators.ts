/**
 * The official oracle of the TESTS: runs the official artifacts in `shared/conformance/` (location.ts)
 * against rendered XML. The running service never uses it: its optional run-time checks read
 * CONFORMANCE_DIR at start (runtime.ts). The artifacts are read in place, never copied into the
 * repository (shared/conformance/README.md). DESIGN.md: the Schematron is the oracle, not the hot path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { rootNamed } from '../shared/xml-read';
import { conformanceDir } from './location';
import { type RuleSetName, ruleSets } from './rule-sets';
import type { OfficialCheck, OfficialFile } from './runtime';
import { type SchematronFailure, blocking, runStylesheets } from './schematron';
import { type XsdVerdict, validateManyAgainstXsd } from './xsd-engine';

export { conformanceDir, ruleSets, blocking };
export type { RuleSetName, SchematronFailure };
export { parseSvrl } from './schematron';

/** Result of one XSD validation. */
export type XsdResult = XsdVerdict;

const texts = new Map<string, string>();

/** A file of the oracle, read once per process. */
export function oracleText(relative: string): string {
  let text = texts.get(relative);
  if (text === undefined) texts.set(relative, (text = fs.readFileSync(path.join(conformanceDir, relative), 'utf8')));
  return text;
}

/** A run-time check's files as the oracle holds them (tests run the run-time checks against the oracle). */
export function oracleFiles(check: OfficialCheck): OfficialFile[] {
  return check.spec.files.map((fileName) => ({ fileName, contents: oracleText(path.posix.join(check.spec.folder, fileName)) }));
}

let commonXsds: OfficialFile[] | undefined;

function ublCommon(): OfficialFile[] {
  // Named `common/<file>` so the maindoc's `../common/...` imports resolve from `maindoc/`.
  commonXsds ??= fs.readdirSync(path.join(conformanceDir, 'ubl-2.1/common')).filter((f) => f.endsWith('.xsd'))
    .map((f) => ({ fileName: `common/${f}`, contents: oracleText(`ubl-2.1/common/${f}`) }));
  return commonXsds;
}

/** The schema a document goes to: CreditNote for a credit note, else Invoice (whose XSD reports what is wrong). */
const rootOf = (xml: string): 'Invoice' | 'CreditNote' => (rootNamed(xml, 'CreditNote') ? 'CreditNote' : 'Invoice');

/** Validates a UBL 2.1 Invoice or CreditNote against the OASIS XSD (root element decides). */
export async function validateUblXsd(xml: string): Promise<XsdResult> {
  const [result] = await validateUblXsdAll([xml]);
  return result;
}

/**
 * Validates many documents with one xmllint run per root element: loading the UBL schemas is most
 * of the cost of a run, so a test of hundreds of small documents pays it twice, not hundreds of times.
 */
export async function validateUblXsdAll(documents: readonly string[]): Promise<XsdResult[]> {
  const results: XsdResult[] = new Array(documents.length);
  for (const root of ['Invoice', 'CreditNote'] as const) {
    const indexes = documents.flatMap((xml, i) => (rootOf(xml) === root ? [i] : []));
    if (indexes.length === 0) continue;
    const name = `maindoc/UBL-${root}-2.1.xsd`;
    const schema = [{ fileName: name, contents: oracleText(`ubl-2.1/${name}`) }, ...ublCommon()];
    const verdicts = await validateManyAgainstXsd(schema, indexes.map((i) => documents[i]));
    indexes.forEach((i, k) => (results[i] = verdicts[k]));
  }
  return results;
}

/** Runs every stylesheet of a rule set; returns all failed asserts (any flag). */
export async function runSchematron(ruleSet: RuleSetName, xml: string): Promise<SchematronFailure[]> {
  return runStylesheets(ruleSets[ruleSet].map(oracleText), xml);
}

/** Both oracles at once, for test assertions and failure printouts. */
export async function validateOfficial(ruleSet: RuleSetName, xml: string): Promise<{ xsd: XsdResult; failures: SchematronFailure[] }> {
  const xsd = await validateUblXsd(xml);
  const failures = blocking(await runSchematron(ruleSet, xml));
  return { xsd, failures };
}
