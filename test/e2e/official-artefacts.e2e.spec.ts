import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { conformanceDir } from '../../libs/areas/src/conformance/location';
import { appsAlone, exitOf, startAppIn, startGatewayIn } from '../support/apps-alone';
import { type AppProcess, freePort, testEnv } from '../support/stack';

const emptyFolder = () => mkdtempSync(path.join(os.tmpdir(), 'einvoice-empty-'));

/**
 * The apps' environment with no official artefacts within reach: CONFORMANCE_DIR unset, and the tests'
 * oracle location (which the apps must never read) an empty folder, so nothing can fall back to it.
 */
function withoutArtefacts(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = testEnv({ CONFORMANCE_ORACLE_DIR: emptyFolder(), LOG_LEVEL: 'info' });
  delete env.CONFORMANCE_DIR;
  return { ...env, ...extra };
}

// That the apps alone (no ../shared, no CONFORMANCE_DIR) take documents of every area to their final
// state, and say once that the official checks are off, is the release test's (release.e2e.spec.ts).

/**
 * #44 A configured but missing artefact is an error at start: the app refuses to start with a message
 * saying what is missing and what to do, instead of failing every request or retrying for ever.
 */
describe('#44 CONFORMANCE_DIR configured but missing: the app refuses to start', () => {
  let folder: string;
  const started: AppProcess[] = [];
  /** The app from the copy, on a free port (a gateway that did start must not take another's). */
  const start = async (name: 'gateway' | 'reporting-worker', extra: Record<string, string>) => {
    const app = startAppIn(folder, name, withoutArtefacts({ PORT: String(await freePort()), ...extra }));
    started.push(app);
    return app;
  };
  beforeAll(() => {
    folder = appsAlone();
  });
  afterAll(async () => {
    for (const app of started) await app.stop();
  });

  it.each(['gateway', 'reporting-worker'] as const)('%s with CONFORMANCE_DIR naming an empty folder: exits 1 naming the folder and the files it lacks', async (name) => {
    const empty = emptyFolder();
    const app = await start(name, { CONFORMANCE_DIR: empty });
    expect(await exitOf(app)).toBe(1);
    const message = /lacks official files the checks it turns on need: ([^.]*(?:\.[^ .][^.]*)*)\. Put them there/.exec(app.output());
    expect(app.output()).toContain(`CONFORMANCE_DIR=${empty} lacks official files`);
    expect(message?.[1].split(', ')).toEqual(expect.arrayContaining(['ksef/FA/schemat_FA(3)_v1-0E.xsd', 'ksef/FA/bazowe/KodyKrajow_v10-0E.xsd', 'verifactu/SuministroLR.xsd']));
  });

  it('the gateway with CONFORMANCE_DIR naming no folder: exits 1 saying so', async () => {
    const missing = path.join(emptyFolder(), 'nowhere');
    const app = await start('gateway', { CONFORMANCE_DIR: missing });
    expect(await exitOf(app)).toBe(1);
    expect(app.output()).toContain(`CONFORMANCE_DIR=${missing} is not a folder`);
  });

  it('the gateway with UAE_OFFICIAL_SCHEMATRON=true and no CONFORMANCE_DIR: exits 1 saying the setting needs it', async () => {
    const app = await start('gateway', { UAE_OFFICIAL_SCHEMATRON: 'true' });
    expect(await exitOf(app)).toBe(1);
    expect(app.output()).toContain('UAE_OFFICIAL_SCHEMATRON=true (PINT AE Schematron (UAE_OFFICIAL_SCHEMATRON)) needs CONFORMANCE_DIR');
  });

  it('with CONFORMANCE_DIR naming the official artefacts, the gateway starts and says in one line which checks are on, and from where', async () => {
    const { app } = await startGatewayIn(folder, withoutArtefacts({ CONFORMANCE_DIR: conformanceDir, UAE_OFFICIAL_SCHEMATRON: 'true' }));
    try {
      const line = app.output().split('\n').filter((l) => l.includes('official conformance checks'));
      expect(line).toHaveLength(1);
      expect(JSON.parse(line[0])).toMatchObject({
        message: 'official conformance checks on',
        conformanceDir: path.resolve(conformanceDir),
        checks: expect.arrayContaining(['KSeF FA(3) XSD', 'VeriFactu SuministroLR XSD', 'PINT AE Schematron (UAE_OFFICIAL_SCHEMATRON)']),
      });
    } finally {
      await app.stop();
    }
  });
});
