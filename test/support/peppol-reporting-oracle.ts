/**
 * The official validation of Peppol Reporting documents (#46), the tests' oracle: the XSD and the
 * Schematron OpenPeppol publishes for TSR and EUSR, from Maven Central (infra/peppol-reporting/pom.xml,
 * fetched and unpacked on first use, cached under infra/peppol-reporting/libs, never committed).
 *
 * The XSD runs in the project's XSD engine (xmllint-wasm). The Schematron is ISO Schematron bound to
 * XSLT 2 with its own `xsl:function` and `xsl:key`: SaxonJS runs compiled stylesheets (SEF) only, and
 * compiling one needs the `xslt3` package, which the project does not have; so SchXslt compiles the
 * .sch to XSLT 2 and Saxon-HE (Java, the machine's JDK, as the Kafka broker's) runs it, SVRL out, read
 * by the project's own SVRL reader.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SchematronFailure, parseSvrl } from '@einvoice/areas/conformance';
import { validateAgainstXsd } from '../../libs/areas/src/conformance/xsd-engine';

const DIR = path.resolve(__dirname, '..', '..', 'infra', 'peppol-reporting');
const LIBS = path.join(DIR, 'libs');
const JARS = ['peppol-reporting-datatypes.jar', 'peppol-reporting.jar', 'schxslt.jar', 'Saxon-HE.jar'];

/** The official files of each report, by the names they carry in the jars. */
const FILES = {
  tsr: { xsd: 'external/schemas/peppol-transaction-statistics-reporting-1.0.1.xsd', sch: 'external/schematron/peppol-transaction-statistics-reporting-1.0.5.sch' },
  eusr: { xsd: 'external/schemas/peppol-end-user-statistics-reporting-1.1.xsd', sch: 'external/schematron/peppol-end-user-statistics-reporting-1.1.5.sch' },
} as const;

export type ReportKind = keyof typeof FILES;

/** What the official artefacts say of one document. */
export interface OfficialVerdict {
  readonly xsdErrors: readonly string[];
  /** Every failed assert (the reporting Schematron's are all `fatal`). */
  readonly schematron: readonly SchematronFailure[];
}

function run(command: string, args: readonly string[], cwd = DIR): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not run: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return result.stdout;
}

let ready: { readonly saxon: string; readonly stylesheets: Record<ReportKind, string> } | undefined;

/** Fetches the jars (once), unpacks the official files and compiles each Schematron to XSLT (once). */
function prepare(): NonNullable<typeof ready> {
  if (ready) return ready;
  if (!JARS.every((jar) => existsSync(path.join(LIBS, jar)))) run('mvn', ['-B', '-q', 'package']);
  const unpacked = path.join(LIBS, 'unpacked');
  if (!existsSync(path.join(unpacked, FILES.eusr.sch))) {
    mkdirSync(unpacked, { recursive: true });
    run('unzip', ['-o', '-q', path.join(LIBS, 'peppol-reporting-datatypes.jar'), 'external/*', '-d', unpacked]);
    run('unzip', ['-o', '-q', path.join(LIBS, 'peppol-reporting.jar'), 'external/*', '-d', unpacked]);
    run('unzip', ['-o', '-q', path.join(LIBS, 'schxslt.jar'), 'xslt/*', '-d', unpacked]);
  }
  const saxon = path.join(LIBS, 'Saxon-HE.jar');
  const stylesheets = {} as Record<ReportKind, string>;
  for (const kind of Object.keys(FILES) as ReportKind[]) {
    const xsl = path.join(LIBS, `${kind}.xsl`);
    if (!existsSync(xsl)) {
      run('java', ['-cp', saxon, 'net.sf.saxon.Transform', `-xsl:${path.join(unpacked, 'xslt/2.0/pipeline-for-svrl.xsl')}`, `-s:${path.join(unpacked, FILES[kind].sch)}`, `-o:${xsl}`]);
    }
    stylesheets[kind] = xsl;
  }
  return (ready = { saxon, stylesheets });
}

/** The official file's text (XSD or Schematron), as the jars hold it. */
export function officialReportingFile(kind: ReportKind, which: 'xsd' | 'sch'): string {
  prepare();
  return readFileSync(path.join(LIBS, 'unpacked', FILES[kind][which]), 'utf8');
}

/** Runs the official XSD and Schematron of `kind` on `xml`. */
export async function validateReport(kind: ReportKind, xml: string): Promise<OfficialVerdict> {
  const { saxon, stylesheets } = prepare();
  const xsd = await validateAgainstXsd([{ fileName: path.basename(FILES[kind].xsd), contents: officialReportingFile(kind, 'xsd') }], xml, `${kind}.xml`);
  const folder = mkdtempSync(path.join(tmpdir(), 'peppol-report-'));
  try {
    const file = path.join(folder, `${kind}.xml`);
    writeFileSync(file, xml);
    const svrl = run('java', ['-cp', saxon, 'net.sf.saxon.Transform', `-xsl:${stylesheets[kind]}`, `-s:${file}`]);
    return { xsdErrors: xsd.errors, schematron: parseSvrl(svrl) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
