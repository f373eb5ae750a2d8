/**
 * Every official PINT AE 2026.5 example (shared/conformance/pint-ae/2026.5/examples), expressed as
 * a JSON request in fixtures/ (one per example, written from the XML), goes through phase 1 and the
 * renderer, and the UBL must pass the UBL 2.1 XSD and both Schematron stylesheets of its
 * specification (billing or self-billing). The official artifacts are the oracle.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conformanceDir, validateOfficial, type RuleSetName } from '../conformance/official-validators';
import { parseUaeDocument } from './document';
import { renderUae, type UaeIssuer } from './render';

jest.setTimeout(300_000);

interface Fixture {
  /** The official example, relative to pint-ae/2026.5/examples. */
  readonly example: string;
  /** The issuing participant as registered. */
  readonly issuer: UaeIssuer;
  readonly request: Record<string, unknown>;
}

const examplesDir = path.join(conformanceDir, 'pint-ae/2026.5/examples');
const fixturesDir = path.join(__dirname, 'fixtures');
const fixtures: [string, Fixture][] = fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).sort()
  .map((f) => [f, JSON.parse(fs.readFileSync(path.join(fixturesDir, f), 'utf8')) as Fixture]);

function officialExamples(dir = examplesDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? officialExamples(path.join(dir, e.name)) : e.name.endsWith('.xml') ? [path.relative(examplesDir, path.join(dir, e.name))] : []));
}

describe('PINT AE 2026.5 official examples as JSON requests', () => {
  it('given the official examples, when the fixtures are listed, then every example has exactly one fixture', () => {
    expect(fixtures.map(([, f]) => f.example).sort()).toEqual(officialExamples().sort());
  });

  it.each(fixtures)('given %s, when parsed and rendered, then the UBL XSD and both PINT AE stylesheets report no error', async (_file, fixture) => {
    const parsed = parseUaeDocument(fixture.request);
    expect('issues' in parsed ? parsed.issues : []).toEqual([]);
    if (!('document' in parsed)) return;
    const rendered = renderUae(parsed.document, fixture.issuer, { uuid: '4b6000ca-0128-4bdc-99a6-406f2909247f' });
    const ruleSet: RuleSetName = rendered.customizationId.includes('selfbilling') ? 'pint-ae:selfbilling:2026.5' : 'pint-ae:billing:2026.5';
    expect(fixture.example.startsWith('selfbilling/')).toBe(ruleSet === 'pint-ae:selfbilling:2026.5');
    const { xsd, failures } = await validateOfficial(ruleSet, rendered.xml);
    const report = [...xsd.errors, ...failures.map((f) => `${f.id} [${f.flag}] ${f.location}: ${f.text}`)];
    if (report.length) console.log(`${fixture.example}\n${report.join('\n')}\n${rendered.xml}`);
    expect(report).toEqual([]);
  });
});
