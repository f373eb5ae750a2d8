import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { myInvoisDocuments, onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, eventually, runCli, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;
/** The sandbox's Submit Documents limit per client id (MyInvois's is 100/min): a flood of 40 overruns it. */
const SUBMITS_PER_MINUTE = 10;
const FLOOD = 40;

describe('Fair sharing between tenants (#9, docs/areas.md "Malaysia (MyInvois)": per-client-id scheduling): one tenant flooding MyInvois submissions never holds another\'s', () => {
  let dataSource: DataSource;
  const apps: AppProcess[] = [];
  let flooder: Client;
  let quiet: Client;
  let flooderSupplier: string;
  let quietSupplier: string;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    // Topics of its own: no other suite's reporting-worker (other rate limits) takes part in this one's group.
    const env = { KAFKA_TOPIC_PREFIX: `fair${run}`, MYINVOIS_MODE: 'sandbox', MYINVOIS_SANDBOX_RATE_LIMITS: `submitDocuments=${SUBMITS_PER_MINUTE}` };
    expect(runCli(['topics'], testEnv(env)).status).toBe(0);
    const gateway = await startGateway({ ...env, MYINVOIS_WAIT_MS: '8000' });
    apps.push(gateway.app, startApp('reporting-worker', testEnv({ ...env, MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '500' })));
    flooder = new Client(gateway.url, (await createTenant(dataSource, 'e2e fair flooding')).apiKey);
    quiet = new Client(gateway.url, (await createTenant(dataSource, 'e2e fair quiet')).apiKey);
    flooderSupplier = await onboardMyInvoisSupplier(flooder, `flood-${run}`);
    quietSupplier = await onboardMyInvoisSupplier(quiet, `quiet-${run}`);
    await untilWorkersReady(gateway, 'reporting-worker');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  const submitAs = (client: Client, supplier: string, documentId: string) =>
    client.post('/api/einvoice/generate/invoice', invoiceBody({ ID: documentId }), { supplier_uuid: supplier, transport_mode: 'myinvois' });

  it(`${FLOOD} submissions of one tenant over its client id's limit: the other tenant's single submission is answered synchronously; the flood is deferred to its client id's slots, nothing lost`, async () => {
    // The flood reaches the gateway (and Kafka) first; most of it waits for an answer in vain (202).
    const flood = Array.from({ length: FLOOD }, (_, i) => submitAs(flooder, flooderSupplier, id(`FLOOD-${i}`)));
    await eventually('the flood recorded', async () => {
      const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM documents WHERE supplier_id = $1 AND area = 'my'`, [flooderSupplier]);
      return n === FLOOD ? true : undefined;
    });

    const started = Date.now();
    const answer = await submitAs(quiet, quietSupplier, id('QUIET'));
    const answeredMs = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: 'submitted', data: { submissionResponse: { acceptedDocuments: [{ invoiceCodeNumber: id('QUIET') }] } } });
    await myInvoisDocuments(quiet, () => quietSupplier).untilState(id('QUIET'), 'valid');
    console.info(`fair sharing: the quiet tenant's submission was answered in ${answeredMs} ms and valid ${Date.now() - started} ms after it was sent, behind ${FLOOD} flooding submissions`);

    // The flood: every answer in the one shape (200 answered or 202 pending), nothing lost.
    const answers = await Promise.all(flood);
    expect(answers.every((a) => a.status === 200 || a.status === 202)).toBe(true);
    // MyInvois turned part of the flood away (429): the client id's next call waits for its Retry-After,
    // recorded for every worker (authority_call_windows), not slept out in a partition.
    const deferred = await eventually('deferred submissions', async () => {
      const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM authority_call_windows WHERE area = 'my' AND supplier_id = $1`, [flooderSupplier]);
      return n > 0 ? n : undefined;
    });
    expect(deferred).toBeGreaterThan(0);
    // The sweep submits them as slots free up (one every 60/SUBMITS_PER_MINUTE s): more get through.
    const submittedNow = async () =>
      (await dataSource.query(`SELECT count(*)::int AS n FROM documents WHERE supplier_id = $1 AND area = 'my' AND report_state <> 'pending'`, [flooderSupplier]))[0].n as number;
    const before = await submittedNow();
    await eventually('a deferred submission submitted in its slot', async () => ((await submittedNow()) > before ? true : undefined), 30_000);
    // Nothing lost: every flooding document is recorded, answered or still waiting for its turn.
    const [{ n }] = await dataSource.query(`SELECT count(*)::int AS n FROM documents WHERE supplier_id = $1 AND area = 'my'`, [flooderSupplier]);
    expect(n).toBe(FLOOD);
  }, 180_000);
});
