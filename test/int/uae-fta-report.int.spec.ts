// #10 "Tracks — Reporting": a UAE document's report through the generic authority pipeline
// (apps/reporting-worker/src/authority) with the connector the area registry gives the worker (the
// sandbox FTA, its MLS at once here), on real PostgreSQL: queued → processing → reported or failed,
// retriable failures back to the consumer, a lost answer recovered rather than sent twice.
import { randomInt, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  type AuthorityReportRequestedData,
  type RecordedEvent,
  authorityReportStreamId,
  createLogger,
} from '@einvoice/domain';
import { type EventStore, storeDocumentAttachments } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, detachEmbedded, findArea, registeredAreas } from '@einvoice/areas';
import { pollReport } from '../../apps/reporting-worker/src/authority/poll-report';
import { dueReports } from '../../apps/reporting-worker/src/authority/report-poll-sweep';
import { type AuthorityReportingDependencies, createAuthorityReportHandler } from '../../apps/reporting-worker/src/authority/report-to-authority';
import { issuerWith, renderedInvoice } from '../../libs/areas/src/uae/reporting/test-documents';
import { openTestDatabase } from '../support/database';
import { workerContext as context } from '../support/myinvois-worker';
import { appendReportRequest } from '../support/toy-reports';

describe('#10 UAE reports to the FTA through the generic pipeline (sandbox FTA, real PostgreSQL)', () => {
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  let store: EventStore;
  let handle: ReturnType<typeof createAuthorityReportHandler>;
  let deps: AuthorityReportingDependencies;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => dataSource.query(sql, params);
    // The area's connector as the reporting worker builds it (reporting-worker.providers.ts).
    const ae = findArea('ae', registeredAreas({}));
    const connector = ae?.authority.connector?.({ query, env: { UAE_SANDBOX_FTA_MLS_MS: '0' } }) as AuthorityConnector;
    // Polls due at once: the test asks when it wants (the sweep's timing is the e2e test's).
    deps = { store, connectors: new Map([['ae', connector]]), pollPolicies: new Map([['ae', { intervalMs: 0, maxPolls: 5 }]]), groupId: `uae-fta-int-${run}`, log: createLogger('test', 'error') };
    handle = createAuthorityReportHandler(deps);
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** Appends the report of a fresh participant's invoice numbered `number`, as the gateway (C2) or the delivery worker (C3) does. */
  async function requestReport(number: string, reporterRole: 'C2' | 'C3' = 'C2', bytes?: string): Promise<RecordedEvent> {
    const tin = `1${String(randomInt(0, 1e9)).padStart(9, '0')}`;
    const xml = bytes ?? renderedInvoice({ document_identifier: `${number}-${run}` }, randomUUID(), issuerWith(tin));
    const data: AuthorityReportRequestedData = {
      reportId: randomUUID(),
      documentId: randomUUID(),
      tenantId: randomUUID(),
      supplierId: randomUUID(),
      area: 'ae',
      ruleSetId: 'pint-ae:billing:2026.5',
      documentNumber: `2026:${number}-${run}`,
      documentType: '380',
      fields: { document_identifier: `${number}-${run}` },
      document: { bytes: xml, mediaType: 'application/xml', sha256: 'n/a' },
      payload: { reporterRole, participantId: randomUUID() },
      requestedAt: new Date().toISOString(),
    };
    return appendReportRequest(store, data);
  }

  const data = (event: RecordedEvent) => event.data as AuthorityReportRequestedData;
  const typesOf = async (event: RecordedEvent) => (await store.readStream(authorityReportStreamId(data(event).reportId))).map((e) => e.type);
  const documentOf = async (event: RecordedEvent) =>
    (await dataSource.query(`SELECT report_state, authority, uae_reporting_status(report_state) AS reporting FROM documents WHERE id = $1`, [data(event).documentId]))[0];
  const poll = (event: RecordedEvent) => pollReport(deps, data(event).reportId, randomUUID(), context);
  const filings = async (event: RecordedEvent) => {
    const uuid = /<cbc:UUID>([^<]+)</.exec(data(event).document.bytes)?.[1];
    return Number((await dataSource.query(`SELECT count(*) AS n FROM uae_fta_sandbox_reports WHERE document_uuid = $1`, [uuid]))[0].n);
  };

  it('a sent document (C2) is taken by the FTA, polled, and reported once its MLS says AP; a redelivery sends nothing again', async () => {
    const event = await requestReport('INV-OK');
    await handle(event, context);
    await handle(event, context);
    expect(await documentOf(event)).toMatchObject({ report_state: 'processing', reporting: 'queued', authority: { receipt: { reference: expect.stringMatching(/^FTA-/) } } });
    expect((await dueReports(dataSource, 10_000)).some((r) => r.reportId === data(event).reportId)).toBe(true);
    await poll(event);
    expect(await documentOf(event)).toMatchObject({ report_state: 'reported', reporting: 'reported', authority: { receipt: { mls: { code: 'AP' } } } });
    expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted', 'AuthorityReportValidated']);
    expect(await filings(event)).toBe(1);
  });

  it('the received copy (C3) of the same document is the receiver\'s own report', async () => {
    const sent = await requestReport('INV-BOTH');
    const received = await requestReport('INV-BOTH', 'C3', data(sent).document.bytes);
    for (const event of [sent, received]) {
      await handle(event, context);
      await poll(event);
      expect((await documentOf(event)).reporting).toBe('reported');
    }
    expect(await filings(sent)).toBe(2);
  });

  it('an MLS RE fails the report with the reason code and the FTA\'s text', async () => {
    const event = await requestReport('INV-FTA-REJECT');
    await handle(event, context);
    await poll(event);
    expect(await documentOf(event)).toMatchObject({
      report_state: 'invalid', reporting: 'failed', authority: { error: { code: 'BV', message: expect.stringContaining('FTA-REJECT') } },
    });
  });

  it('transient failures go back to the consumer (retried with its backoff) until the FTA takes the report, once', async () => {
    const event = await requestReport('INV-FTA-FLAKY');
    for (let failure = 1; failure <= 2; failure += 1) await expect(handle(event, context)).rejects.toMatchObject({ code: 'UAE_FTA.UNAVAILABLE', retriable: true });
    await handle(event, context);
    await poll(event);
    expect((await documentOf(event)).reporting).toBe('reported');
    expect(await filings(event)).toBe(1);
  });

  it('an answer lost after the FTA took the report is recovered on the retry, not sent twice', async () => {
    const event = await requestReport('INV-FTA-LOST');
    await expect(handle(event, context)).rejects.toMatchObject({ code: 'UAE_FTA.TIMEOUT', retriable: true });
    await handle(event, context);
    const accepted = (await store.readStream(authorityReportStreamId(data(event).reportId))).find((e) => e.type === 'AuthorityReportAccepted');
    expect(accepted?.data).toMatchObject({ recovered: true });
    expect((await documentOf(event)).reporting).toBe('reported');
    expect(await filings(event)).toBe(1);
  });

  it('a document that is not UBL fails at once (nothing a retry could fix)', async () => {
    const event = await requestReport('INV-GARBAGE', 'C2', '{"not": "xml"}');
    await handle(event, context);
    expect(await documentOf(event)).toMatchObject({ report_state: 'rejected', reporting: 'failed', authority: { error: { code: 'UAE_FTA.UNREADABLE_DOCUMENT' } } });
  });

  it('the FTA gets the document whole: attachments the events carry detached are put back before the call', async () => {
    const content = Buffer.from(`timesheet ${run}`).toString('base64');
    const whole = renderedInvoice({ document_identifier: `INV-ATT-${run}`, document_references: [{ document_identifier: 'TS-1', embedded_document: { mime_code: 'application/pdf', filename: 'ts.pdf', content } }] }, randomUUID(), issuerWith(`1${String(randomInt(0, 1e9)).padStart(9, '0')}`));
    const { xml: compact, detached } = detachEmbedded(whole);
    expect(compact).not.toContain(content);
    const sent: string[] = [];
    const connector = deps.connectors.get('ae') as AuthorityConnector;
    const capturing: AuthorityConnector = {
      submit: (report, call) => (sent.push(report.document.bytes), connector.submit(report, call)),
      recover: (report, at, call) => connector.recover(report, at, call),
      poll: (report, receipt, call) => (connector.poll as NonNullable<AuthorityConnector['poll']>)(report, receipt, call),
    };
    const event = await requestReport('INV-ATT', 'C2', compact);
    await storeDocumentAttachments((sql, parameters) => dataSource.query(sql, parameters), data(event).documentId, [...detached].map(([index, bytes]) => ({ index, filename: 'ts.pdf', mimeCode: 'application/pdf', bytes })));
    await createAuthorityReportHandler({ ...deps, connectors: new Map([['ae', capturing]]) })(event, context);
    expect(sent).toEqual([whole]);
    expect(await typesOf(event)).toContain('AuthorityReportAccepted');
  });
});
