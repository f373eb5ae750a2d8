import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beVat } from '../support/identifiers';
import { freePort } from '../support/stack';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..', '..');

/** The apps `npm start` runs, by pid (their command lines name them). */
function appsOf(parent: number): Map<string, number> {
  let pids: number[] = [];
  try {
    pids = execFileSync('pgrep', ['-P', String(parent)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return new Map();
  }
  const apps = new Map<string, number>();
  for (const pid of pids) {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const app = /dist\/apps\/([a-z-]+)\/src\/main\.js/.exec(cmdline)?.[1];
    if (app) apps.set(app, pid);
  }
  return apps;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const withoutKeys = (env: NodeJS.ProcessEnv, keys: string[]) => Object.fromEntries(Object.entries(env).filter(([k]) => !keys.includes(k)));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * #9: `npm start` supervises its apps. A worker killed with SIGKILL is restarted on its own while the
 * gateway keeps answering; the stack prints "Ready." only once every worker holds its partitions;
 * Ctrl-C stops every app it started (none is left behind). Runs scripts/start.mjs on the suite's
 * database and broker (the broker is already running, so start.mjs leaves it alone).
 */
describe('#9 npm start supervises the stack', () => {
  let start: ChildProcess;
  let output = '';
  let url: string;
  let keyFile: string;

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    keyFile = path.join(tmpdir(), `einvoice-dev-key-${port}`);
    start = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      // The default session timeout (4 s): the killed worker's partitions move to its successor within seconds.
      env: withoutKeys({ ...process.env, PORT: String(port), DEV_API_KEY_FILE: keyFile }, ['KAFKA_SESSION_TIMEOUT_MS', 'KAFKA_HEARTBEAT_INTERVAL_MS']),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    start.stdout?.on('data', (chunk) => (output += chunk));
    start.stderr?.on('data', (chunk) => (output += chunk));
    for (let waited = 0; !output.includes('Ready.'); waited += 250) {
      if (start.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
      if (waited > 240_000) throw new Error(`npm start was not ready within 4 minutes:\n${output}`);
      await sleep(250);
    }
  });

  afterAll(async () => {
    if (start?.exitCode === null) start.kill('SIGKILL');
  });

  /** Onboards a BE seller and submits one invoice to a DE buyer hosted nowhere special, with the development key. */
  async function submitInvoice(): Promise<{ status(): Promise<string | undefined> }> {
    const key = readFileSync(keyFile, 'utf8').trim();
    const headers = { 'x-svc-auth-key': key, 'content-type': 'application/json' };
    const post = async (p: string, body: unknown, extra: Record<string, string> = {}) =>
      (await fetch(`${url}${p}`, { method: 'POST', headers: { ...headers, ...extra }, body: JSON.stringify(body) })).json() as Promise<{ data: Record<string, string> }>;
    const seller = (await post('/be/einvoice/onboard', { registered_name: 'Supervised NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], country: 'BE' })).data.supplier_uuid;
    const invoice = {
      ID: `SUP-${Date.now()}`, DocumentType: '380', IssueDate: '2026-03-15', TotalIncludingVat: 121,
      CustomerParty: { RegisteredName: 'Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] },
      InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
    };
    const documentId = (await post('/be/einvoice/generate/invoice', invoice, { supplier_uuid: seller })).data.DocumentID;
    return {
      status: async () => {
        const answer = await fetch(`${url}/be/einvoice/delivery-status/${documentId}`, { headers: { ...headers, supplier_uuid: seller } });
        return ((await answer.json()) as { data?: { DeliveryStatus?: string } }).data?.DeliveryStatus;
      },
    };
  }

  it('prints Ready only once every worker holds its partitions', async () => {
    const health = (await (await fetch(`${url}/health`)).json()) as { workers: Array<{ ready: boolean }> };
    expect(health.workers.map((w: { ready: boolean }) => w.ready)).toEqual([true, true, true]);
    expect([...appsOf(start.pid as number).keys()].sort()).toEqual(['delivery-worker', 'gateway', 'reporting-worker', 'webhook-dispatcher']);
  });

  it('restarts a worker killed with SIGKILL on its own, the gateway answering all along; Ctrl-C leaves no process behind', async () => {
    const before = appsOf(start.pid as number);
    const killed = before.get('delivery-worker') as number;
    const killedAt = Date.now();
    process.kill(killed, 'SIGKILL');
    // An invoice submitted right after the kill: delivered once the successor holds the partitions.
    const submitted = await submitInvoice();
    let gatewayFailures = 0;
    let restarted: number | undefined;
    let deliveredAfterMs: number | undefined;
    while (deliveredAfterMs === undefined && Date.now() - killedAt < 120_000) {
      const live = await fetch(`${url}/health/live`).catch(() => undefined);
      if (live?.status !== 200) gatewayFailures += 1;
      restarted ??= [...appsOf(start.pid as number).entries()].find(([app, pid]) => app === 'delivery-worker' && pid !== killed)?.[1];
      if ((await submitted.status()) === 'Delivered') deliveredAfterMs = Date.now() - killedAt;
      await sleep(100);
    }
    // The figure for the issue note (not asserted: no timed assertions).
    console.log(`delivery-worker killed: restarted, and an invoice submitted at once delivered after ${deliveredAfterMs} ms`);
    expect(restarted).toBeDefined();
    expect(deliveredAfterMs).toBeDefined();
    expect(gatewayFailures).toBe(0);
    expect(output).toMatch(/delivery-worker exited \(SIGKILL\); restarting it/);

    const everyPid = [...appsOf(start.pid as number).values()];
    start.kill('SIGINT');
    await new Promise((resolve) => start.once('exit', resolve));
    expect(start.exitCode).toBe(0);
    expect(everyPid.filter(alive)).toEqual([]);
  });
});
