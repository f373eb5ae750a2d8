import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildAs4Engine } from '../support/as4-engine';
import { type PeppolTestPki, createPeppolTestPki } from '../support/peppol-pki';
import { recordSecret } from '../support/secrets';
import { eventually, freePort, isAlive } from '../support/stack';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..', '..');
const SECRET = 'engine-secret-of-npm-start-e2e';
const run = Date.now().toString(36);


/**
 * #46: `npm start` with PEPPOL_MODE=live runs the AS4 engine as it runs the Kafka broker
 * (scripts/lib/peppol-live.mjs): started with the settings of the environment (the test PKI here; a fixed
 * SMP URL that nothing asks at start), its callback the stack's own gateway, its URL in the Ready lines,
 * and stopped with the stack on Ctrl-C. The broker is the suite's (already running: start.mjs leaves it).
 */
describe('#46 npm start runs the AS4 engine in live mode', () => {
  let start: ChildProcess;
  let output = '';
  let pki: PeppolTestPki;
  let dataDir: string;
  let engineUrl: string;
  let gatewayPort: number;

  beforeAll(async () => {
    // The build is Maven's (cached): not charged to npm start's own wait below.
    await buildAs4Engine();
    pki = await createPeppolTestPki();
    recordSecret(SECRET);
    recordSecret(pki.password);
    dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-as4-'));
    const [port, controlPort, inboundPort, mailPort, ...metrics] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
    gatewayPort = port;
    engineUrl = `http://127.0.0.1:${controlPort}`;
    start = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port), DEV_API_KEY_FILE: path.join(dataDir, 'dev-api-key'), KAFKA_TOPIC_PREFIX: `live${run}`, MAIL_CAPTURE_PORT: String(mailPort),
        METRICS_PORT_DELIVERY_WORKER: String(metrics[0]), METRICS_PORT_REPORTING_WORKER: String(metrics[1]), METRICS_PORT_WEBHOOK_DISPATCHER: String(metrics[2]),
        PEPPOL_MODE: 'live', AS4_ENGINE_URL: engineUrl, AS4_ENGINE_SECRET: SECRET, AS4_ENGINE_DATA_DIR: path.join(dataDir, 'as4-engine'),
        AS4_PUBLIC_URL: 'https://ap.e2e.example/as4', AS4_ENGINE_INBOUND_PORT: String(inboundPort),
        PEPPOL_AP_KEYSTORE: pki.apA.keystore, PEPPOL_AP_KEYSTORE_PASSWORD: pki.password,
        PEPPOL_TRUSTSTORE: pki.apTruststore, PEPPOL_TRUSTSTORE_PASSWORD: pki.password,
        PEPPOL_SMP_TRUSTSTORE: pki.smpTruststore, PEPPOL_SMP_TRUSTSTORE_PASSWORD: pki.password,
        PEPPOL_SMP_KEYSTORE: pki.smp.keystore, PEPPOL_SMP_KEYSTORE_PASSWORD: pki.password,
        PEPPOL_SMP_URL: 'http://127.0.0.1:9', PEPPOL_REVOCATION_CHECK: 'off',
        PEPPOL_SERVICE_PROVIDER_ID: '0242:000001', PEPPOL_SERVICE_PROVIDER_COUNTRY: 'BE',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    start.stdout?.on('data', (chunk) => (output += chunk));
    start.stderr?.on('data', (chunk) => (output += chunk));
    const began = Date.now();
    for (;;) {
      if (output.includes('Ready.')) break;
      if (start.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
      if (Date.now() - began > 240_000) throw new Error(`npm start was not ready within 4 minutes:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    process.stderr.write(`npm start (live) ready in ${Date.now() - began} ms; ${/AS4 engine started at .*/.exec(output)?.[0]}\n`);
  });

  afterAll(async () => {
    if (start?.exitCode === null) start.kill('SIGKILL');
    // Whatever happened above, no engine is left running.
    const pid = Number((await readFile(path.join(dataDir, 'as4-engine', 'as4-engine.pid'), 'utf8').catch(() => '')).trim());
    if (pid && isAlive(pid)) process.kill(pid, 'SIGKILL');
    await pki?.destroy();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('starts the engine with the environment\'s settings, names it in the Ready lines, and stops it on Ctrl-C', async () => {
    expect(output).toContain(`AS4 engine: ${engineUrl}  (AS4 endpoint https://ap.e2e.example/as4, served on port `);
    const health = await fetch(`${engineUrl}/health`, { headers: { 'x-engine-secret': SECRET } });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', apCertificate: { subject: expect.stringContaining('PBE000001') }, mode: 'smp:http://127.0.0.1:9' });
    // Its callback is the stack's own gateway (AS4_INBOUND_CALLBACK_URL unset): the engine's process says so.
    const pid = Number((await readFile(path.join(dataDir, 'as4-engine', 'as4-engine.pid'), 'utf8')).trim());
    const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
    expect(environ).toContain(`AS4_INBOUND_CALLBACK_URL=http://127.0.0.1:${gatewayPort}/internal/peppol/inbound`);

    start.kill('SIGINT');
    await eventually('npm start exits', async () => (start.exitCode !== null ? true : undefined), 60_000);
    expect(output).toContain('stopping the AS4 engine');
    // Gone, not a zombie waiting for init to reap it (npm start, its parent, has exited).
    await eventually('the engine gone', async () => (isAlive(pid) ? undefined : true), 10_000);
  });
});
