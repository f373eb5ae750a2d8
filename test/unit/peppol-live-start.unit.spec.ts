// #46: `npm start` runs the AS4 engine in PEPPOL_MODE=live (scripts/lib/peppol-live.mjs). What it starts
// the engine with is decided from the environment alone (as4EngineEnv); scripts/start.mjs refuses a live
// mode missing a setting in one line, before it starts anything.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const LIB = path.join(ROOT, 'scripts', 'lib', 'peppol-live.mjs');

/** peppol-live.mjs is ESM, which jest (CommonJS) does not import: run in a node of its own. */
function as4EngineEnv(env: Record<string, string>, gatewayPort = 3000): { live: boolean; url?: string; dataDir?: string; env?: Record<string, string> } | { error: string } {
  const script = `import { as4EngineEnv } from ${JSON.stringify(LIB)};
try { console.log(JSON.stringify(as4EngineEnv(${JSON.stringify(env)}, { gatewayPort: ${gatewayPort}, runDir: '/repo/.run' }))); }
catch (error) { console.log(JSON.stringify({ error: error.message })); }`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

/** Every setting the engine needs (engines/as4/README.md "Settings"); passwords may be empty. */
const LIVE = {
  PEPPOL_MODE: 'live',
  AS4_ENGINE_SECRET: 'a-secret-of-sixteen-chars',
  AS4_PUBLIC_URL: 'https://ap.example/as4',
  AS4_ENGINE_INBOUND_PORT: '8481',
  PEPPOL_AP_KEYSTORE: '/keys/ap.p12',
  PEPPOL_AP_KEYSTORE_PASSWORD: '',
  PEPPOL_TRUSTSTORE: '/keys/ap-ca.p12',
  PEPPOL_TRUSTSTORE_PASSWORD: 'x',
  PEPPOL_SMP_TRUSTSTORE: '/keys/smp-ca.p12',
  PEPPOL_SMP_TRUSTSTORE_PASSWORD: 'x',
  PEPPOL_SML: 'test',
};

const without = (names: string[]) => Object.fromEntries(Object.entries(LIVE).filter(([name]) => !names.includes(name)));

describe('#46 npm start and the AS4 engine (scripts/lib/peppol-live.mjs)', () => {
  it('runs no engine in sandbox mode, the default', () => {
    expect(as4EngineEnv({})).toEqual({ live: false });
    expect(as4EngineEnv({ PEPPOL_MODE: 'sandbox', AS4_ENGINE_SECRET: 'whatever' })).toEqual({ live: false });
  });

  it('refuses a mode it does not know', () => {
    expect(as4EngineEnv({ PEPPOL_MODE: 'production' })).toEqual({ error: 'PEPPOL_MODE=production is not a mode: sandbox (default) or live.' });
  });

  it('in live mode, keeps the engine\'s data in .run/as4-engine and calls it back on this gateway\'s inbound route, unless the settings say otherwise', () => {
    expect(as4EngineEnv(LIVE, 3100)).toEqual({
      live: true, url: 'http://127.0.0.1:8480', dataDir: '/repo/.run/as4-engine', env: { AS4_INBOUND_CALLBACK_URL: 'http://127.0.0.1:3100/internal/peppol/inbound' },
    });
    const elsewhere = { AS4_ENGINE_URL: 'http://127.0.0.1:9480', AS4_INBOUND_CALLBACK_URL: 'http://127.0.0.1:7000/internal/peppol/inbound', AS4_ENGINE_DATA_DIR: '/var/lib/as4' };
    expect(as4EngineEnv({ ...LIVE, ...elsewhere })).toEqual({
      live: true, url: 'http://127.0.0.1:9480', dataDir: '/var/lib/as4', env: { AS4_INBOUND_CALLBACK_URL: 'http://127.0.0.1:7000/internal/peppol/inbound' },
    });
  });

  it('names every missing setting in one line; an empty password is a password, an unset one is missing', () => {
    const answer = as4EngineEnv(without(['AS4_ENGINE_SECRET', 'PEPPOL_TRUSTSTORE_PASSWORD', 'AS4_ENGINE_INBOUND_PORT']));
    expect(answer).toEqual({
      error: 'PEPPOL_MODE=live runs the AS4 engine, which needs AS4_ENGINE_SECRET, AS4_ENGINE_INBOUND_PORT, PEPPOL_TRUSTSTORE_PASSWORD: not set (engines/as4/README.md "Settings").',
    });
    expect(as4EngineEnv({ ...LIVE, PEPPOL_AP_KEYSTORE: ' ' })).toEqual({ error: expect.stringContaining('needs PEPPOL_AP_KEYSTORE:') });
  });

  it('never guesses the network: PEPPOL_SML=test|production, or a fixed PEPPOL_SMP_URL', () => {
    expect(as4EngineEnv(without(['PEPPOL_SML']))).toEqual({ error: expect.stringContaining('needs PEPPOL_SML=test|production (or PEPPOL_SMP_URL): not set') });
    expect(as4EngineEnv({ ...LIVE, PEPPOL_SML: 'sandbox' })).toEqual({ error: expect.stringContaining('PEPPOL_SML=test|production') });
    expect(as4EngineEnv({ ...without(['PEPPOL_SML']), PEPPOL_SMP_URL: 'http://127.0.0.1:8888' })).toMatchObject({ live: true });
    expect(as4EngineEnv({ ...LIVE, PEPPOL_SML: 'production' })).toMatchObject({ live: true });
  });

  it('npm start refuses a live mode missing a setting with that one line, before it starts anything', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...without(['AS4_PUBLIC_URL']), PORT: '1' };
    delete env.AS4_PUBLIC_URL;
    const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('[stack] PEPPOL_MODE=live runs the AS4 engine, which needs AS4_PUBLIC_URL: not set (engines/as4/README.md "Settings").');
    // Nothing was installed, built or started on the way (no Maven, no PostgreSQL, no broker): each step says so on
    // stderr (`[stack] ...`), which holds the refusal alone; not a time limit, which a loaded machine would break.
    expect(result.stdout).toBe('');
  });
});
