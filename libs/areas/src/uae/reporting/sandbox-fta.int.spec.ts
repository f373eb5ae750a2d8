// The sandbox FTA on real PostgreSQL, through the connector the reporting worker uses: two
// SandboxFta instances on one database are two processes (a worker and its restarted successor).
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import { eventually } from '../../../../../test/support/wait';
import type { AuthorityReport } from '../../registry/authority';
import { tddMessageId, UaeFtaConnector, type UaeFtaReceipt, type UaeReportPayload } from './connector';
import { parseMls } from '../../peppol-ubl/mls';
import { injectFtaFaults, SandboxFta } from './sandbox-fta';
import { issuerWith, renderedInvoice } from './test-documents';

const FTA = '0242:000006-TESTBED.3001';
const AP = '0242:000123-OUR-AP';
const heartbeat = { heartbeat: async () => undefined };

describe('the sandbox FTA (PostgreSQL state) behind the UAE FTA connector', () => {
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => dataSource.query(sql, params);
  /** One more process: a sandbox FTA and a connector on the shared database. */
  const instance = (mlsDelayMs = 0) => {
    const sandbox = new SandboxFta(query, { ftaId: FTA, mlsDelayMs });
    return { sandbox, connector: new UaeFtaConnector(sandbox, { ftaId: FTA, representativeId: AP }) };
  };
  const freshTin = () => `1${String(randomInt(0, 1e9)).padStart(9, '0')}`;

  /** A UBL invoice numbered `number` of a fresh seller (with a TRN unless `trn: null`). */
  const invoice = (number: string, options: { tin?: string; trn?: string | null; over?: Record<string, unknown> } = {}) => {
    const tin = options.tin ?? freshTin();
    return { tin, xml: renderedInvoice({ document_identifier: `${number}-${run}`, ...options.over }, randomUUID(), issuerWith(tin, options.trn)) };
  };
  const report = (xml: string, reporterRole: 'C2' | 'C3' = 'C2'): AuthorityReport<UaeReportPayload> => ({
    reportId: randomUUID(), tenantId: randomUUID(), supplierId: randomUUID(), payload: { reporterRole, participantId: randomUUID() },
    document: { bytes: xml, mediaType: 'application/xml', sha256: 'n/a' },
  });
  const receiptOf = async (connector: UaeFtaConnector, r: AuthorityReport<UaeReportPayload>) => {
    const outcome = await connector.submit(r, heartbeat);
    if (outcome.kind !== 'accepted') throw new Error(`not taken: ${JSON.stringify(outcome)}`);
    return outcome.receipt as UaeFtaReceipt;
  };
  const verdict = (connector: UaeFtaConnector, r: AuthorityReport<UaeReportPayload>, receipt: UaeFtaReceipt) =>
    eventually('the MLS', async () => {
      const answer = await connector.poll(r, receipt, heartbeat);
      return answer.kind === 'pending' ? undefined : answer;
    }, 10_000);
  const filed = async (xml: string) => {
    const uuid = /<cbc:UUID>([^<]+)</.exec(xml)?.[1];
    return (await query<{ reference: string; reporter_role: string }>(`SELECT reference, reporter_role FROM uae_fta_sandbox_reports WHERE document_uuid = $1 ORDER BY reporter_role`, [uuid]));
  };

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('takes a TDD at once under its own reference; the MLS comes UAE_SANDBOX_FTA_MLS_MS later: pending before, AP after', async () => {
    const { connector } = instance(600);
    const r = report(invoice('INV-OK').xml);
    const sentAt = Date.now();
    const receipt = await receiptOf(connector, r);
    expect(receipt).toEqual({ messageId: tddMessageId(r.reportId), receivedAt: expect.any(String), reference: expect.stringMatching(/^FTA-\d{10}$/) });
    await expect(connector.poll(r, receipt, heartbeat)).resolves.toEqual({ kind: 'pending' });
    const answer = await verdict(connector, r, receipt);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(500);
    expect(answer).toEqual({
      kind: 'accepted', final: true,
      receipt: { ...receipt, mls: { id: expect.any(String), code: 'AP', issuedAt: expect.any(String) } },
    });
  });

  it('keeps what it took across a restart: another instance polls and recovers the same report', async () => {
    const first = instance(300);
    const r = report(invoice('INV-RESTART').xml);
    const receipt = await receiptOf(first.connector, r);
    const successor = instance(300);
    const answer = await verdict(successor.connector, r, receipt);
    expect(answer).toMatchObject({ kind: 'accepted', final: true, receipt: { reference: receipt.reference, mls: { code: 'AP' } } });
    await expect(successor.connector.recover(r, new Date().toISOString(), heartbeat)).resolves.toEqual(answer);
  });

  it('files a document once per role: a second report of it gets the first answer; the receiver\'s report (C3) is its own filing', async () => {
    const { connector, sandbox } = instance();
    const { xml } = invoice('INV-TWICE');
    const [one, two, received] = [report(xml), report(xml), report(xml, 'C3')];
    const [a, b, c] = [await receiptOf(connector, one), await receiptOf(connector, two), await receiptOf(connector, received)];
    expect(b.reference).toBe(a.reference);
    expect(c.reference).not.toBe(a.reference);
    expect(await filed(xml)).toEqual([{ reference: a.reference, reporter_role: '01' }, { reference: c.reference, reporter_role: '02' }]);
    const [first, second] = [await verdict(connector, one, a), await verdict(connector, two, b)];
    expect(second).toEqual({ ...first, receipt: { ...(first as { receipt: UaeFtaReceipt }).receipt, messageId: b.messageId, receivedAt: expect.any(String) } });
    // Each message's MLS answers that message.
    expect(parseMls((await sandbox.status(b.messageId))?.mls as string).messageId).toBe(b.messageId);
  });

  it('rejects what the FTA would: VAT charged without the seller\'s TRN is an MLS RE with reason BV and the rule', async () => {
    const { connector } = instance();
    const r = report(invoice('INV-NOTRN', { trn: null }).xml);
    await expect(verdict(connector, r, await receiptOf(connector, r))).resolves.toMatchObject({
      kind: 'rejected',
      error: { code: 'BV', message: expect.stringContaining('[FTA-AE-01]'), details: [{ code: 'BV', message: expect.stringContaining('TRN') }] },
      receipt: { mls: { code: 'RE' } },
    });
  });

  it('answers by the markers in the document number: FTA-REJECT is RE (BV), FTA-AB is AB', async () => {
    const { connector } = instance();
    const rejected = report(invoice('INV-FTA-REJECT').xml);
    await expect(verdict(connector, rejected, await receiptOf(connector, rejected))).resolves.toMatchObject({ kind: 'rejected', error: { code: 'BV' } });
    const acknowledged = report(invoice('INV-FTA-AB').xml);
    await expect(verdict(connector, acknowledged, await receiptOf(connector, acknowledged))).resolves.toMatchObject({ kind: 'accepted', final: true, receipt: { mls: { code: 'AB' } } });
  });

  it('FTA-FLAKY: two 503s for the message, retriable, then it is taken once', async () => {
    const { connector } = instance();
    const { xml } = invoice('INV-FTA-FLAKY');
    const r = report(xml);
    for (let call = 1; call <= 2; call += 1) await expect(connector.submit(r, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.UNAVAILABLE', retriable: true });
    await receiptOf(connector, r);
    expect(await filed(xml)).toHaveLength(1);
  });

  it('FTA-LOST: taken but the answer lost (a retriable timeout); recover finds it, and a send again files nothing new', async () => {
    const { connector } = instance();
    const { xml } = invoice('INV-FTA-LOST');
    const r = report(xml);
    await expect(connector.submit(r, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.TIMEOUT', retriable: true });
    const [{ reference }] = await filed(xml);
    await expect(connector.recover(r, new Date().toISOString(), heartbeat)).resolves.toMatchObject({ kind: 'accepted', final: true, receipt: { reference } });
    expect((await receiptOf(connector, r)).reference).toBe(reference);
    expect(await filed(xml)).toHaveLength(1);
  });

  it('the switch fails the next N calls of one reporting party (or of all, `*`), sends and polls alike, then lets them through', async () => {
    const { connector } = instance();
    const target = invoice('INV-SWITCH');
    const bystander = invoice('INV-BYSTANDER');
    await injectFtaFaults(query, { scope: `0235:${target.tin}`, kind: 'timeout', calls: 2 });
    const r = report(target.xml);
    await receiptOf(connector, report(bystander.xml));
    await expect(connector.submit(r, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.TIMEOUT', retriable: true });
    await expect(connector.submit(r, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.TIMEOUT', retriable: true });
    const receipt = await receiptOf(connector, r);
    await injectFtaFaults(query, { scope: `0235:${target.tin}`, kind: 'unavailable', calls: 1 });
    await expect(connector.poll(r, receipt, heartbeat)).rejects.toMatchObject({ code: 'UAE_FTA.UNAVAILABLE', retriable: true });
    await expect(verdict(connector, r, receipt)).resolves.toMatchObject({ kind: 'accepted', final: true });
  });

  it('a message that is no TDD is taken (the transport worked) and answered RE with reason SV', async () => {
    const { sandbox } = instance();
    const messageId = randomUUID();
    await sandbox.send({ messageId, senderId: '0235:1000000000', receiverId: FTA, documentTypeId: 'x', processId: 'y', xml: '<not-a-tdd/>' });
    const mls = parseMls((await sandbox.status(messageId))?.mls as string);
    expect(mls).toMatchObject({ responseCode: 'RE', sender: FTA, messageId, issues: [{ reason: 'SV' }] });
  });
});
