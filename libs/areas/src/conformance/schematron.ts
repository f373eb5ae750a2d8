/**
 * Schematron with SaxonJS over the official stylesheets compiled to SEF (shared/conformance/<set>/sef),
 * loaded on the first run only: an app whose official checks are off never loads it (runtime.ts).
 */
import { all, parseXml, textAt } from '../shared/xml-read';

/** One failed Schematron assert, as SVRL reports it. */
export interface SchematronFailure {
  /** Official rule id, e.g. `BR-CO-10`, `PEPPOL-EN16931-R003`, `BR-105-GST-SG`. */
  readonly id: string;
  /** `fatal`, `error` or `warning`. */
  readonly flag: string;
  readonly location: string;
  readonly text: string;
}

// saxon-js ships no type declarations.
type Saxon = { transform(options: Record<string, unknown>, mode: 'sync'): { principalResult: string } };
let saxon: Saxon | undefined;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- on demand: SaxonJS is large
const engine = (): Saxon => (saxon ??= require('saxon-js') as Saxon);

const SVRL = 'http://purl.oclc.org/dsdl/svrl';

/** Collects `svrl:failed-assert` elements from an SVRL report. */
export function parseSvrl(svrl: string): SchematronFailure[] {
  return all(parseXml(svrl), [SVRL, 'failed-assert']).map((failed) => ({
    id: failed.attrs.id ?? '',
    flag: failed.attrs.flag ?? '',
    location: failed.attrs.location ?? '',
    text: textAt(failed, [SVRL, 'text']) ?? '',
  }));
}

/**
 * Parsed SEF stylesheets, by their text: parsing costs most of a first run (0.1–0.6 s). JSON.parse here
 * rather than SaxonJS.getResource: under Jest's VM realm the latter's objects fail SaxonJS's own format
 * check ("Supplied SEF does not have correct format").
 */
const parsed = new Map<string, unknown>();

/** Runs each stylesheet (SEF JSON text) on the document; every failed assert (any flag). */
export function runStylesheets(sefTexts: readonly string[], xml: string): SchematronFailure[] {
  const failures: SchematronFailure[] = [];
  for (const text of sefTexts) {
    let stylesheetInternal = parsed.get(text);
    if (!stylesheetInternal) parsed.set(text, (stylesheetInternal = JSON.parse(text)));
    const out = engine().transform({ stylesheetInternal, sourceText: xml, destination: 'serialized' }, 'sync');
    failures.push(...parseSvrl(out.principalResult));
  }
  return failures;
}

/** Failures that reject a document: flag `fatal` or `error`. */
export function blocking(failures: readonly SchematronFailure[]): SchematronFailure[] {
  return failures.filter((f) => f.flag === 'fatal' || f.flag === 'error');
}
