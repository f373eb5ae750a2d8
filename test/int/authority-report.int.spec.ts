// The generic authority-reporting pipeline (#8) on real PostgreSQL, with the toy area's sandbox
// authority (libs/areas/src/toy): the answer is recorded once, a lost answer is recovered rather
// than reported twice, retriable failures go back to the consumer, refusals are recorded.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  type AuthorityReportRequestedData,
  type RecordedEvent,
  authorityReportDecider,
  authorityReportStreamId,
  createLogger,
} from '@einvoice/domain';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, findArea, registeredAreas } from '@einvoice/areas';
import { createAuthorityReportHandler } from '../../apps/reporting-worker/src/authority/report-to-authority';
import { openTestDatabase } from '../support/database';
import { workerContext as context } from '../support/myinvois-worker';

describe('#8 reporting to an authority through the generic pipeline (toy sandbox, real PostgreSQL)', () => {
  const run = Date.now().toString(36);
  const groupId = `authority-int-${run}`;
  const taxId = `TOY${String(Date.now() % 1_000_000).padStart(6, '0')}`;
  let dataSource: DataSource;
  let store: EventStore;
  let handle: ReturnType<typeof createAuthorityReportHandler>;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => dataSource.query(sql, params);
    // The toy area's connector as the worker gets it: from the registry (test-only areas listed).
    const toy = findArea('toy', registeredAreas({ EINVOICE_TEST_AREAS: '1' }));
    const connector = toy?.authority.connector?.({ query, env: {} }) as AuthorityConnector;
    const connectors = new Map([['toy', connector]]);
    handle = createAuthorityReportHandler({ store, connectors, groupId, log: createLogger('test', 'error') });
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** Appends a report of `number` (as the gateway does) and returns its requested event. */
  async function requestReport(number: string): Promise<RecordedEvent> {
    const data: AuthorityReportRequestedData = {
      reportId: randomUUID(),
      documentId: randomUUID(),
      tenantId: randomUUID(),
      supplierId: randomUUID(),
      area: 'toy',
      ruleSetId: 'toy:invoice:1.0',
      documentNumber: number,
      documentType: 'invoice',
      fields: { ID: number },
      document: { bytes: '{}', mediaType: 'application/json', sha256: '44136fa3' },
      payload: { taxId, number },
      requestedAt: new Date().toISOString(),
    };
    const [event] = await store.transaction((uow) =>
      handleCommand(uow, authorityReportDecider, authorityReportStreamId(data.reportId), { type: 'RequestAuthorityReport', data }, { tenantId: data.tenantId }),
    );
    return event;
  }

  const reportId = (event: RecordedEvent) => (event.data as AuthorityReportRequestedData).reportId;
  const typesOf = async (event: RecordedEvent) => (await store.readStream(authorityReportStreamId(reportId(event)))).map((e) => e.type);
  const documentOf = async (event: RecordedEvent) =>
    (await dataSource.query(`SELECT state, authority FROM documents WHERE id = $1`, [(event.data as AuthorityReportRequestedData).documentId]))[0];
  const takenAtAuthority = async (number: string) =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM toy_authority_documents WHERE tax_id = $1 AND number = $2`, [taxId, number]))[0].n);

  it('records the authority\'s answer once; a redelivered event sends nothing again', async () => {
    const event = await requestReport(`OK-${run}`);
    await handle(event, context);
    await handle(event, context);
    expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
    expect(await takenAtAuthority(`OK-${run}`)).toBe(1);
    const row = await documentOf(event);
    expect(row.state).toBe('reported');
    expect(row.authority.receipt.receiptNumber).toMatch(/^TOY-\d{8}$/);
  });

  it('an answer lost after the authority took the document is recovered, not reported twice', async () => {
    const event = await requestReport(`LOST-${run}`);
    await expect(handle(event, context)).rejects.toMatchObject({ code: 'TOY.UNAVAILABLE', retriable: true });
    expect(await takenAtAuthority(`LOST-${run}`)).toBe(1);
    // The consumer's retry: the attempt marker is there, so the authority is asked first.
    await handle(event, context);
    expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
    const accepted = (await store.readStream(authorityReportStreamId(reportId(event)))).at(-1);
    expect(accepted?.data).toMatchObject({ recovered: true });
    expect(await takenAtAuthority(`LOST-${run}`)).toBe(1);
    expect((await documentOf(event)).state).toBe('reported');
  });

  it('retriable failures go back to the consumer until the authority takes the document', async () => {
    const event = await requestReport(`FLAKY-${run}`);
    // FLAKY- numbers fail twice before the toy authority takes them (libs/areas/src/toy/README.md).
    for (let failure = 1; failure <= 2; failure += 1) {
      await expect(handle(event, context)).rejects.toMatchObject({ retriable: true });
    }
    await handle(event, context);
    expect((await documentOf(event)).state).toBe('reported');
    expect(await takenAtAuthority(`FLAKY-${run}`)).toBe(1);
  });

  it('records a refusal with the authority\'s own code', async () => {
    const event = await requestReport(`REFUSE-${run}`);
    await handle(event, context);
    const row = await documentOf(event);
    expect(row.state).toBe('rejected');
    expect(row.authority.error).toEqual({ code: 'TOY-E001', message: expect.any(String), path: 'ID' });
  });

  it('a second report of a number the authority already holds is refused by it (TOY-E002)', async () => {
    const first = await requestReport(`TWICE-${run}`);
    const second = await requestReport(`TWICE-${run}`);
    await handle(first, context);
    await handle(second, context);
    expect((await documentOf(second)).authority.error.code).toBe('TOY-E002');
  });
});
