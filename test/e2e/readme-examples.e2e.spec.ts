import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readmeExamples, runScript, secretsIn } from '../support/readme-examples';
import { recordSecret } from '../support/secrets';
import { AppProcess, runCli, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const README = path.join(__dirname, '..', '..', 'README.md');

/** Each area's first-document example, and what its last line shows once the document reached its final state. */
const FINAL_STATE: Record<string, string> = {
  be: '"DeliveryStatus":"Delivered"',
  de: '"DeliveryStatus":"Delivered"',
  sg: '"DeliveryStatus":"Delivered"',
  peppol: '"SmlActivation":true',
  my: '"state":"valid"',
  ae: '"status":"completed"',
  es: '"aeat_status":"Correcto"',
  ng: '"status":"SIGNED"',
  jo: '"jofotara_status":"SUBMITTED"',
  pl: '"Status":"Accepted"',
  ar: '"Resultado":"A"',
};

/**
 * #44 README.md is a map a newcomer can follow: every first-document example in it (one per area,
 * ```sh example=<area>) runs as written, with `bash -euo pipefail`, against one stack started here
 * (the gateway, the delivery and reporting workers), and its document reaches its final state.
 */
describe('#44 README: the first-document examples run as written', () => {
  const examples = readmeExamples(readFileSync(README, 'utf8'));
  const apps: AppProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    // The sandbox authorities at a test's pace (the AEAT's 60 s between an issuer's batches: 2 s here).
    const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100', MYINVOIS_POLL_MS: '500', VERIFACTU_SANDBOX_WAIT_S: '2' });
    const gateway = await startGateway({ AUTHORITY_WAIT_MS: '20000', MYINVOIS_WAIT_MS: '8000' });
    apps.push(gateway.app, startApp('delivery-worker', workerEnv), startApp('reporting-worker', workerEnv));
    const tenant = runCli(['tenants', 'create', `readme examples ${Date.now()}`]);
    expect(tenant.status).toBe(0);
    const apiKey = tenant.stdout.trim();
    recordSecret(apiKey);
    for (const example of examples) secretsIn(example.script).forEach(recordSecret);
    env = { GATEWAY: gateway.url, API_KEY: apiKey };
    await untilWorkersReady(gateway.url, 'delivery-worker', 'reporting-worker');
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
  });

  it('has one example per area, each marked once', () => {
    expect(examples.map((e) => e.area).sort()).toEqual(Object.keys(FINAL_STATE).sort());
  });

  it.each(Object.keys(FINAL_STATE))('%s: the example exits 0 and its last line shows the final state', async (area) => {
    const example = examples.find((e) => e.area === area);
    expect(example).toBeDefined();
    const run = await runScript(example!.script, env);
    const lastLine = run.stdout.trim().split('\n').pop() ?? '';
    // On failure the script's own output (each answer it got, on stderr) says which step failed and why.
    expect({ area, code: run.code, final: lastLine.includes(FINAL_STATE[area]), output: `${run.stderr}\n${run.stdout}` }).toEqual(
      { area, code: 0, final: true, output: expect.any(String) },
    );
  });
});
