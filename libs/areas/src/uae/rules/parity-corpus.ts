/** The parity corpus: each official example as JSON, and its mutants (mutations.ts), rendered. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseUaeDocument } from '../document';
import { renderUae, type UaeIssuer } from '../render';
import { mutantsOf } from './mutations';

export interface CorpusDocument {
  readonly name: string;
  readonly xml: string;
  readonly ruleSet: 'pint-ae:billing:2026.5' | 'pint-ae:selfbilling:2026.5';
}

const fixturesDir = path.join(__dirname, '..', 'fixtures');

/** Every fixture and every mutant of it that passes phase 1, rendered (mutants stride: every `stride`-th, for smaller runs). */
export function parityCorpus(stride = 1): CorpusDocument[] {
  const docs: CorpusDocument[] = [];
  let n = 0;
  for (const file of fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.json')).sort()) {
    const fixture = JSON.parse(fs.readFileSync(path.join(fixturesDir, file), 'utf8')) as { issuer: UaeIssuer; request: Record<string, unknown> };
    const request = (fixture.request.document ?? fixture.request) as Record<string, unknown>;
    for (const { name, request: body } of [{ name: 'as published', request }, ...mutantsOf(request)]) {
      if (name !== 'as published' && n++ % stride !== 0) continue;
      const parsed = parseUaeDocument(body);
      if (!('document' in parsed)) continue;
      const rendered = renderUae(parsed.document, fixture.issuer, { uuid: '4b6000ca-0128-4bdc-99a6-406f2909247f' });
      docs.push({ name: `${file} ${name}`, xml: rendered.xml, ruleSet: rendered.customizationId.includes('selfbilling') ? 'pint-ae:selfbilling:2026.5' : 'pint-ae:billing:2026.5' });
    }
  }
  return docs;
}
