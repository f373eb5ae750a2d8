// The AS4 engine's part of `npm start` (#46): with PEPPOL_MODE=live the stack runs its own engine
// (engines/as4, docs/peppol-as4.md) as it runs its own Kafka broker: built when needed, started with
// its data in .run/as4-engine (AS4_ENGINE_DATA_DIR) and its settings from the environment, stopped on
// Ctrl-C. In sandbox mode (the default) nothing here runs Java. Plain Node ESM, as start.mjs.
import path from 'node:path';
import { ensureAs4Engine, startAs4Engine, stopAs4Engine } from './as4-engine.mjs';

/** Settings the engine cannot start without (engines/as4/README.md "Settings"); the rest have defaults. */
const REQUIRED = [
  'AS4_ENGINE_SECRET',
  'AS4_PUBLIC_URL',
  'AS4_ENGINE_INBOUND_PORT',
  'PEPPOL_AP_KEYSTORE',
  'PEPPOL_AP_KEYSTORE_PASSWORD',
  'PEPPOL_TRUSTSTORE',
  'PEPPOL_TRUSTSTORE_PASSWORD',
  'PEPPOL_SMP_TRUSTSTORE',
  'PEPPOL_SMP_TRUSTSTORE_PASSWORD',
];

/** An empty password is a real one for a PKCS#12 file: only an unset one is missing (as the engine reads it). */
const isSet = (env, name) => (name.endsWith('_PASSWORD') ? env[name] !== undefined : Boolean(env[name]?.trim()));

/**
 * What `npm start` does about the engine, decided from the environment alone: `{ live: false }` in
 * sandbox mode; in live mode `{ live: true, url, dataDir, env }`, where `env` is what the engine gets over
 * the environment: AS4_INBOUND_CALLBACK_URL defaults to this gateway's `/internal/peppol/inbound`, and
 * AS4_ENGINE_DATA_DIR (its received MessageIds, its pid file and log) to `<runDir>/as4-engine`.
 * The network is never guessed: the delivery worker's PEPPOL_SML defaults to the in-house sandbox SML,
 * the engine's to Peppol's test SML, so live mode needs PEPPOL_SML=test|production or a fixed PEPPOL_SMP_URL.
 * @throws Error, one line naming every missing setting (or an unknown PEPPOL_MODE)
 */
export function as4EngineEnv(env, { gatewayPort, runDir }) {
  const mode = env.PEPPOL_MODE?.trim() || 'sandbox';
  if (mode === 'sandbox') return { live: false };
  if (mode !== 'live') throw new Error(`PEPPOL_MODE=${mode} is not a mode: sandbox (default) or live.`);
  const missing = REQUIRED.filter((name) => !isSet(env, name));
  const sml = env.PEPPOL_SML?.trim();
  if (!isSet(env, 'PEPPOL_SMP_URL') && sml !== 'test' && sml !== 'production') missing.push('PEPPOL_SML=test|production (or PEPPOL_SMP_URL)');
  if (missing.length) {
    throw new Error(`PEPPOL_MODE=live runs the AS4 engine, which needs ${missing.join(', ')}: not set (engines/as4/README.md "Settings").`);
  }
  return {
    live: true,
    url: env.AS4_ENGINE_URL?.trim() || 'http://127.0.0.1:8480',
    dataDir: path.resolve(env.AS4_ENGINE_DATA_DIR?.trim() || path.join(runDir, 'as4-engine')),
    env: { AS4_INBOUND_CALLBACK_URL: env.AS4_INBOUND_CALLBACK_URL?.trim() || `http://127.0.0.1:${gatewayPort}/internal/peppol/inbound` },
  };
}

/**
 * Starts the stack's engine from `as4EngineEnv`'s plan (build first when its sources changed: the
 * build script caches). One an earlier `npm start` left running (killed before its Ctrl-C) is stopped
 * first: its settings may not be today's. Resolves to startAs4Engine's `{ pid, url, startMs, logFile, stop }`.
 */
export async function startStackEngine(plan, { root, say }) {
  const build = ensureAs4Engine({ root });
  if (build.built) say(`AS4 engine built (${Math.round(build.buildMs / 1000)} s)`);
  const leftover = await stopAs4Engine({ dataDir: plan.dataDir });
  if (leftover.stopped) say(`stopped the AS4 engine an earlier run left running (pid ${leftover.pid})`);
  return startAs4Engine({ root, dataDir: plan.dataDir, env: plan.env });
}
