/**
 * The official PINT AE 2026.5 examples themselves (shared/conformance/pint-ae/2026.5/examples, as
 * another access point would send them to a participant hosted here), not our renderings: each
 * becomes a TDD for either side that passes the FTA's checks (tdd-rules.ts). Int level: it reads
 * the conformance files outside the repository.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { conformanceDir } from '../../conformance/official-validators';
import { buildTdd } from './tdd';
import { readTdd } from './tdd-rules';

const examplesDir = path.join(conformanceDir, 'pint-ae/2026.5/examples');

function officialExamples(dir = examplesDir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory()
    ? officialExamples(path.join(dir, e.name)) : e.name.endsWith('.xml') ? [path.relative(examplesDir, path.join(dir, e.name))] : []));
}

describe('TDDs of the official PINT AE examples as they travel', () => {
  it.each(officialExamples().sort())('given %s, when reported by the sender (C2) and by the receiver (C3), then the FTA\'s checks pass', (example) => {
    const ubl = fs.readFileSync(path.join(examplesDir, example), 'utf8');
    for (const reporterRole of ['C2', 'C3'] as const) {
      const tdd = buildTdd(ubl, { reporterRole, ftaId: '0242:000006-TESTBED.3001', representativeId: '0242:000123-OUR-AP', issuedAt: new Date('2026-07-01T10:00:00Z') });
      expect({ reporterRole, issues: readTdd(tdd.xml).issues }).toEqual({ reporterRole, issues: [] });
    }
  });
});
