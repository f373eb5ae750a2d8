/**
 * An AS4 engine (engines/as4) for tests, started through scripts/lib/as4-engine.mjs in a child
 * process (jest cannot import ESM), with the test PKI and its own inbound callback. Its log goes
 * to TEST_LOG_DIR when `npm test` set one, where the leak check looks for the secrets recorded here.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PeppolTestPki, TestCredential } from './peppol-pki';
import { recordSecret } from './secrets';
import { eventually, freePort, isAlive } from './stack';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');
const SCRIPT = path.join(ROOT, 'scripts', 'lib', 'as4-engine.mjs');

export interface EngineAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export interface TestAs4Engine {
  /** The AS4 endpoint other engines reach (what the SMP publishes). */
  readonly as4Url: string;
  /** The loopback control API (POST /outbound, GET /health). */
  readonly controlUrl: string;
  readonly secret: string;
  readonly startMs: number;
  /** POST /outbound with the engine's secret. */
  send(request: Record<string, unknown>): Promise<EngineAnswer>;
  /** kill -9, then a start on the same ports and data folder (its received MessageIds). */
  crashAndRestart(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestAs4EngineOptions {
  readonly name: string;
  readonly pki: PeppolTestPki;
  readonly ap: Pick<TestCredential, 'keystore'>;
  readonly smpUrl: string;
  readonly callbackUrl: string;
  /** The secret the engine sends to its callback and wants on its control API. */
  readonly secret?: string;
}

/** Builds the engine once (Maven, cached), so that the first start is not charged with the build. */
export async function buildAs4Engine(): Promise<{ built: boolean; buildMs?: number }> {
  const { stdout } = await run(process.execPath, [SCRIPT, 'build'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

export async function startAs4Engine(options: TestAs4EngineOptions): Promise<TestAs4Engine> {
  const secret = options.secret ?? randomBytes(18).toString('base64url');
  recordSecret(secret);
  recordSecret(options.pki.password);
  const [controlPort, inboundPort] = [await freePort(), await freePort()];
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `as4-engine-${options.name}-`));
  const logFile = path.join(process.env.TEST_LOG_DIR ?? dataDir, `as4-engine-${options.name}.log`);
  const as4Url = `http://127.0.0.1:${inboundPort}/as4`;
  const env = {
    ...process.env,
    AS4_ENGINE_URL: `http://127.0.0.1:${controlPort}`,
    AS4_ENGINE_SECRET: secret,
    AS4_PUBLIC_URL: as4Url,
    AS4_ENGINE_INBOUND_PORT: String(inboundPort),
    AS4_INBOUND_CALLBACK_URL: options.callbackUrl,
    PEPPOL_AP_KEYSTORE: options.ap.keystore,
    PEPPOL_AP_KEYSTORE_PASSWORD: options.pki.password,
    PEPPOL_TRUSTSTORE: options.pki.apTruststore,
    PEPPOL_TRUSTSTORE_PASSWORD: options.pki.password,
    PEPPOL_SMP_TRUSTSTORE: options.pki.smpTruststore,
    PEPPOL_SMP_TRUSTSTORE_PASSWORD: options.pki.password,
    PEPPOL_SMP_URL: options.smpUrl,
    // The test PKI publishes no CRL or OCSP responder.
    PEPPOL_REVOCATION_CHECK: 'off',
  };
  const stop = async () => {
    await run(process.execPath, [SCRIPT, 'stop', '--data-dir', dataDir], { cwd: ROOT }).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
  const launch = async (): Promise<{ pid: number; startMs: number }> => {
    try {
      const { stdout } = await run(process.execPath, [SCRIPT, 'start', '--data-dir', dataDir, '--log-file', logFile], { cwd: ROOT, env });
      return JSON.parse(stdout.trim().split('\n').pop()!);
    } catch (error) {
      // execFile's error carries the script's stderr: the engine's own reason for refusing.
      throw new Error(`AS4 engine ${options.name} did not start: ${(error as { stderr?: string }).stderr ?? error}`);
    }
  };
  let started: { pid: number; startMs: number };
  try {
    started = await launch();
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const controlUrl = `http://127.0.0.1:${controlPort}`;
  return {
    as4Url,
    controlUrl,
    secret,
    startMs: started.startMs,
    send: async (request) => {
      const response = await fetch(`${controlUrl}/outbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-engine-secret': secret },
        body: JSON.stringify(request),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    crashAndRestart: async () => {
      process.kill(started.pid, 'SIGKILL');
      const pid = started.pid;
      await eventually(`the end of engine ${options.name} (pid ${pid})`, async () => (isAlive(pid) ? undefined : true), 10_000);
      started = await launch();
    },
    stop,
  };
}
