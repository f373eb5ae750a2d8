// #45: area folders do not import each other. What several areas share is a module of its own
// (eslint.area-boundaries.cjs names them) that imports no area; the list of areas is the one place
// that imports them all; and libs/areas has no import cycle. ESLint enforces the boundaries
// (eslint.config.mjs); CI runs only `npm test`, so this test runs the same rule blocks through
// ESLint's Node API (Linter) over the code, proves they bite, and checks the repository's config uses them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ESLint, Linter } from 'eslint';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const ROOT = path.resolve(__dirname, '..', '..');
const AREAS_SRC = path.join(ROOT, 'libs/areas/src');
// CommonJS, so that Jest loads it as eslint.config.mjs does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { areaBoundaries, SHARED_MODULES, LISTS } = require('../../eslint.area-boundaries.cjs') as {
  areaBoundaries(rootDir: string): Linter.Config[];
  SHARED_MODULES: readonly string[];
  LISTS: Readonly<Record<string, readonly string[]>>;
};
const RULE = '@typescript-eslint/no-restricted-imports';

/** ESLint with the boundary blocks only (the full config also builds the Nx project graph). */
const linter = new Linter({ cwd: ROOT });
const boundaryConfig: Linter.Config[] = [
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser, parserOptions: { jsDocParsingMode: 'none' } }, plugins: { '@typescript-eslint': tseslint.plugin } },
  ...areaBoundaries(ROOT),
];

/** What the boundary blocks report on `code` placed at `file`: rule, or the parse error. */
function boundaryMessages(file: string, code: string): Linter.LintMessage[] {
  return linter.verify(code, boundaryConfig, { filename: path.join(ROOT, file) }).filter((m) => m.ruleId === RULE || m.fatal);
}

/** The imports of `code` placed at `file` that the boundaries refuse, as `line: import`. */
function boundaryErrors(file: string, code: string): string[] {
  return boundaryMessages(file, code).map((m) => `${m.line}: ${code.split('\n')[m.line - 1]}`);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? sourceFiles(file) : file.endsWith('.ts') ? [file] : [];
  });
}

/** The files of libs/areas/src a file imports by relative path, type-only imports included. */
function importsOf(file: string): string[] {
  return ts
    .preProcessFile(readFileSync(file, 'utf8'), true, true)
    .importedFiles.map(({ fileName }) => fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.resolve(path.dirname(file), specifier))
    .map((base) => [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate)))
    .filter((target): target is string => target !== undefined && target.startsWith(AREAS_SRC));
}

/** Strongly connected components of more than one file (Tarjan): each is an import cycle. */
function importCycles(files: readonly string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(AREAS_SRC, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe('area boundaries (#45)', () => {
  it('hold in libs/areas and in the gateway per-area folders', () => {
    // Only a file with a specifier starting `..` can leave its folder (every pattern starts there):
    // the others need no parse.
    const files = [...sourceFiles(AREAS_SRC), ...sourceFiles(path.join(ROOT, 'apps/gateway/src/areas'))];
    expect(files.length).toBeGreaterThan(300);
    const errors = files
      .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
      .filter(({ text }) => /['"]\.\./.test(text))
      .flatMap(({ file, text }) => boundaryMessages(path.relative(ROOT, file), text).map((m) => `${path.relative(ROOT, file)}:${m.line} ${m.message}`));
    expect(errors).toEqual([]);
  });

  it('refuse an import from one area folder into another, type-only or re-exported, at any depth', () => {
    expect(boundaryErrors('libs/areas/src/ksef/copy.ts', "import { peppolAreas } from '../peppol/area';\nexport const x = peppolAreas;\n")).toEqual([
      "1: import { peppolAreas } from '../peppol/area';",
    ]);
    expect(boundaryErrors('libs/areas/src/myinvois/reporting/x.ts', "import type { UaeDocument } from '../../uae/document';\nexport * from '../../ksef';\n")).toEqual([
      "1: import type { UaeDocument } from '../../uae/document';",
      "2: export * from '../../ksef';",
    ]);
    expect(boundaryErrors('apps/gateway/src/areas/uae/x.ts', "import { MyInvoisAuthority } from '../myinvois/authority';\nexport { MyInvoisAuthority };\n")).toEqual([
      "1: import { MyInvoisAuthority } from '../myinvois/authority';",
    ]);
  });

  it('refuse an area or a shared module importing the list of areas, and a shared module importing an area', () => {
    expect(boundaryErrors('libs/areas/src/uae/x.ts', "import { areas } from '../area-list';\nimport { uae } from '..';\nexport { areas, uae };\n")).toEqual([
      "1: import { areas } from '../area-list';",
      "2: import { uae } from '..';",
    ]);
    expect(boundaryErrors('libs/areas/src/peppol-participants/x.ts', "export { PINT_MY_ENDPOINT_SCHEME } from '../myinvois/peppol';\n")).toEqual([
      "1: export { PINT_MY_ENDPOINT_SCHEME } from '../myinvois/peppol';",
    ]);
    expect(boundaryErrors('apps/gateway/src/areas/jofotara/x.ts', "import { areaControllers } from '../area-controllers';\nexport { areaControllers };\n")).toEqual([
      "1: import { areaControllers } from '../area-controllers';",
    ]);
  });

  it('let an area import the shared modules and its own files, whatever they are called', () => {
    const code = "import { renderDocument } from '../../peppol-ubl/render';\nimport { genericTins } from '../peppol';\nimport { el } from '../../shared/xml';\nexport { renderDocument, genericTins, el };\n";
    expect(boundaryErrors('libs/areas/src/myinvois/reporting/x.ts', code)).toEqual([]);
    expect(boundaryErrors('libs/areas/src/area-list/x.ts', "import { uaeDefinition } from '../uae/definition';\nexport { uaeDefinition };\n")).toEqual([]);
  });

  it('are the ones the repository lint config enforces', () => {
    // The full config loads as an ES module, which Jest's sandbox cannot import: its CLI runs apart.
    const eslintPackage = require.resolve('eslint/package.json');
    const bin = path.resolve(path.dirname(eslintPackage), (JSON.parse(readFileSync(eslintPackage, 'utf8')) as { bin: { eslint: string } }).bin.eslint);
    const run = spawnSync(process.execPath, [bin, '--stdin', '--stdin-filename', 'libs/areas/src/ksef/copy.ts', '--format', 'json'], {
      cwd: ROOT,
      input: "import { peppolAreas } from '../peppol/area';\nexport const x = peppolAreas;\n",
      encoding: 'utf8',
    });
    const [result] = JSON.parse(run.stdout) as ESLint.LintResult[];
    expect(result.messages.map((m) => `${m.line} ${m.ruleId}`)).toEqual([`1 ${RULE}`]);
  });

  it('take every folder of libs/areas/src not declared shared for an area, and find each in the list of areas', () => {
    const folders = readdirSync(AREAS_SRC).filter((name) => statSync(path.join(AREAS_SRC, name)).isDirectory());
    const areas = folders.filter((name) => !SHARED_MODULES.includes(name) && !LISTS['libs/areas/src'].includes(name));
    const listed = new Set(importsOf(path.join(AREAS_SRC, 'area-list/area-list.ts')).map((file) => path.relative(AREAS_SRC, file).split(path.sep)[0]));
    expect(SHARED_MODULES.filter((name) => !folders.includes(name))).toEqual([]);
    expect(areas.length).toBeGreaterThan(8);
    expect(areas.filter((name) => !listed.has(name))).toEqual([]);
  });

  it('leave no import cycle in libs/areas, type-only imports included', () => {
    const files = sourceFiles(AREAS_SRC);
    expect(files.length).toBeGreaterThan(300);
    expect(importCycles(files)).toEqual([]);
  });
});
