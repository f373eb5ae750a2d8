// #44 CONFORMANCE_DIR (runtime.ts): the official run-time checks are on only when it names a folder of
// the official artefacts, read at start; a folder or file that is missing stops the start, with what to do.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { declareOfficialCheck, startOfficialChecks } from './runtime';

const always = declareOfficialCheck({ name: 'Test XSD', folder: 'test/xsd', files: ['main.xsd', 'base/types.xsd'] });
const switched = declareOfficialCheck({ name: 'Test Schematron', folder: '', files: ['test/sef/rules.sef.json'], onlyWhen: { variable: 'TEST_OFFICIAL_SCHEMATRON', value: 'true' } });

/** A folder holding the given files (relative paths), each with its own name as contents. */
function folderWith(...files: string[]): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'einvoice-conformance-'));
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), file);
  }
  return dir;
}

/** Every check the modules loaded in this test declared (the areas' own among them) finds its files in a full folder. */
const fullFolder = (...extra: string[]) => folderWith('test/xsd/main.xsd', 'test/xsd/base/types.xsd', ...extra);

describe('#44 CONFORMANCE_DIR: the optional official checks', () => {
  it('unset (or blank): every check is off and nothing is read', () => {
    expect(startOfficialChecks({})).toEqual({ on: false });
    expect(startOfficialChecks({ CONFORMANCE_DIR: '  ' })).toEqual({ on: false });
    expect(always.files()).toBeUndefined();
    expect(switched.files()).toBeUndefined();
  });

  it('set: the checks it turns on are loaded at start, their files named relative to their folder', () => {
    const dir = fullFolder();
    expect(startOfficialChecks({ CONFORMANCE_DIR: dir })).toEqual({ on: true, dir, checks: ['Test XSD'] });
    expect(always.files()).toEqual([{ fileName: 'main.xsd', contents: 'test/xsd/main.xsd' }, { fileName: 'base/types.xsd', contents: 'test/xsd/base/types.xsd' }]);
    // A check with its own switch stays off until that switch says so.
    expect(switched.files()).toBeUndefined();
  });

  it('a check\'s own switch turns it on, with CONFORMANCE_DIR', () => {
    const dir = fullFolder('test/sef/rules.sef.json');
    expect(startOfficialChecks({ CONFORMANCE_DIR: dir, TEST_OFFICIAL_SCHEMATRON: 'true' })).toMatchObject({ on: true, checks: ['Test XSD', 'Test Schematron'] });
    expect(switched.files()).toEqual([{ fileName: 'test/sef/rules.sef.json', contents: 'test/sef/rules.sef.json' }]);
  });

  it('a check\'s own switch without CONFORMANCE_DIR: refused at start, saying what it needs', () => {
    expect(() => startOfficialChecks({ TEST_OFFICIAL_SCHEMATRON: 'true' })).toThrow('TEST_OFFICIAL_SCHEMATRON=true (Test Schematron) needs CONFORMANCE_DIR');
  });

  it('CONFORMANCE_DIR naming no folder: refused at start', () => {
    const missing = path.join(folderWith(), 'nowhere');
    expect(() => startOfficialChecks({ CONFORMANCE_DIR: missing })).toThrow(`CONFORMANCE_DIR=${missing} is not a folder`);
  });

  it('CONFORMANCE_DIR lacking a file a check it turns on needs: refused at start, naming every missing file; nothing stays loaded', () => {
    startOfficialChecks({ CONFORMANCE_DIR: fullFolder() });
    const dir = folderWith('test/xsd/main.xsd');
    expect(() => startOfficialChecks({ CONFORMANCE_DIR: dir })).toThrow(`CONFORMANCE_DIR=${dir} lacks official files the checks it turns on need: test/xsd/base/types.xsd.`);
    expect(always.files()).toBeUndefined();
  });
});
