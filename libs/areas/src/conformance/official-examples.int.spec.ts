/**
 * Sanity check of the test oracle itself (phive-rules style: every official example is a
 * test that must pass). If these fail, the harness is wrong, not the renderer.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conformanceDir, RuleSetName, validateOfficial } from './official-validators';

const suites: [RuleSetName, string][] = [
  ['peppol-bis-3', 'peppol-bis-3/2026.5/examples'],
  ['pint-sg', 'pint-sg/1.4.1/examples'],
];

// An official example whose name announces a failure is skipped (none in the current sets).
const expectedToFail = /invalid|error|fail/i;

describe.each(suites)('official %s examples', (ruleSet, dir) => {
  const files = fs.readdirSync(path.join(conformanceDir, dir)).filter((f) => f.endsWith('.xml') && !expectedToFail.test(f));

  it.each(files)('given the official example %s, when validated, then XSD and Schematron pass', async (file) => {
    const xml = fs.readFileSync(path.join(conformanceDir, dir, file), 'utf8');
    const { xsd, failures } = await validateOfficial(ruleSet, xml);
    expect(xsd.errors).toEqual([]);
    expect(failures.map((f) => `${f.id}: ${f.text}`)).toEqual([]);
  });
});
