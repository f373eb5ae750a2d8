import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { invoiceBody as myInvoisInvoice } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { intraCommunityInvoice } from '../support/fixtures';
import { Client } from '../support/http';
import { beVat, deVat } from '../support/identifiers';
import { onboardMyInvoisSupplier } from '../support/myinvois';
import { eventually, freePort, isAlive } from '../support/stack';
import { SteadyLoad } from '../support/steady-load';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..', '..');
const run = Date.now().toString(36);

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

const withoutKeys = (env: NodeJS.ProcessEnv, keys: string[]) => Object.fromEntries(Object.entries(env).filter(([k]) => !keys.includes(k)));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * #9: `npm start` supervises its apps. Each app killed with SIGKILL in turn, under load, is restarted
 * on its own while the others keep answering, and nothing is lost or done twice; the stack prints
 * "Ready." only once every worker holds its partitions; Ctrl-C stops every app it started (none is
 * left behind). Runs scripts/start.mjs on the suite's database and broker (the broker is already
 * running, so start.mjs leaves it alone), with topics of its own so no other suite's worker takes
 * part in its consumer groups.
 */
describe('#9 npm start supervises the stack', () => {
  let start: ChildProcess;
  let output = '';
  let url: string;
  // The gateway's operator endpoints (the detailed /health): a port of their own (#47).
  let operatorUrl: string;
  let keyFile: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const operatorPort = await freePort();
    operatorUrl = `http://127.0.0.1:${operatorPort}`;
    keyFile = path.join(tmpdir(), `einvoice-dev-key-${port}`);
    start = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
      cwd: ROOT,
      // The default session timeout (4 s): the killed worker's partitions move to its successor within seconds.
      env: withoutKeys({ ...process.env, PORT: String(port), OPERATOR_PORT: String(operatorPort), DEV_API_KEY_FILE: keyFile, KAFKA_TOPIC_PREFIX: `sup${run}` }, ['KAFKA_SESSION_TIMEOUT_MS', 'KAFKA_HEARTBEAT_INTERVAL_MS']),
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
    await dataSource?.destroy();
  });

  it('prints Ready only once every worker holds its partitions', async () => {
    const health = (await (await fetch(`${operatorUrl}/health`)).json()) as { workers: Array<{ ready: boolean }> };
    expect(health.workers.map((w: { ready: boolean }) => w.ready)).toEqual([true, true, true]);
    expect([...appsOf(start.pid as number).keys()].sort()).toEqual(['delivery-worker', 'gateway', 'reporting-worker', 'webhook-dispatcher']);
  });

  it('kill -9 of each app in turn under load: the others keep answering, the killed app comes back by itself, nothing is lost or done twice', async () => {
    const client = new Client(url, readFileSync(keyFile, 'utf8').trim());
    const load = new SteadyLoad(client);
    const hook = await new WebhookReceiver().start();
    try {
      // A BE seller invoicing a DE supplier hosted here (delivery-worker, then a DocumentReceived
      // webhook: webhook-dispatcher), and a Malaysian supplier reporting to MyInvois (reporting-worker).
      const onboard = async (area: string, body: unknown) => (await load.post(`/${area}/einvoice/onboard`, body, {}, [201]))?.body.data.supplier_uuid as string;
      const receiverVat = deVat();
      const receiver = await onboard('de', { registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: receiverVat }], street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' });
      expect((await load.post('/de/einvoice/webhooks', { url: hook.url, events: ['DocumentReceived'] }, { supplier_uuid: receiver }, [201]))?.status).toBe(201);
      const seller = await onboard('be', { registered_name: 'Supervised NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], country: 'BE' });
      const malaysian = await onboardMyInvoisSupplier(client, `supervised-${run}`);

      const peppol: Array<{ ID: string; documentId: string }> = [];
      const myInvois: string[] = [];
      const submitPeppol = async (ID: string) => {
        const answer = await load.post('/be/einvoice/generate/invoice', intraCommunityInvoice(ID, receiverVat), { supplier_uuid: seller }, [202]);
        if (answer) peppol.push({ ID, documentId: answer.body.data.DocumentID });
        return answer?.body.data.DocumentID as string | undefined;
      };
      // The reporting worker down, the gateway answers 202 (pending) after its wait: that is the killed app's own work.
      const submitMyInvois = async (ID: string) => {
        const answer = await load.post('/api/einvoice/generate/invoice', myInvoisInvoice({ ID }), { supplier_uuid: malaysian, transport_mode: 'myinvois' }, [200, 202]);
        if (answer) myInvois.push(ID);
        return answer !== undefined;
      };
      const dbQuery = async <T>(sql: string, params: unknown[]): Promise<T[]> => dataSource.query(sql, params);
      const delivered = async (documentId: string) =>
        (await dbQuery<{ s: string }>(`SELECT delivery_status AS s FROM documents WHERE id = $1`, [documentId]))[0]?.s === 'Delivered' ? true : undefined;
      const webhookFor = (ID: string) => hook.received.some((r) => JSON.parse(r.body).DocumentId === ID) || undefined;

      load.loop((n) => submitPeppol(`SUP-P-${run}-a${n}`).then(() => undefined), 150);
      load.loop((n) => submitPeppol(`SUP-P-${run}-b${n}`).then(() => undefined), 150);
      load.loop((n) => submitMyInvois(`SUP-M-${run}-${n}`).then(() => undefined), 1_000);
      // /health/live every 100 ms: when the gateway did not answer.
      const gatewayDown: number[] = [];
      load.loop(async () => {
        const live = await fetch(`${url}/health/live`).catch(() => undefined);
        if (live?.status !== 200) gatewayDown.push(Date.now());
      }, 100);
      await sleep(3_000);

      /** What shows the killed app at work again, from the kill: resolves with the moment it did. */
      const backAtWork: Record<string, (killedAt: number) => Promise<unknown>> = {
        'delivery-worker': async () => {
          const documentId = await submitPeppol(`SUP-PROBE-D-${run}`);
          return eventually('probe delivered', () => delivered(documentId as string), 60_000);
        },
        'reporting-worker': async () => {
          expect(await submitMyInvois(`SUP-PROBE-R-${run}`)).toBe(true);
          return eventually('probe answered by MyInvois', async () =>
            (await dbQuery<{ state: string }>(`SELECT report_state AS state FROM documents WHERE supplier_id = $1 AND document_number = $2`, [malaysian, `SUP-PROBE-R-${run}`]))[0]?.state !== 'pending' || undefined, 60_000);
        },
        'webhook-dispatcher': async () => {
          await submitPeppol(`SUP-PROBE-W-${run}`);
          return eventually('probe webhook', async () => webhookFor(`SUP-PROBE-W-${run}`), 60_000);
        },
        gateway: async () => eventually('gateway answering', async () => ((await fetch(`${url}/health/live`).catch(() => undefined))?.status === 200) || undefined, 60_000),
      };
      const windows: Record<string, { killedAt: number; backAt: number }> = {};
      for (const app of ['delivery-worker', 'reporting-worker', 'webhook-dispatcher', 'gateway']) {
        const killed = appsOf(start.pid as number).get(app) as number;
        const killedAt = Date.now();
        process.kill(killed, 'SIGKILL');
        await backAtWork[app](killedAt);
        const backAt = Date.now();
        windows[app] = { killedAt, backAt };
        const restarted = await eventually(`${app} restarted`, async () => {
          const pid = appsOf(start.pid as number).get(app);
          return pid !== undefined && pid !== killed ? pid : undefined;
        });
        expect(restarted).not.toBe(killed);
        expect(output).toContain(`${app} exited (SIGKILL); restarting it`);
        // The figure for the issue note (not asserted: no timed assertions).
        console.log(`${app} killed under load: back at its work ${backAt - killedAt} ms after the SIGKILL`);
        await eventually('every worker holds its partitions again', async () => {
          const health = (await (await fetch(`${operatorUrl}/health`).catch(() => undefined))?.json().catch(() => undefined)) as { workers?: Array<{ ready: boolean }> } | undefined;
          return health?.workers?.every((w) => w.ready) || undefined;
        }, 60_000);
        await sleep(2_000);
      }
      await load.stop();

      // The others kept answering: the gateway was unreachable only while it was the one killed.
      const { killedAt, backAt } = windows.gateway;
      const outsideOutage = (t: number) => t < killedAt || t > backAt + 1_000;
      expect(gatewayDown.filter(outsideOutage)).toEqual([]);
      expect(load.unreachable.filter(outsideOutage)).toEqual([]);
      expect(load.refusals).toEqual([]);
      console.log(`under load: ${peppol.length} Peppol invoices and ${myInvois.length} MyInvois invoices accepted; gateway unreachable ${gatewayDown.length} × 100 ms while killed`);

      // Nothing lost: every invoice delivered, every received copy announced, every MyInvois invoice validated.
      const ids = peppol.map((p) => p.documentId);
      await eventually('every Peppol invoice delivered', async () =>
        (await dbQuery<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE id = ANY($1::uuid[]) AND delivery_status = 'Delivered'`, [ids]))[0].n === ids.length || undefined, 120_000);
      await eventually('a webhook for every received invoice', async () => peppol.every((p) => webhookFor(p.ID)) || undefined, 120_000);
      await eventually('every MyInvois invoice valid', async () =>
        (await dbQuery<{ n: number }>(`SELECT count(*)::int AS n FROM documents WHERE supplier_id = $1 AND report_state = 'reported'`, [malaysian]))[0].n === myInvois.length || undefined, 120_000);

      // Nothing done twice: one document per ID (retried requests replayed), one delivery and one received copy each,
      // one webhook event per received copy (a re-sent POST keeps its webhook-id), one MyInvois document per ID.
      const [{ outgoing }] = await dbQuery<{ outgoing: number }>(`SELECT count(*)::int AS outgoing FROM documents WHERE supplier_id = $1`, [seller]);
      expect(outgoing).toBe(peppol.length);
      const twice = await dbQuery<{ id: string }>(
        `SELECT d.id FROM documents d WHERE d.id = ANY($1::uuid[]) AND (
           (SELECT count(*) FROM events e WHERE e.stream_id = 'document-' || d.id AND e.type = 'DocumentDelivered') <> 1 OR
           (SELECT count(*) FROM events e WHERE e.type = 'DocumentReceived' AND e.data->>'sourceDocumentId' = d.id::text) <> 1)`,
        [ids],
      );
      expect(twice).toEqual([]);
      const [{ inbox }] = await dbQuery<{ inbox: number }>(`SELECT count(*)::int AS inbox FROM documents WHERE supplier_id = $1 AND direction = 'incoming'`, [receiver]);
      expect(inbox).toBe(peppol.length);
      const webhookIds = new Set(hook.received.map((r) => String(r.headers['webhook-id'])));
      expect(webhookIds.size).toBe(peppol.length);
      const [{ myDocuments }] = await dbQuery<{ myDocuments: number }>(`SELECT count(*)::int AS "myDocuments" FROM documents WHERE supplier_id = $1`, [malaysian]);
      expect(myDocuments).toBe(myInvois.length);
      const [{ atAuthority }] = await dbQuery<{ atAuthority: number }>(
        `SELECT count(*)::int AS "atAuthority" FROM myinvois_sandbox_documents WHERE summary->>'internalId' = ANY($1::text[])`,
        [myInvois],
      );
      expect(atAuthority).toBe(myInvois.length);
      console.log(`webhooks: ${hook.received.length} POSTs for ${webhookIds.size} events (re-sent after a kill: ${hook.received.length - webhookIds.size})`);
    } finally {
      await load.stop();
      await hook.close();
    }
  });

  it('Ctrl-C stops every app it started: none is left behind', async () => {
    const everyPid = [...appsOf(start.pid as number).values()];
    expect(everyPid).toHaveLength(4);
    start.kill('SIGINT');
    await new Promise((resolve) => start.once('exit', resolve));
    expect(start.exitCode).toBe(0);
    expect(everyPid.filter(isAlive)).toEqual([]);
  });
});
