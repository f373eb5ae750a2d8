/**
 * Where the TESTS read the official artefacts (their oracle, shared/conformance read in place, never
 * copied into the repository): `CONFORMANCE_ORACLE_DIR`, else the `shared/conformance` beside the
 * repository. Tests and development scripts only: the running service's setting is CONFORMANCE_DIR
 * (runtime.ts), which has no default, so nothing the service does at run time reaches `../shared`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root: the nearest folder above this file holding nx.json (from the sources or from dist/). */
function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) return path.resolve(from, '../../../..');
  }
}

export const conformanceDir = process.env.CONFORMANCE_ORACLE_DIR || path.resolve(findRepoRoot(__dirname), '../shared/conformance');
