/**
 * The mutation parity corpus (issue 10): the 32 official examples as JSON and hundreds of mutants,
 * each breaking the document in one place (mutations.ts), rendered; our rules and the official
 * Schematron (both stylesheets of the specification, SaxonJS) must give the same verdict and the
 * same set of fatal rule ids on every one. Every fourth mutant runs here (about 600 documents, ~25 s);
 * `UAE_PARITY_STRIDE=1` runs all of them (about 2,350, measured identical too).
 */
import { blocking, runSchematron } from '../../conformance/official-validators';
import { checkUaeRules } from '.';
import { parityCorpus } from './parity-corpus';

jest.setTimeout(600_000);

describe('PINT AE rules: ours and the official Schematron agree', () => {
  const corpus = parityCorpus(Number(process.env.UAE_PARITY_STRIDE ?? 4));

  it('given the corpus, then it holds hundreds of documents, valid and invalid, breaking dozens of rules', async () => {
    expect(corpus.length).toBeGreaterThan(500);
  });

  it('given every document of the corpus, when both rule sets run, then the verdicts and the fatal rule ids are the same', async () => {
    const differences: string[] = [];
    const exercised = new Set<string>();
    let invalid = 0;
    let oursMs = 0;
    let officialMs = 0;
    for (const doc of corpus) {
      let started = process.hrtime.bigint();
      const official = [...new Set(blocking(await runSchematron(doc.ruleSet, doc.xml)).map((f) => f.id))].sort();
      officialMs += Number(process.hrtime.bigint() - started) / 1e6;
      started = process.hrtime.bigint();
      const ours = checkUaeRules(doc.xml).map((i) => i.code).sort();
      oursMs += Number(process.hrtime.bigint() - started) / 1e6;
      if (JSON.stringify(official) !== JSON.stringify(ours)) differences.push(`${doc.name}: official [${official}] ours [${ours}]`);
      if (official.length) invalid += 1;
      for (const id of official) exercised.add(id);
    }
    console.log(`${corpus.length} documents (${invalid} invalid), ${exercised.size} rules broken; per document: ours ${(oursMs / corpus.length).toFixed(3)} ms, official ${(officialMs / corpus.length).toFixed(1)} ms`);
    expect(differences).toEqual([]);
    expect(invalid).toBeGreaterThan(300);
    expect(exercised.size).toBeGreaterThan(60);
  });
});
