// Area boundaries (#45): an area's folder imports no other area's folder. What several areas share
// is a module of its own that areas import and that imports no area; the list of areas is the one
// place that imports them all. Checked by ESLint's `no-restricted-imports` (typescript-eslint's
// extension of it, so that these options never replace the framework restrictions of
// eslint.config.mjs, which use the core rule), one block per folder and depth: a pattern matches an
// import's text, so `../peppol/x` means another area only one folder deep (in myinvois/reporting/
// it is myinvois/peppol.ts). CommonJS, so that test/unit/area-boundaries.unit.spec.ts runs these
// same blocks through ESLint's Node API. Documented in libs/areas/src/registry/README.md "Boundaries".
const { readdirSync } = require('node:fs');
const path = require('node:path');

/** Folders of libs/areas/src shared by areas: any area may import them, they import no area. */
const SHARED_MODULES = ['shared', 'ubl', 'peppol-ubl', 'peppol-participants', 'peppol-reporting', 'conformance', 'registry', 'printable'];

/**
 * Where areas are listed. In libs/areas: the list (area-list/) and the library's public entry
 * (index.ts); in the gateway, the module that mounts every area's controllers. Nothing but them
 * imports every area, and no area or shared module imports them (that would loop back).
 */
const LISTS = {
  'libs/areas/src': ['area-list', 'index'],
  'apps/gateway/src/areas': ['area-controllers'],
};

function subfolders(dir) {
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
}

/** How deep files sit in a folder: 1 for files directly in it, 2 one folder down... */
function depth(dir) {
  return 1 + Math.max(0, ...subfolders(dir).map((name) => depth(path.join(dir, name))));
}

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An import, from a file `fileDepth` folders below `root`, of one of `names` directly under `root`. */
function importOf(fileDepth, names) {
  const up = `(?:\\.\\./){${fileDepth - 1}}\\.\\.`;
  // `..` and `../index` name a folder's index.ts, as `../x` names x.ts or x/index.ts.
  const target = names.includes('index') ? `(?:/(?:${names.map(escape).join('|')})(?:/|$)|/?$)` : `/(?:${names.map(escape).join('|')})(?:/|$)`;
  return `^${up}${target}`;
}

/**
 * The folders of `root` that are areas (every folder not declared shared), and what each folder
 * may not import: an area, every other area and the lists; a shared module, every area and the lists.
 */
function forbidden(root, rootDir) {
  const folders = subfolders(path.join(rootDir, root));
  const lists = LISTS[root];
  const areas = folders.filter((name) => !SHARED_MODULES.includes(name) && !lists.includes(name));
  return folders
    .filter((name) => !lists.includes(name))
    .map((folder) => {
      const isArea = areas.includes(folder);
      const message = !isArea
        ? `${root}/${folder} is shared by areas: it imports no area and not the list of areas (libs/areas/src/registry/README.md "Boundaries").`
        : root === 'libs/areas/src'
          ? `${root}/${folder} is an area: it imports no other area and not the list of areas, only the shared modules (${SHARED_MODULES.join(', ')}). Move what areas share into a shared module (libs/areas/src/registry/README.md "Boundaries").`
          : `${root}/${folder} is an area's gateway folder: it imports no other area's folder and not the list of their controllers; what areas share lives in @einvoice/areas or in the gateway's platform folders (libs/areas/src/registry/README.md "Boundaries").`;
      return { folder, names: [...areas.filter((name) => name !== folder), ...lists], message };
    });
}

/** The flat-config blocks of the boundaries, for the repository at `rootDir`. */
function areaBoundaries(rootDir = __dirname) {
  return Object.keys(LISTS).flatMap((root) =>
    forbidden(root, rootDir).flatMap(({ folder, names, message }) =>
      Array.from({ length: depth(path.join(rootDir, root, folder)) }, (_, i) => ({
        files: [`${root}/${folder}/${'*/'.repeat(i)}*.ts`],
        rules: {
          '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex: importOf(i + 1, names), caseSensitive: true, message }] }],
        },
      })),
    ),
  );
}

module.exports = { areaBoundaries, SHARED_MODULES, LISTS };
