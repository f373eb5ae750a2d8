// The live UAE FTA connector against a local fake of the access point's HTTP API
// (test/fakes/uae-fta), behind which the sandbox FTA keeps its state in the test PostgreSQL.
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { FakeAccessPointServer } from '../../../../../test/fakes/uae-fta/server';
import { openTestDatabase } from '../../../../../test/support/database';
import { eventually } from '../../../../../test/support/wait';
import type { AuthorityReport } from '../../registry/authority';
import { AccessPointClient } from './access-point-client';
import { tddMessageId, UaeFtaConnector, type UaeFtaReceipt, type UaeReportPayload } from './connector';
import { uaeFtaConnector } from './from-env';
import { readTdd } from './tdd-rules';
import { issuerWith, renderedInvoice } from './test-documents';

const FTA = '0242:000006-TESTBED.3001';
const AP = '0242:000123-OUR-AP';
const TOKEN = 'ap-token';
const heartbeat = { heartbeat: async () => undefined };

describe('the live UAE FTA connector over an access point\'s HTTP API (local fake)', () => {
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  let fake: FakeAccessPointServer;
  let url: string;
  let connector: UaeFtaConnector;

  const client = (options: { token?: string; timeoutMs?: number } = {}) =>
    new UaeFtaConnector(new AccessPointClient({ baseUrl: url, token: options.token ?? TOKEN, timeoutMs: options.timeoutMs ?? 5_000 }), { ftaId: FTA, representativeId: AP });
  const report = (number: string, reporterRole: 'C2' | 'C3' = 'C2'): AuthorityReport<UaeReportPayload> => {
    const tin = `1${String(randomInt(0, 1e9)).padStart(9, '0')}`;
    const bytes = renderedInvoice({ document_identifier: `${number}-${run}` }, randomUUID(), issuerWith(tin));
    return { reportId: randomUUID(), tenantId: randomUUID(), supplierId: randomUUID(), payload: { reporterRole, participantId: randomUUID() }, document: { bytes, mediaType: 'application/xml', sha256: 'n/a' } };
  };
  const receiptOf = async (c: UaeFtaConnector, r: AuthorityReport<UaeReportPayload>) => {
    const outcome = await c.submit(r, heartbeat);
    if (outcome.kind !== 'accepted') throw new Error(`not taken: ${JSON.stringify(outcome)}`);
    return outcome.receipt as UaeFtaReceipt;
  };
  const verdict = (c: UaeFtaConnector, r: AuthorityReport<UaeReportPayload>, receipt: UaeFtaReceipt) =>
    eventually('the MLS', async () => {
      const answer = await c.poll(r, receipt, heartbeat);
      return answer.kind === 'pending' ? undefined : answer;
    }, 10_000);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    fake = new FakeAccessPointServer((sql, params) => dataSource.query(sql, params), { ftaId: FTA, mlsDelayMs: 200, token: TOKEN });
    url = await fake.start();
    connector = client();
  });

  afterAll(async () => {
    await fake?.stop();
    await dataSource?.destroy();
  });

  it('submits the TDD raw to the outbound submit route (participant, FTA SPID, TDD type and process, AE, SBDH instance id, X-Token)', async () => {
    const r = report('INV-WIRE');
    const receipt = await receiptOf(connector, r);
    const messageId = tddMessageId(r.reportId);
    expect(receipt).toEqual({ messageId, receivedAt: expect.any(String) });
    const request = fake.requests.filter((q) => q.method === 'POST').at(-1);
    const [path, search] = (request?.path ?? '').split('?');
    expect(path.split('/').map(decodeURIComponent)).toEqual([
      '', 'api', 'outbound', 'submit',
      `iso6523-actorid-upis::${readTdd(request?.body ?? '').facts.reportingParty}`,
      `iso6523-actorid-upis::${FTA}`,
      'busdox-docid-qns::urn:peppol:schema:taxdata:1.0::TaxData##urn:peppol:taxdata:ae-1::1.0',
      'cenbii-procid-ubl::urn:peppol:taxreporting',
      'AE',
    ]);
    expect(Object.fromEntries(new URLSearchParams(search))).toEqual({ sbdhInstanceID: messageId });
    expect(request?.headers).toMatchObject({ 'x-token': TOKEN, 'content-type': 'application/xml' });
    expect(readTdd(request?.body ?? '').issues).toEqual([]);
  });

  it('polls the outbound status until the FTA\'s MLS: pending, then reported with the MLS read from the status', async () => {
    const r = report('INV-POLL');
    const receipt = await receiptOf(connector, r);
    await expect(connector.poll(r, receipt, heartbeat)).resolves.toEqual({ kind: 'pending' });
    await expect(verdict(connector, r, receipt)).resolves.toMatchObject({
      kind: 'accepted', final: true, receipt: { messageId: receipt.messageId, reference: expect.stringMatching(/^FTA-/), mls: { code: 'AP' } },
    });
    expect(fake.requests.at(-1)?.path).toBe(`/api/outbound/status/${receipt.messageId}`);
  });

  it('an MLS RE comes back as a rejection with its reason code', async () => {
    const r = report('INV-FTA-REJECT');
    await expect(verdict(connector, r, await receiptOf(connector, r))).resolves.toMatchObject({ kind: 'rejected', error: { code: 'BV' } });
  });

  it('5xx and timeouts are retriable; a send the access point took before its answer was lost is recovered, not sent twice', async () => {
    const r = report('INV-DOWN');
    fake.failNext('submit', 503);
    await expect(connector.submit(r, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.UNAVAILABLE', retriable: true });
    const late = client({ timeoutMs: 200 });
    fake.holdNext('submit', 1_000);
    await expect(late.submit(r, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.TIMEOUT', retriable: true });
    const sends = fake.requests.filter((q) => q.method === 'POST').length;
    await expect(connector.recover(r, new Date().toISOString(), heartbeat)).resolves.toMatchObject({ kind: 'accepted', receipt: { messageId: tddMessageId(r.reportId) } });
    expect(fake.requests.filter((q) => q.method === 'POST').length).toBe(sends);
    await expect(connector.recover(report('INV-NEVER'), new Date().toISOString(), heartbeat)).resolves.toBeUndefined();
  });

  it('a wrong API token is retriable (an operator fixes it); a request the access point refuses (400) is final', async () => {
    await expect(client({ token: 'wrong' }).submit(report('INV-TOKEN'), heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.ACCESS_POINT_UNAUTHORIZED', retriable: true });
    fake.failNext('submit', 400);
    await expect(connector.submit(report('INV-REFUSED'), heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.ACCESS_POINT_REFUSED', retriable: false });
  });

  it('422 (stored, not sent yet: the access point retries it) is taken; a message it gave up on is rejected as not delivered', async () => {
    const r = report('INV-422');
    fake.answerNotSentNext();
    const receipt = await receiptOf(connector, r);
    expect(receipt).toMatchObject({ messageId: tddMessageId(r.reportId), reference: expect.stringMatching(/^FTA-/) });
    fake.giveUp(receipt.messageId);
    await expect(connector.poll(r, receipt, heartbeat)).resolves.toMatchObject({ kind: 'rejected', error: { code: 'UAE_FTA.NOT_DELIVERED' } });
  });

  it('UAE_FTA_MODE=live builds this client from UAE_FTA_AP_URL and UAE_FTA_AP_TOKEN', async () => {
    const live = uaeFtaConnector({ query: async () => [], env: { UAE_FTA_MODE: 'live', UAE_FTA_AP_URL: url, UAE_FTA_AP_TOKEN: TOKEN, UAE_FTA_ID: FTA, UAE_AP_SPID: AP } });
    const r = report('INV-ENV');
    await expect(live.submit(r, heartbeat)).resolves.toMatchObject({ kind: 'accepted', final: false });
    expect(readTdd(fake.requests.filter((q) => q.method === 'POST').at(-1)?.body ?? '').facts.representative).toBe(AP);
  });
});
