/**
 * The release test (#44): what the image holds, started as the image and docker-compose.yml start it.
 * Production dependencies only, installed into a fresh folder as the Dockerfile does (`npm ci
 * --omit=dev`), the compiled dist/ and the path-alias hook; no `../shared` beside it and no
 * CONFORMANCE_DIR; the compose file's one-shot migrate, then the four apps with their exact commands.
 * Every app becomes ready, and the README's first document of every area (```sh example=<area>),
 * run as written with `bash -euo pipefail` against it, reaches its final state in the sandbox: the
 * README's examples are tested here, on the release.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FINAL_STATE, readmeExamples, runScript, secretsIn } from '../support/readme-examples';
import { RELEASE_APPS, ReleaseStack, commandOf, dockerfileCommand, releaseDatabaseUrl, releaseFolderHasNoShared } from '../support/release-stack';
import { recordSecret } from '../support/secrets';

const README = path.join(__dirname, '..', '..', 'README.md');

/**
 * The sandbox authorities at a test's pace, the only settings added to docker-compose.yml's: the
 * sandbox AEAT's 60 s between an issuer's batches (2 s here), the workers' poll sweeps, and how long
 * the gateway waits for an authority's answer before it answers 202 (long, for a loaded machine).
 */
const TEST_PACE = { AUTHORITY_POLL_SWEEP_MS: '100', MYINVOIS_POLL_MS: '500', VERIFACTU_SANDBOX_WAIT_S: '2', AUTHORITY_WAIT_MS: '20000', MYINVOIS_WAIT_MS: '8000' };

describe('the release, as the image runs it (#44)', () => {
  const examples = readmeExamples(readFileSync(README, 'utf8'));
  let stack: ReleaseStack;
  let apiKey: string;

  beforeAll(async () => {
    stack = ReleaseStack.prepare({
      databaseUrl: releaseDatabaseUrl(process.env.DATABASE_URL!),
      redisUrl: process.env.REDIS_URL!,
      kafkaBrokers: process.env.KAFKA_BROKERS!,
      topicPrefix: `${process.env.KAFKA_TOPIC_PREFIX}rel`,
      settings: TEST_PACE,
    });
    stack.cli(['reset-test-database']);
    expect(await stack.migrate()).toBe(0);
    await stack.startApps();
    apiKey = stack.cli(['tenants', 'create', 'release']);
    recordSecret(apiKey);
    for (const example of examples) secretsIn(example.script).forEach(recordSecret);
  }, 600_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('holds no development package and has no ../shared beside it', () => {
    expect(releaseFolderHasNoShared(stack)).toBe(true);
    for (const devOnly of ['jest', 'typescript', 'smtp-server', 'mailparser', 'fast-check']) {
      expect([devOnly, existsSync(path.join(stack.folder, 'node_modules', devOnly))]).toEqual([devOnly, false]);
    }
    expect(existsSync(path.join(stack.folder, 'libs'))).toBe(false);
  });

  it('starts the gateway with the Dockerfile CMD, which is also its docker-compose.yml command', () => {
    expect(commandOf('gateway')).toEqual(dockerfileCommand());
    expect(stack.children.length).toBe(1 + RELEASE_APPS.length);
  });

  it('each app said once, at its start, that the official conformance checks are off (no CONFORMANCE_DIR)', () => {
    for (const app of RELEASE_APPS) expect([app, stack.outputs.get(app)?.match(/official conformance checks off/g)?.length]).toEqual([app, 1]);
  });

  it('each app said once, at its start, that kafkajs runs with every patch in force (#45)', () => {
    for (const app of RELEASE_APPS) expect([app, stack.outputs.get(app)?.match(/"message":"kafkajs patched"/g)?.length]).toEqual([app, 1]);
  });

  it('starts its apps on the Node release the image names (the `node` of their PATH)', () => {
    const image = /^ARG NODE_VERSION=(\S+)$/m.exec(readFileSync(path.join(__dirname, '..', '..', 'Dockerfile'), 'utf8'))?.[1];
    const ran = spawnSync('node', ['-p', 'process.versions.node'], { cwd: stack.folder, env: stack.environment(), encoding: 'utf8' });
    expect(ran.stdout.trim().split('.')[0]).toBe(image?.split('.')[0]);
  });

  it('finds one first-document example per area in the README, each marked once', () => {
    expect(examples.map((e) => e.area).sort()).toEqual(Object.keys(FINAL_STATE).sort());
  });

  // The areas' examples are independent: all at once, as eleven integrators would.
  it('takes every README first document to its final state, each example run as written', async () => {
    const runs = await Promise.all(
      examples.map(async (example) => {
        const run = await runScript(example.script, { GATEWAY: stack.gatewayUrl, API_KEY: apiKey });
        const lastLine = run.stdout.trim().split('\n').pop() ?? '';
        // On failure the script's own output (each answer it got, on stderr) says which step failed and why.
        return { area: example.area, code: run.code, final: lastLine.includes(FINAL_STATE[example.area] ?? '\u0000'), output: `${run.stderr}\n${run.stdout}` };
      }),
    );
    expect(runs.map(({ area, code, final }) => ({ area, code, final }))).toEqual(examples.map(({ area }) => ({ area, code: 0, final: true })));
    // Every failing example shown whole (each answer it got), not only the first.
    expect(runs.filter((run) => run.code !== 0 || !run.final)).toEqual([]);
  });
});
