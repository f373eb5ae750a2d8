import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { cancellationHash, registrationHash } from '../../libs/areas/src/verifactu/hash';
import { makeTestCertificates } from '../../libs/areas/src/shared/testing/certificates';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const number = (name: string) => `${name}-${run}`;
/** The sandbox AEAT's TiempoEsperaEnvio here (60 s at the AEAT): short, so several batches happen. */
const WAIT_S = 2;
const workerEnv = testEnv({ AUTHORITY_BATCH_SWEEP_MS: '100', VERIFACTU_SANDBOX_WAIT_S: String(WAIT_S) });
const recipient = { nif: 'B00000000', name: 'Cliente SA' };
/** The AEAT's test taxpayer; a NIF per run would need a real control letter, so runs share it and differ by number. */
const issuer = { nif: '89890001K', name: 'Empresa de Pruebas SL' };

const f1 = (id: string, extra: Record<string, unknown> = {}) => ({
  document_identifier: id,
  issue_date: '2026-11-25',
  invoice_type: 'F1',
  description: 'Consulting, November',
  recipient,
  taxlines: [{ tax_base: 100, tax_rate: 21, repercutida_quota: '21.00' }],
  total_amount: '121.00',
  ...extra,
});

/**
 * #12 Spain over HTTP with the four apps: onboarding, records chained per issuer (F1 and F2 in both
 * tax-line spellings, R1), the answer's uuid and QR, the rules' 400s and the duplicate's 409, 20
 * concurrent records of one issuer in one unbroken chain (every hash recomputed), and the records sent
 * to the sandbox AEAT in batches that respect its waiting time, with its refusal shown by its code.
 */
describe('#12 Spain: VeriFactu records over HTTP', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess | undefined;
  let client: Client;
  let participant: string;
  const headers = () => ({ 'participant-id': participant });

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e verifactu');
    const started = await startGateway({});
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startApp('reporting-worker', workerEnv);
    const onboarded = await client.post('/es/verifactu/onboard', issuer);
    expect(onboarded.status).toBe(201);
    expect(onboarded.body).toMatchObject({ status: 'success', data: { participant_id: expect.any(String) } });
    participant = onboarded.body.data.participant_id;
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const record = async (uuid: string) => (await client.get(`/es/verifactu/records/${uuid}`, headers())).body.data;

  it('refuses a NIF whose control character is wrong, at nif', async () => {
    const answer = await client.post('/es/verifactu/onboard', { nif: '89890001A', name: 'X' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'nif', code: 'VERIFACTU.NIF' })]);
  });

  it('keeps an issuer\'s own AEAT certificate sealed: checked, never answered, never in an event', async () => {
    const certs = makeTestCertificates();
    const refused = await client.post('/es/verifactu/onboard', { ...issuer, certificate_pem: certs.client.cert, private_key_pem: certs.stranger.key });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'private_key_pem', code: 'VERIFACTU.CERTIFICATE' })]);
    const garbage = await client.post('/es/verifactu/onboard', { ...issuer, certificate_pem: 'not a certificate', private_key_pem: certs.client.key });
    expect(garbage.body.errors).toEqual([expect.objectContaining({ path: 'certificate_pem' })]);
    // Another issuer: the account onboarded `issuer`'s NIF already (409 SUPPLIER.EXISTS, #47).
    const onboarded = await client.post('/es/verifactu/onboard', { ...issuer, nif: '12345678Z', certificate_pem: certs.client.cert, private_key_pem: certs.client.key });
    expect(onboarded.status).toBe(201);
    expect(JSON.stringify(onboarded.body)).not.toContain('BEGIN');
    const id = onboarded.body.data.participant_id;
    const secrets: Array<{ name: string; sealed: string }> = await dataSource.query(`SELECT name, sealed FROM supplier_secrets WHERE supplier_id = $1 ORDER BY name`, [id]);
    expect(secrets.map((r) => r.name)).toEqual(['verifactu.certificate', 'verifactu.private_key']);
    expect(secrets.every((r) => r.sealed.startsWith('v1.') && !r.sealed.includes('BEGIN'))).toBe(true);
    const events: Array<{ data: string }> = await dataSource.query(`SELECT data::text FROM events WHERE stream_id = $1`, [`supplier-${id}`]);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => !e.data.includes('BEGIN'))).toBe(true);
  });

  it('answers a record with its uuid and the AEAT QR link and image; GET shows its chain', async () => {
    const answer = await client.post('/es/verifactu/generate', f1(number('A/1')), headers());
    expect(answer.status).toBe(200);
    const { uuid, qr_link, qr_code } = answer.body.message;
    expect(answer.body.status).toBe('success');
    expect(qr_link).toBe(`https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=${encodeURIComponent(number('A/1'))}&fecha=25-11-2026&importe=121.00`);
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    const read = await record(uuid);
    expect(read).toMatchObject({ uuid, document_identifier: number('A/1'), invoice_type: 'F1', tax_total: '21.00', qr_link, hash: expect.stringMatching(/^[0-9A-F]{64}$/) });
  });

  it('takes the other tax-line spelling, F2 without a recipient, and R1 naming the rectified invoice', async () => {
    const f2 = await client.post('/es/verifactu/generate', {
      ...f1(number('T/1')), invoice_type: 'F2', recipient: undefined, taxlines: [{ taxable_base: 10, tax_rate: 21, charged_tax: 2.1 }], total_amount: 12.1,
    }, headers());
    expect(f2.status).toBe(200);
    const r1 = await client.post('/es/verifactu/rectify', {
      ...f1(number('R/1')), invoice_type: 'R1', nif: issuer.nif, name: issuer.name, rectification_type: 'I',
      rectified_invoices: [{ document_identifier: number('A/1'), issue_date: '2026-11-25' }],
    }, headers());
    expect(r1.status).toBe(200);
  });

  it('answers 400 naming the field for the rules, and 409 for a number the issuer already used', async () => {
    const total = await client.post('/es/verifactu/generate', f1(number('BAD/1'), { total_amount: '125.00' }), headers());
    expect(total.status).toBe(400);
    expect(total.body.errors).toEqual([expect.objectContaining({ path: 'total_amount', code: 'VERIFACTU.TOTAL_MISMATCH', message: expect.stringContaining('121.00') })]);
    const noRecipient = await client.post('/es/verifactu/generate', f1(number('BAD/2'), { recipient: undefined }), headers());
    expect(noRecipient.body.errors).toEqual([expect.objectContaining({ path: 'recipient', code: 'VERIFACTU.RECIPIENT_REQUIRED' })]);
    const wrongIssuer = await client.post('/es/verifactu/rectify', {
      ...f1(number('BAD/3')), invoice_type: 'R1', nif: 'B00000000', name: issuer.name, rectification_type: 'I', rectified_invoices: [{ document_identifier: 'x', issue_date: '2026-11-25' }],
    }, headers());
    expect(wrongIssuer.body.errors).toEqual([expect.objectContaining({ path: 'nif', code: 'VERIFACTU.ISSUER_MISMATCH' })]);
    const again = await client.post('/es/verifactu/generate', f1(number('A/1')), headers());
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([expect.objectContaining({ path: 'document_identifier', code: 'DOCUMENT.DUPLICATE_ID' })]);
  });

  it('cancels an invoice with a record in the chain; an unknown invoice is a 404, a second cancellation a 409', async () => {
    const made = await client.post('/es/verifactu/generate', f1(number('X/1')), headers());
    expect(made.status).toBe(200);
    const cancelled = await client.post('/es/verifactu/cancel', { document_identifier: number('X/1'), issue_date: '2026-11-25' }, headers());
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ status: 'success', message: { uuid: expect.any(String) } });
    expect(await record(cancelled.body.message.uuid)).toMatchObject({ document_identifier: number('X/1'), invoice_type: 'anulacion', hash: expect.stringMatching(/^[0-9A-F]{64}$/) });
    const unknown = await client.post('/es/verifactu/cancel', { document_identifier: number('NONE'), issue_date: '2026-11-25' }, headers());
    expect(unknown.status).toBe(404);
    const wrongDate = await client.post('/es/verifactu/cancel', { document_identifier: number('X/1'), issue_date: '2026-11-24' }, headers());
    expect(wrongDate.status).toBe(404);
    const again = await client.post('/es/verifactu/cancel', { document_identifier: number('X/1'), issue_date: '2026-11-25' }, headers());
    expect(again.status).toBe(409);
  });

  it('20 concurrent records of one issuer make one unbroken chain: each hash recomputed, none forked, skipped or repeated', async () => {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => client.post('/es/verifactu/generate', f1(number(`C/${i}`)), headers())));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    // The whole chain of this issuer in this tenant (the earlier tests' records too).
    const rows: Array<{ id: string }> = await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1`, [participant]);
    const records = await Promise.all(rows.map((r) => record(r.id)));
    for (const r of records) {
      if (r.invoice_type === 'anulacion') {
        const [y, m, d] = r.issue_date.split('-');
        expect(cancellationHash({ issuerNif: issuer.nif, number: r.document_identifier, issueDate: `${d}-${m}-${y}`, previousHash: r.previous_hash ?? '', generatedAt: r.generated_at })).toBe(r.hash);
        continue;
      }
      const total = Number(r.total_amount).toFixed(2);
      const [y, m, d] = r.issue_date.split('-');
      expect(registrationHash({
        issuerNif: issuer.nif, number: r.document_identifier, issueDate: `${d}-${m}-${y}`, invoiceType: r.invoice_type, taxTotal: r.tax_total, total,
        previousHash: r.previous_hash ?? '', generatedAt: r.generated_at,
      })).toBe(r.hash);
    }
    const firsts = records.filter((r) => r.previous_hash === null);
    expect(firsts).toHaveLength(1);
    const hashes = new Set(records.map((r) => r.hash));
    const previous = records.filter((r) => r.previous_hash !== null).map((r) => r.previous_hash);
    expect(new Set(previous).size).toBe(previous.length); // no fork: no record is the previous of two
    expect(previous.every((h) => hashes.has(h))).toBe(true); // no gap: each previous is a record of the chain
    // Walking from the first record reaches every record once.
    const next = new Map(records.filter((r) => r.previous_hash).map((r) => [r.previous_hash, r]));
    let length = 1;
    for (let at = next.get(firsts[0].hash); at; at = next.get(at.hash)) length += 1;
    expect(length).toBe(records.length);
  });

  it('sends the records to the AEAT in batches that respect its waiting time; its refusal shows with its code', async () => {
    const refused = await client.post('/es/verifactu/generate', {
      ...f1(number('BIG/1')), invoice_type: 'F2', recipient: undefined, taxlines: [{ tax_base: 4000, tax_rate: 21, repercutida_quota: 840 }], total_amount: 4840,
    }, headers());
    expect(refused.status).toBe(200);
    const rows: Array<{ id: string }> = await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1`, [participant]);
    const answered = await eventually('every record answered by the AEAT', async () => {
      const records = await Promise.all(rows.map((r) => record(r.id)));
      return records.every((r) => r.aeat_status !== 'Pendiente') ? records : undefined;
    });
    const bigOne = answered.find((r) => r.uuid === refused.body.message.uuid);
    expect(bigOne).toMatchObject({ aeat_status: 'Incorrecto', aeat_errors: [expect.objectContaining({ code: '1150' })] });
    expect(answered.filter((r) => r.uuid !== bigOne.uuid).every((r) => r.aeat_status === 'Correcto')).toBe(true);
    // Each record reported once (the cancellation's invoice is now Anulada at the AEAT); successive
    // calls of the issuer at least the waiting time apart.
    const taken: Array<{ n: number }> = await dataSource.query(`SELECT count(*)::int AS n FROM verifactu_sandbox_records WHERE number LIKE $1`, [`%-${run}`]);
    const cancellations = answered.filter((r) => r.invoice_type === 'anulacion').length;
    expect(cancellations).toBe(1);
    expect(taken[0].n).toBe(answered.length - 1 - cancellations);
    const [x1] = await dataSource.query(`SELECT state FROM verifactu_sandbox_records WHERE number = $1`, [number('X/1')]);
    expect(x1.state).toBe('Anulada');
    const batches: Array<{ at: Date }> = await dataSource.query(
      `SELECT min(received_at) AS at FROM (SELECT csv, received_at FROM verifactu_sandbox_records WHERE issuer_nif = $1 AND number LIKE $2
         UNION ALL SELECT csv, received_at FROM verifactu_sandbox_cancellations WHERE issuer_nif = $1 AND number LIKE $2) taken GROUP BY csv ORDER BY 1`,
      [issuer.nif, `%-${run}`],
    );
    expect(batches.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < batches.length; i += 1) {
      expect(new Date(batches[i].at).getTime() - new Date(batches[i - 1].at).getTime()).toBeGreaterThanOrEqual(WAIT_S * 1000 - 50);
    }
  });

  it('a worker killed (kill -9) while the AEAT takes a batch: the next one finds the records there, each reported once', async () => {
    await worker?.stop();
    // Five records waiting, then a worker whose AEAT answers 4 s after taking them: killed in that window.
    const uuids: string[] = [];
    for (let i = 0; i < 5; i += 1) uuids.push((await client.post('/es/verifactu/generate', f1(number(`K/${i}`)), headers())).body.message.uuid);
    const slow = startApp('reporting-worker', { ...workerEnv, VERIFACTU_SANDBOX_ANSWER_DELAY_MS: '4000' });
    worker = slow;
    await eventually('the AEAT holds the five records', async () => {
      const [row] = await dataSource.query(`SELECT count(*)::int AS n FROM verifactu_sandbox_records WHERE number LIKE $1`, [`K/%-${run}`]);
      return row.n === 5 ? true : undefined;
    });
    await slow.crash();
    expect((await Promise.all(uuids.map(record))).map((r) => r.aeat_status)).toEqual(Array(5).fill('Pendiente'));

    worker = startApp('reporting-worker', workerEnv);
    const answered = await eventually('the five records answered after the restart', async () => {
      const records = await Promise.all(uuids.map(record));
      return records.every((r) => r.aeat_status === 'Correcto') ? records : undefined;
    });
    expect(answered).toHaveLength(5);
    const [taken] = await dataSource.query(`SELECT count(*)::int AS n, count(DISTINCT csv)::int AS calls FROM verifactu_sandbox_records WHERE number LIKE $1`, [`K/%-${run}`]);
    expect(taken).toEqual({ n: 5, calls: 1 });
    const streams: Array<{ types: string[]; recovered: boolean }> = await dataSource.query(
      `SELECT array_agg(e.type ORDER BY e.stream_position) AS types, bool_or((e.data->>'recovered')::boolean) AS recovered
       FROM documents d JOIN events e ON e.stream_id = 'report-' || d.report_id WHERE d.id = ANY($1::uuid[]) GROUP BY d.id`,
      [uuids],
    );
    expect(streams).toEqual(Array(5).fill({ types: ['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted'], recovered: true }));
  });
});
