// The buyer-rejection watch of the generic pipeline (#8; MyInvois's buyers' rejections) on real
// PostgreSQL: the toy area's sandbox takes the reports, and a scripted connector call tells which of a
// supplier's accepted documents their buyers rejected (or answers 429).
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, type AuthorityReportRequestedData, type RecordedEvent, authorityReportDecider, authorityReportStreamId, createLogger } from '@einvoice/domain';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import type { AuthorityConnector } from '@einvoice/areas';
import { ToySandboxAuthority } from '../../libs/areas/src/toy';
import { BuyerRejectionWatch, watchedSuppliers } from '../../apps/reporting-worker/src/authority/buyer-rejection-watch';
import { type AuthorityReportingDependencies, createAuthorityReportHandler } from '../../apps/reporting-worker/src/authority/report-to-authority';
import { createCancellationHandler } from '../../apps/reporting-worker/src/authority/cancel-report';
import { openTestDatabase } from '../support/database';
import { workerContext as context } from '../support/myinvois-worker';
import { appendReportRequest, toyReportRequest } from '../support/toy-reports';

const HOUR = 3_600_000;

describe('#8 buyer-rejection watch (toy sandbox, scripted rejections, real PostgreSQL)', () => {
  const run = Date.now().toString(36);
  // An area code of this file's own: the watch reads every accepted document of its areas.
  const area = `toy-rejection-${run}`;
  const taxId = `TOY${randomUUID().slice(0, 8)}`;
  let dataSource: DataSource;
  let store: EventStore;
  let deps: AuthorityReportingDependencies;
  let clock = Date.now();

  /** What the buyers did, by report id; suppliers the authority answers 429 (Retry-After in ms); who was asked about what. */
  const rejections = new Map<string, { reason: string; requestedAt: string }>();
  const limited = new Map<string, number>();
  const asked: Array<{ supplierId: string; reportIds: string[]; documents: readonly { reportId: string; receipt: unknown; acceptedAt: string }[] }> = [];
  /** Runs during the call (a cancellation racing the watch). */
  let duringCall: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    const toy = new ToySandboxAuthority((sql, params) => dataSource.query(sql, params));
    const connector: AuthorityConnector = Object.assign(Object.create(toy) as ToySandboxAuthority, {
      buyerRejectionWindowMs: 72 * HOUR,
      async buyerRejections(supplierId: string, documents: readonly { reportId: string; receipt: unknown; acceptedAt: string }[]) {
        asked.push({ supplierId, reportIds: documents.map((d) => d.reportId), documents });
        await duringCall?.();
        const retryAfterMs = limited.get(supplierId);
        if (retryAfterMs !== undefined) throw new AppError('rate_limited', 'TOY.RATE_LIMITED', 'Too many requests.', { details: { retryAfterMs } });
        return documents.filter((d) => rejections.has(d.reportId)).map((d) => ({ reportId: d.reportId, ...rejections.get(d.reportId)! }));
      },
    });
    deps = { store, connectors: new Map([[area, connector]]), groupId: `buyer-rejection-int-${run}`, log: createLogger('test', 'error') };
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  beforeEach(() => {
    asked.length = 0;
    limited.clear();
    duringCall = undefined;
  });

  const watch = () => new BuyerRejectionWatch(deps, { dataSource, lockName: `rejection-int-${randomUUID()}`, intervalMs: 60_000, now: () => clock });

  /** A report of `supplierId`'s, taken by the toy authority for good (reported). */
  async function acceptedReport(supplierId: string): Promise<RecordedEvent> {
    const number = `R-${randomUUID().slice(0, 8)}-${run}`;
    const event = await appendReportRequest(store, toyReportRequest(number, { supplierId, area, taxId }));
    await createAuthorityReportHandler(deps)(event, context);
    return event;
  }

  const reportIdOf = (event: RecordedEvent) => (event.data as AuthorityReportRequestedData).reportId;
  const rejectedEvents = async (event: RecordedEvent) =>
    (await store.readStream(authorityReportStreamId(reportIdOf(event)))).filter((e) => e.type === 'AuthorityReportBuyerRejected');
  const documentOf = async (event: RecordedEvent) =>
    (await dataSource.query(`SELECT state, authority FROM documents WHERE report_id = $1`, [reportIdOf(event)]))[0];
  const askedAbout = (supplierId: string) => asked.filter((a) => a.supplierId === supplierId).map((a) => a.reportIds);

  it('records a buyer\'s rejection once across rounds; the rejected document is not asked about again', async () => {
    const supplier = randomUUID();
    const [kept, rejected] = [await acceptedReport(supplier), await acceptedReport(supplier)];
    rejections.set(reportIdOf(rejected), { reason: 'Wrong quantity', requestedAt: '2026-03-20T13:00:00.000Z' });

    expect(await watch().runOnce()).toBe(true);
    expect(askedAbout(supplier)).toEqual([[reportIdOf(kept), reportIdOf(rejected)]]);
    // The connector gets each document's receipt and when it was accepted.
    expect(asked[0].documents[0]).toEqual({ reportId: reportIdOf(kept), receipt: { receiptNumber: expect.stringMatching(/^TOY-/), acceptedAt: expect.any(String) }, acceptedAt: expect.any(String) });
    expect(await rejectedEvents(rejected)).toHaveLength(1);
    expect(await documentOf(rejected)).toMatchObject({ state: 'reported', authority: { buyerRejection: { reason: 'Wrong quantity', requestedAt: '2026-03-20T13:00:00.000Z' } } });
    expect((await documentOf(kept)).authority.buyerRejection).toBeUndefined();

    asked.length = 0;
    expect(await watch().runOnce()).toBe(true);
    expect(askedAbout(supplier)).toEqual([[reportIdOf(kept)]]);
    expect(await rejectedEvents(rejected)).toHaveLength(1);
  });

  it('a rate-limited supplier is skipped until its Retry-After; the others go on', async () => {
    const [slow, other] = [randomUUID(), randomUUID()];
    const [slowReport, otherReport] = [await acceptedReport(slow), await acceptedReport(other)];
    rejections.set(reportIdOf(slowReport), { reason: 'Not ordered', requestedAt: '2026-03-20T14:00:00.000Z' });
    rejections.set(reportIdOf(otherReport), { reason: 'Duplicate', requestedAt: '2026-03-20T14:00:00.000Z' });
    limited.set(slow, 30_000);
    const watching = watch();

    await watching.runOnce();
    expect(askedAbout(slow)).toHaveLength(1);
    expect(await rejectedEvents(slowReport)).toHaveLength(0);
    expect(await rejectedEvents(otherReport)).toHaveLength(1);

    limited.delete(slow);
    clock += 10_000;
    await watching.runOnce();
    expect(askedAbout(slow)).toHaveLength(1);
    expect(await rejectedEvents(slowReport)).toHaveLength(0);

    clock += 21_000;
    await watching.runOnce();
    expect(askedAbout(slow)).toHaveLength(2);
    expect(await rejectedEvents(slowReport)).toHaveLength(1);
  });

  it('a document cancelled during the call is skipped; the supplier\'s others are recorded', async () => {
    const supplier = randomUUID();
    const [cancelled, rejected] = [await acceptedReport(supplier), await acceptedReport(supplier)];
    for (const event of [cancelled, rejected]) rejections.set(reportIdOf(event), { reason: 'No', requestedAt: '2026-03-20T15:00:00.000Z' });
    duringCall = async () => {
      duringCall = undefined;
      const data = { reportId: reportIdOf(cancelled), reason: 'Issuer cancels', requestedAt: new Date().toISOString() };
      const [requested] = await store.transaction((uow) =>
        handleCommand(uow, authorityReportDecider, authorityReportStreamId(data.reportId), { type: 'RequestReportCancellation', data }, { tenantId: randomUUID() }),
      );
      await createCancellationHandler(deps)(requested, context);
    };

    expect(await watch().runOnce()).toBe(true);
    expect((await documentOf(cancelled)).state).toBe('cancelled');
    expect(await rejectedEvents(cancelled)).toHaveLength(0);
    expect(await rejectedEvents(rejected)).toHaveLength(1);
  });

  it('asks only about documents accepted within the connector\'s window, by their validation when they had one', async () => {
    const supplier = randomUUID();
    const [old, validatedLately] = [await acceptedReport(supplier), await acceptedReport(supplier)];
    const setAuthority = (event: RecordedEvent, patch: object) =>
      dataSource.query(`UPDATE documents SET authority = authority || $2::jsonb WHERE report_id = $1`, [reportIdOf(event), JSON.stringify(patch)]);
    await setAuthority(old, { answeredAt: new Date(clock - 73 * HOUR).toISOString() });
    await setAuthority(validatedLately, { answeredAt: new Date(clock - 80 * HOUR).toISOString(), validatedAt: new Date(clock - 71 * HOUR).toISOString() });

    const watched = (await watchedSuppliers(dataSource, area, new Date(clock - 72 * HOUR))).filter((s) => s.supplierId === supplier);
    expect(watched.map((s) => s.documents.map((d) => d.reportId))).toEqual([[reportIdOf(validatedLately)]]);
  });
});
