/**
 * The official oracle: runs the official artifacts in `shared/conformance/` against rendered XML.
 * Tests use it; in production only the UAE area's `UAE_OFFICIAL_SCHEMATRON=true` does
 * (`@einvoice/areas/conformance`, loaded on demand). The artifacts are read in place, never copied into the repository
 * (shared/conformance/README.md). DESIGN.md: the Schematron is the oracle, not the hot path.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { validateXML } from 'xmllint-wasm';
// saxon-js ships no type declarations.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SaxonJS = require('saxon-js') as {
  transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: string };
};

import { conformanceDir } from './location';

export { conformanceDir };

/** One failed Schematron assert, as SVRL reports it. */
export interface SchematronFailure {
  /** Official rule id, e.g. `BR-CO-10`, `PEPPOL-EN16931-R003`, `BR-105-GST-SG`. */
  readonly id: string;
  /** `fatal`, `error` or `warning`. */
  readonly flag: string;
  readonly location: string;
  readonly text: string;
}

/** Result of one XSD validation. */
export interface XsdResult {
  readonly valid: boolean;
  readonly errors: readonly string[];
}

/** Official rule sets by name; each lists the SEF files a document must pass. */
export const ruleSets = {
  'peppol-bis-3': ['peppol-bis-3/2026.5/sef/CEN-EN16931-UBL.sef.json', 'peppol-bis-3/2026.5/sef/PEPPOL-EN16931-UBL.sef.json'],
  'pint-sg': ['pint-sg/1.4.1/sef/PINT-UBL-validation-preprocessed.sef.json', 'pint-sg/1.4.1/sef/PINT-jurisdiction-aligned-rules.sef.json'],
  'pint-ae:billing:2026.5': [
    'pint-ae/2026.5/sef/billing/PINT-UBL-validation-preprocessed.sef.json',
    'pint-ae/2026.5/sef/billing/PINT-jurisdiction-aligned-rules.sef.json',
  ],
  'pint-ae:selfbilling:2026.5': [
    'pint-ae/2026.5/sef/selfbilling/PINT-UBL-validation-preprocessed.sef.json',
    'pint-ae/2026.5/sef/selfbilling/PINT-jurisdiction-aligned-rules.sef.json',
  ],
} as const;

export type RuleSetName = keyof typeof ruleSets;

let commonXsds: { fileName: string; contents: string }[] | undefined;

function ublCommon(): { fileName: string; contents: string }[] {
  if (!commonXsds) {
    const dir = path.join(conformanceDir, 'ubl-2.1/common');
    // Named `common/<file>` so the maindoc's `../common/...` imports resolve from `maindoc/`.
    commonXsds = fs.readdirSync(dir).filter((f) => f.endsWith('.xsd'))
      .map((f) => ({ fileName: `common/${f}`, contents: fs.readFileSync(path.join(dir, f), 'utf8') }));
  }
  return commonXsds;
}

const mainXsds = new Map<string, string>();

function mainXsd(root: 'Invoice' | 'CreditNote'): { fileName: string; contents: string } {
  const fileName = `maindoc/UBL-${root}-2.1.xsd`;
  let contents = mainXsds.get(fileName);
  if (contents === undefined) {
    contents = fs.readFileSync(path.join(conformanceDir, 'ubl-2.1', fileName), 'utf8');
    mainXsds.set(fileName, contents);
  }
  return { fileName, contents };
}

const rootOf = (xml: string): 'Invoice' | 'CreditNote' =>
  (/<(?:\w+:)?CreditNote[\s>]/.test(xml.slice(0, 2000)) ? 'CreditNote' : 'Invoice');

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
  const errors: string[][] = documents.map(() => []);
  const fileName = (i: number) => `document-${i}.xml`;
  for (const root of ['Invoice', 'CreditNote'] as const) {
    const indexes = documents.flatMap((xml, i) => (rootOf(xml) === root ? [i] : []));
    if (indexes.length === 0) continue;
    const xml = indexes.map((i) => ({ fileName: fileName(i), contents: documents[i] }));
    const result = await validateXML({ xml, schema: [mainXsd(root)], preload: ublCommon() });
    for (const e of result.errors) {
      // `document-3.xml fails to validate` has a file but no line (so no loc); an error naming no
      // document (in the schema itself) belongs to every document of the run.
      const named = e.loc?.fileName ?? /^(document-\d+\.xml)\b/.exec(e.rawMessage)?.[1];
      for (const i of indexes) if (named === undefined || named === fileName(i)) errors[i].push(e.rawMessage);
    }
    if (!result.valid && result.errors.length === 0) for (const i of indexes) errors[i].push(result.rawOutput);
  }
  return errors.map((e) => ({ valid: e.length === 0, errors: e }));
}

const sefCache = new Map<string, unknown>();

/**
 * Parsed once per process: a transform from the file costs 0.1–0.6 s mostly in loading.
 * JSON.parse here rather than SaxonJS.getResource: under Jest's VM realm the latter's objects
 * fail SaxonJS's own format check ("Supplied SEF does not have correct format").
 */
function loadSef(relative: string): unknown {
  let sef = sefCache.get(relative);
  if (!sef) {
    sef = JSON.parse(fs.readFileSync(path.join(conformanceDir, relative), 'utf8'));
    sefCache.set(relative, sef);
  }
  return sef;
}

function attr(tag: string, name: string): string {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '';
}

/** Collects `svrl:failed-assert` elements from an SVRL report. */
export function parseSvrl(svrl: string): SchematronFailure[] {
  const failures: SchematronFailure[] = [];
  const re = /<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g;
  for (let m = re.exec(svrl); m; m = re.exec(svrl)) {
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(m[2])?.[1]?.trim() ?? '';
    failures.push({ id: attr(m[1], 'id'), flag: attr(m[1], 'flag'), location: attr(m[1], 'location'), text });
  }
  return failures;
}

/** Runs every stylesheet of a rule set; returns all failed asserts (any flag). */
export async function runSchematron(ruleSet: RuleSetName, xml: string): Promise<SchematronFailure[]> {
  const failures: SchematronFailure[] = [];
  for (const sefFile of ruleSets[ruleSet]) {
    const stylesheetInternal = loadSef(sefFile);
    const out = SaxonJS.transform({ stylesheetInternal, sourceText: xml, destination: 'serialized' }, 'sync');
    failures.push(...parseSvrl(out.principalResult));
  }
  return failures;
}

/** Failures that reject a document: flag `fatal` or `error`. */
export function blocking(failures: readonly SchematronFailure[]): SchematronFailure[] {
  return failures.filter((f) => f.flag === 'fatal' || f.flag === 'error');
}

/** Both oracles at once, for test assertions and failure printouts. */
export async function validateOfficial(ruleSet: RuleSetName, xml: string): Promise<{ xsd: XsdResult; failures: SchematronFailure[] }> {
  const xsd = await validateUblXsd(xml);
  const failures = blocking(await runSchematron(ruleSet, xml));
  return { xsd, failures };
}
