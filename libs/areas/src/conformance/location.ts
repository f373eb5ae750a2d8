/**
 * Where the official artifacts live (shared/conformance, read in place, never copied into the
 * repository): `CONFORMANCE_DIR`, else the `shared/conformance` beside the repository. Its own
 * module, so a production path that reads one XSD does not load the Schematron engine.
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

export const conformanceDir = process.env.CONFORMANCE_DIR ?? path.resolve(findRepoRoot(__dirname), '../shared/conformance');
