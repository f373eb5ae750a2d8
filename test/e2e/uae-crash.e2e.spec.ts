import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { invoice } from '../../libs/areas/src/uae/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, runCli, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

const run = Date.now().toString(36);
let tinSeq = 0;
const freshTin = () => `1${String((Date.now() * 3 + tinSeq++ * 104729) % 1e9).padStart(9, '0')}`;
const participant = (tin: string, name: string) => ({
  peppol_id: `0235:${tin}`, legal_name: name, trn: `${tin}00003`, legal_id: { id: `TL-${tin}`, scheme: 'TL', authority: 'Dubai Economy and Tourism' }, street_address: 'Sheikh Zayed Road 1', city: 'Dubai', emirates_code: 'DXB', country_code: 'AE',
});
// Topics of its own: the suite's topics may hold other files' backlog, which a slow worker would work through first.
const own = { KAFKA_TOPIC_PREFIX: `uaecrash${run}`, UAE_SANDBOX_FTA_MLS_MS: '300', AUTHORITY_POLL_SWEEP_MS: '100' };
// Slow enough that both workers have documents in flight when they are killed.
const slowEnv = testEnv({ ...own, SANDBOX_AP_LATENCY_MS: '1500' });
const env = testEnv(own);

/**
 * #10: kill -9 of the delivery-worker and of the reporting-worker while UAE documents are in flight
 * (remote and hosted receivers, C2 and C3 reports): after their restart every accepted document is
 * delivered once and reported once per side, at the (sandbox) FTA and in our events.
 */
describe('#10 UAE workers killed mid-flight (kill -9): every document delivered and reported exactly once', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  const workers: AppProcess[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('finishes both tracks of every document after the crashes, with nothing done twice', async () => {
    expect(runCli(['topics'], env).status).toBe(0);
    const started = await startGateway(own);
    gateway = started.app;
    const client = new Client(started.url, (await createTenant(dataSource, `e2e uae crash ${run}`)).apiKey);
    const sellerTin = freshTin();
    const seller = (await client.post('/v1/participants', participant(sellerTin, 'Crash Seller LLC'))).body.data.participant_id;
    const buyerTin = freshTin();
    expect((await client.post('/v1/participants', participant(buyerTin, 'Crash Buyer LLC'))).status).toBe(201);
    const delivery = startApp('delivery-worker', slowEnv);
    const reporting = startApp('reporting-worker', slowEnv);
    workers.push(delivery, reporting);
    await untilWorkersReady(started, 'delivery-worker', 'reporting-worker');

    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      // Even: hosted here (delivered at once, reported by both sides); odd: another access point (slow).
      const receiver = i % 2 === 0 ? `0235:${buyerTin}` : `0235:${freshTin()}`;
      const answer = await client.post(`/v1/participants/${seller}/documents`, invoice({ document_identifier: `CRASH-${run}-${i}`, receiving_party: { peppol_id: receiver, legal_name: 'Buyer LLC', street_address: 'Khalifa Street 9', city: 'Abu Dhabi', emirates_code: 'AUH', trn: '134567890123003' } }));
      expect(answer.status).toBe(202);
      ids.push(answer.body.data.document_id);
    }
    const count = async (sql: string) => Number((await dataSource.query(sql, [ids]))[0].n);
    const sent = async () => Number((await dataSource.query(`SELECT count(*) AS n FROM sandbox_ap_messages WHERE sender = $1`, [`iso6523-actorid-upis::0235:${sellerTin}`]))[0].n);
    await eventually('a first remote transmission', async () => ((await sent()) > 0 ? true : undefined));
    await delivery.crash();
    await eventually('a first report at the FTA', async () => ((await count(`SELECT count(*) AS n FROM uae_fta_sandbox_reports WHERE document_uuid = ANY($1::text[])`)) > 0 ? true : undefined));
    await reporting.crash();
    const completed = `SELECT count(*) AS n FROM documents WHERE id = ANY($1::uuid[])
      AND uae_summary_status(uae_reporting_status(report_state), uae_exchange_status(direction, delivery_status)) = 'completed'`;
    expect(await count(completed)).toBeLessThan(ids.length);

    workers.push(startApp('delivery-worker', env), startApp('reporting-worker', env));
    await eventually('every document completed after the restarts', async () => ((await count(completed)) === ids.length ? true : undefined), 120_000);
    const received = `SELECT count(*) AS n FROM documents WHERE source_document_id = ANY($1::uuid[]) AND report_state = 'reported'`;
    await eventually('every received copy reported', async () => ((await count(received)) === ids.length / 2 ? true : undefined), 120_000);

    const perDocument: Array<{ id: string; delivered: number; received: number; accepted: number; validated: number; c2: number; c3: number; messages: number }> = await dataSource.query(
      `SELECT d.id,
              (SELECT count(*) FROM events e WHERE e.stream_id = 'document-' || d.id AND e.type = 'DocumentDelivered')::int AS delivered,
              (SELECT count(*) FROM events e WHERE e.type = 'DocumentReceived' AND e.data->>'sourceDocumentId' = d.id::text)::int AS received,
              (SELECT count(*) FROM events e WHERE e.stream_id = 'report-' || d.report_id AND e.type = 'AuthorityReportAccepted')::int AS accepted,
              -- The FTA's verdict, recorded once: polled (Validated), or found with the report when the restarted worker
              -- recovered a report sent before its crash whose MLS had come meanwhile (Accepted, final).
              (SELECT count(*) FROM events e WHERE e.stream_id = 'report-' || d.report_id
                 AND (e.type = 'AuthorityReportValidated' OR (e.type = 'AuthorityReportAccepted' AND e.data->>'final' = 'true')))::int AS validated,
              -- The TDD codes the reporter's role: 01 the sender's access point (C2), 02 the receiver's (C3).
              (SELECT count(*) FROM uae_fta_sandbox_reports r WHERE r.document_uuid = d.id::text AND r.reporter_role = '01')::int AS c2,
              (SELECT count(*) FROM uae_fta_sandbox_reports r WHERE r.document_uuid = d.id::text AND r.reporter_role = '02')::int AS c3,
              (SELECT count(*) FROM uae_fta_sandbox_messages m JOIN uae_fta_sandbox_reports r ON r.reference = m.reference
                 WHERE r.document_uuid = d.id::text AND r.reporter_role = '01')::int AS messages
       FROM documents d WHERE d.id = ANY($1::uuid[]) ORDER BY d.document_number`,
      [ids],
    );
    expect(perDocument).toHaveLength(ids.length);
    for (const row of perDocument) {
      const hosted = ids.indexOf(row.id) % 2 === 0;
      expect({ ...row, id: undefined }).toEqual({ id: undefined, delivered: 1, received: hosted ? 1 : 0, accepted: 1, validated: 1, c2: 1, c3: hosted ? 1 : 0, messages: 1 });
    }
  });
});
