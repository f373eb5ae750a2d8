// #44: what the image runs must load from what the image holds. From each app's entry point (and the
// operator CLI's), every module reached through imports and requires is followed; none may be a test
// oracle, a test fake or fixture, or a spec, and every package reached must be a production dependency
// (`npm ci --omit=dev` installs only those). The release test starts the apps from such an install;
// this test also sees the imports that only run later (a lazy require on some request).
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
const ENTRY_POINTS = ['apps/gateway/src/main.ts', 'apps/gateway/src/cli.ts', 'apps/delivery-worker/src/main.ts', 'apps/reporting-worker/src/main.ts', 'apps/webhook-dispatcher/src/main.ts'];
const ALIASES = (JSON.parse(readFileSync(path.join(ROOT, 'tsconfig.base.json'), 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
const dependencies = new Set(Object.keys((JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies));
const builtins = new Set(builtinModules);

/** A module's source, or a JSON file it imports (data the compiler copies into dist/: the AsyncAPI document's event schemas). */
function resolveFile(base: string): string | undefined {
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((file) => (file.endsWith('.ts') || file.endsWith('.json')) && existsSync(file));
}

/** Every source file and package the entry points reach. */
function reached(): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const queue = ENTRY_POINTS.map((file) => path.join(ROOT, file));
  while (queue.length) {
    const file = queue.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    if (file.endsWith('.json')) continue;
    const text = readFileSync(file, 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const { fileName: specifier, pos } of importedFiles) {
      // `import type` / `export type` is erased by the compiler: nothing is loaded.
      if (/^\s*(import|export) type\b/.test(text.slice(text.lastIndexOf('\n', pos) + 1, pos))) continue;
      const alias = ALIASES[specifier]?.[0];
      const target = specifier.startsWith('.') ? resolveFile(path.resolve(path.dirname(file), specifier)) : alias ? path.join(ROOT, alias) : undefined;
      if (target) queue.push(target);
      else if (!specifier.startsWith('.') && !builtins.has(specifier.replace(/^node:/, ''))) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];
        packages.set(name, path.relative(ROOT, file));
      } else if (specifier.startsWith('.')) throw new Error(`${path.relative(ROOT, file)}: cannot resolve ${specifier}`);
    }
  }
  return { files, packages };
}

describe('what production code reaches (#44)', () => {
  const { files, packages } = reached();

  it('follows the apps through the libraries', () => {
    expect(files.size).toBeGreaterThan(300);
    expect([...files].some((file) => file.includes(`${path.sep}libs${path.sep}areas${path.sep}`))).toBe(true);
  });

  it('reaches no test oracle, test fake, fixture or spec', () => {
    const testOnly = [...files]
      .map((file) => path.relative(ROOT, file))
      .filter((file) => /\.spec\.ts$|\/testing\/|\/fixtures\/|conformance\/(location|official-validators)\.ts$|mail\/capture-mailbox\.ts$/.test(file));
    expect(testOnly).toEqual([]);
  });

  it('reaches only production dependencies', () => {
    const notInstalled = [...packages].filter(([name]) => !dependencies.has(name)).map(([name, by]) => `${name} (from ${by})`);
    expect(notInstalled).toEqual([]);
  });
});
