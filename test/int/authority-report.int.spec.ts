// The generic authority-reporting pipeline (#8) on real PostgreSQL, with the toy area's sandbox
// authority (libs/areas/src/toy): the answer is recorded once, a lost answer is recovered rather
// than reported twice, retriable failures go back to the consumer, refusals are recorded.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  AppError,
  type AuthorityReportRequestedData,
  type RecordedEvent,
  authorityReportDecider,
  authorityReportStreamId,
  createLogger,
} from '@einvoice/domain';
import { type EventStore, handleCommand, withTriedAdvisoryLock } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, findArea, registeredAreas } from '@einvoice/areas';
import { createCancellationHandler } from '../../apps/reporting-worker/src/authority/cancel-report';
import { pollReport, pollReports } from '../../apps/reporting-worker/src/authority/poll-report';
import { ReportPollSweep, dueReports } from '../../apps/reporting-worker/src/authority/report-poll-sweep';
import { ReportResendSweep, resendReport, resendSchedule } from '../../apps/reporting-worker/src/authority/report-resend-sweep';
import { type AuthorityReportingDependencies, REPORT_LOCK, createAuthorityReportHandler } from '../../apps/reporting-worker/src/authority/report-to-authority';
import { openTestDatabase } from '../support/database';
import { workerContext as context } from '../support/myinvois-worker';
import { appendReportRequest, toyReportRequest } from '../support/toy-reports';
import { waitUntil } from '../support/wait';

describe('#8 reporting to an authority through the generic pipeline (toy sandbox, real PostgreSQL)', () => {
  const run = Date.now().toString(36);
  const groupId = `authority-int-${run}`;
  const taxId = `TOY${String(Date.now() % 1_000_000).padStart(6, '0')}`;
  let dataSource: DataSource;
  let store: EventStore;
  let handle: ReturnType<typeof createAuthorityReportHandler>;
  let cancelHandler: ReturnType<typeof createCancellationHandler>;
  let deps: AuthorityReportingDependencies;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => dataSource.query(sql, params);
    // The toy area's connector as the worker gets it: from the registry (test-only areas listed).
    const toy = findArea('toy', registeredAreas({ EINVOICE_TEST_AREAS: '1' }));
    const connector = toy?.authority.connector?.({ query, env: {} }) as AuthorityConnector;
    const connectors = new Map([['toy', connector]]);
    // Polls due at once: the test asks when it wants (the sweep's timing is the e2e test's).
    deps = { store, connectors, pollPolicies: new Map([['toy', { intervalMs: 0, maxPolls: 3 }]]), groupId, log: createLogger('test', 'error') };
    handle = createAuthorityReportHandler(deps);
    cancelHandler = createCancellationHandler(deps);
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  const limitedHandle = (withDeps: AuthorityReportingDependencies) => createAuthorityReportHandler(withDeps);
  /** Appends a report of `number` (as the gateway does) and returns its requested event. */
  const requestReport = (number: string): Promise<RecordedEvent> => appendReportRequest(store, toyReportRequest(number, { taxId }));

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
    // The attempt marker is the worker's bookkeeping: stored, but never published (no outbox row).
    const published = await dataSource.query(`SELECT message_type FROM outbox WHERE aggregate_id = $1 ORDER BY id`, [event.streamId]);
    expect(published.map((r: { message_type: string }) => r.message_type)).toEqual(['AuthorityReportRequested', 'AuthorityReportAccepted']);
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

  it('a call turned away by the authority\'s rate limit (429) leaves the consumer: the resend sweep sends it once the wait is over, without asking the authority first', async () => {
    const connector = deps.connectors.get('toy') as AuthorityConnector;
    let turnAway = true;
    let recoveries = 0;
    const sentAt: number[] = [];
    const limited: AuthorityConnector = Object.assign(Object.create(connector), {
      submit: (...args: Parameters<AuthorityConnector['submit']>) => {
        sentAt.push(Date.now());
        if (!turnAway) return connector.submit(...args);
        turnAway = false;
        return Promise.reject(new AppError('rate_limited', 'TOY.RATE_LIMITED', 'Too many requests.', { details: { retryAfterMs: 1_000 } }));
      },
      recover: (...args: Parameters<AuthorityConnector['recover']>) => {
        recoveries += 1;
        return connector.recover(...args);
      },
    });
    const limitedDeps = { ...deps, connectors: new Map([['toy', limited]]) };
    const event = await requestReport(`LIMITED-${run}`);

    // Handled: recorded as turned away with the processed mark; nothing for the consumer to retry.
    await limitedHandle(limitedDeps)(event, context);
    expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAttemptTurnedAway']);
    const [processed] = await dataSource.query(`SELECT count(*)::int AS n FROM processed_events WHERE consumer_group = $1 AND event_id = $2`, [groupId, event.eventId]);
    expect(processed.n).toBe(1);
    const [row] = await dataSource.query(
      `SELECT d.state, extract(epoch FROM d.resend_at - (t.data->>'turnedAwayAt')::timestamptz) * 1000 AS wait_ms, w.next_call_at IS NOT NULL AS window_closed
       FROM documents d JOIN events t ON t.stream_id = $2 AND t.type = 'AuthorityReportAttemptTurnedAway'
       LEFT JOIN authority_call_windows w ON w.area = d.area AND w.supplier_id = d.supplier_id WHERE d.id = $1`,
      [(event.data as AuthorityReportRequestedData).documentId, event.streamId],
    );
    expect(row).toMatchObject({ state: 'pending', window_closed: true });
    expect(Number(row.wait_ms)).toBe(1_000);
    // Not due before the authority's wait is over.
    const early = await resendSchedule(dataSource, ['toy']);
    expect(early.due.map((r) => r.reportId)).not.toContain(reportId(event));
    expect(early.nextDueInMs).toBeGreaterThan(0);

    const sweep = new ReportResendSweep(limitedDeps, { dataSource, lockName: `resend-${run}`, intervalMs: 100, areas: ['toy'] });
    sweep.start();
    try {
      await waitUntil('the report sent again and answered', async () => (await documentOf(event)).state === 'reported', 15_000);
    } finally {
      await sweep.stop();
    }
    expect(recoveries).toBe(0);
    expect(sentAt).toHaveLength(2);
    expect(sentAt[1] - sentAt[0]).toBeGreaterThanOrEqual(900);
    expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAttemptTurnedAway', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
    expect(await takenAtAuthority(`LIMITED-${run}`)).toBe(1);
    // A redelivery of the event afterwards sends nothing again.
    await limitedHandle(limitedDeps)(event, context);
    expect(sentAt).toHaveLength(2);
  });

  it('a report turned away again by the resend sweep waits for the new Retry-After; one whose resend failed otherwise is in doubt and asked for first', async () => {
    const connector = deps.connectors.get('toy') as AuthorityConnector;
    const refusals = [new AppError('rate_limited', 'TOY.RATE_LIMITED', 'Too many requests.', { details: { retryAfterMs: 200 } }), new AppError('rate_limited', 'TOY.RATE_LIMITED', 'Too many requests.', { details: { retryAfterMs: 300 } })];
    let lost = true;
    let recoveries = 0;
    const flaky: AuthorityConnector = Object.assign(Object.create(connector), {
      submit: async (...args: Parameters<AuthorityConnector['submit']>) => {
        const refusal = refusals.shift();
        if (refusal) throw refusal;
        const outcome = await connector.submit(...args);
        if (!lost) return outcome;
        lost = false;
        // Taken by the authority, but the answer never reaches us (a timeout).
        throw new AppError('unavailable', 'TOY.TIMEOUT', 'No answer.');
      },
      recover: (...args: Parameters<AuthorityConnector['recover']>) => {
        recoveries += 1;
        return connector.recover(...args);
      },
    });
    const flakyDeps = { ...deps, connectors: new Map([['toy', flaky]]) };
    const event = await requestReport(`LIMITED2-${run}`);
    await limitedHandle(flakyDeps)(event, context);
    // resendReport sends whatever it is given (the sweep's schedule decides when, tested above): no wait needed.
    expect(await resendReport(flakyDeps, reportId(event))).toBe('turned away');
    await expect(resendReport(flakyDeps, reportId(event))).rejects.toMatchObject({ code: 'TOY.TIMEOUT' });
    expect((await documentOf(event)).state).toBe('pending');
    expect(await resendReport(flakyDeps, reportId(event))).toBe('answered');
    expect(recoveries).toBe(1);
    expect(await takenAtAuthority(`LIMITED2-${run}`)).toBe(1);
    expect((await documentOf(event)).state).toBe('reported');
    expect(await resendReport(flakyDeps, reportId(event))).toBe('answered before');
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

  const poll = (event: RecordedEvent) => pollReport(deps, reportId(event), randomUUID(), context);
  const isDue = async (event: RecordedEvent) => (await dueReports(dataSource, 10_000)).some((r) => r.reportId === reportId(event));

  it('a document taken for processing is polled until its verdict; a poll after the verdict calls nothing', async () => {
    const event = await requestReport(`SLOW-${run}`);
    await handle(event, context);
    expect((await documentOf(event)).state).toBe('processing');
    expect(await isDue(event)).toBe(true);
    // SLOW- numbers have no verdict for two polls (libs/areas/src/toy/README.md).
    await poll(event);
    await poll(event);
    expect((await documentOf(event)).authority).toMatchObject({ polls: 2, receipt: { receiptNumber: expect.stringMatching(/^TOY-/) } });
    await poll(event);
    const row = await documentOf(event);
    expect(row.state).toBe('reported');
    // The verdict's receipt joins the submission's.
    expect(row.authority.receipt).toMatchObject({ receiptNumber: expect.stringMatching(/^TOY-/), verdict: 'valid' });
    expect(await isDue(event)).toBe(false);
    await poll(event);
    expect(await typesOf(event)).toEqual([
      'AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted', 'AuthorityReportPolled', 'AuthorityReportPolled', 'AuthorityReportValidated',
    ]);
  });

  it('an invalid verdict is recorded with the authority\'s error; after the last allowed poll no poll is due', async () => {
    const invalid = await requestReport(`SLOW-BAD-${run}`);
    await handle(invalid, context);
    for (let n = 0; n < 3; n += 1) await poll(invalid);
    expect(await documentOf(invalid)).toMatchObject({ state: 'invalid', authority: { error: { code: 'TOY-E003', path: 'Total' } } });

    // maxPolls 3 here: a third poll without a verdict leaves the document processing, with no poll due.
    const endless = await requestReport(`SLOW-NEVER-${run}`);
    await handle(endless, context);
    await dataSource.query(`UPDATE toy_authority_documents SET polls = -100 WHERE report_id = $1`, [reportId(endless)]);
    for (let n = 0; n < 3; n += 1) await poll(endless);
    expect((await documentOf(endless)).state).toBe('processing');
    expect(await isDue(endless)).toBe(false);
  });

  it('with slowIntervalMs, polling goes on after maxPolls, every slowIntervalMs, until the verdict', async () => {
    const slow = { ...deps, pollPolicies: new Map([['toy', { intervalMs: 0, maxPolls: 2, slowIntervalMs: 300_000 }]]) };
    const event = await requestReport(`SLOW-LONG-${run}`);
    await handle(event, context);
    // No verdict for four polls (SLOW- numbers have none for two; its count set back by two).
    await dataSource.query(`UPDATE toy_authority_documents SET polls = -2 WHERE report_id = $1`, [reportId(event)]);
    const secondsToNextPoll = async () =>
      Number((await dataSource.query(`SELECT extract(epoch FROM next_poll_at - now()) AS s FROM documents WHERE report_id = $1`, [reportId(event)]))[0].s);
    const pollNow = async () => {
      await dataSource.query(`UPDATE documents SET next_poll_at = now() WHERE report_id = $1`, [reportId(event)]);
      await pollReport(slow, reportId(event), randomUUID(), context);
    };

    await pollNow();
    expect(await secondsToNextPoll()).toBeLessThan(5);
    // The last quick poll: the next is slowIntervalMs away, not never.
    await pollNow();
    expect(await secondsToNextPoll()).toBeGreaterThan(290);
    expect(await isDue(event)).toBe(false);
    await pollNow();
    expect(await secondsToNextPoll()).toBeGreaterThan(290);
    expect((await documentOf(event)).state).toBe('processing');
    await pollNow();
    await pollNow();
    expect(await documentOf(event)).toMatchObject({ state: 'reported', authority: { polls: 4 } });
  });

  it('#11 polls many reports together: one transaction for their answers, a report another worker holds left out, a stream that moved costs the others nothing', async () => {
    const [held, together, moved, alone] = await Promise.all(['HELD', 'ONE', 'MOVED', 'TWO'].map((n) => requestReport(`SLOW-GROUP-${n}-${run}`)));
    for (const event of [held, together, moved, alone]) await handle(event, context);
    // `moved`: another writer records a poll between this group's read and its transaction.
    const connector = deps.connectors.get('toy') as AuthorityConnector;
    const racing: AuthorityConnector = Object.assign(Object.create(connector), {
      poll: async (...args: Parameters<NonNullable<AuthorityConnector['poll']>>) => {
        if (args[0].reportId === reportId(moved)) {
          const data = { reportId: reportId(moved), pollNo: 1, verdict: { kind: 'pending' as const }, polledAt: new Date().toISOString(), maxPolls: 3, nextPollAt: new Date().toISOString() };
          await store.transaction((uow) => handleCommand(uow, authorityReportDecider, authorityReportStreamId(data.reportId), { type: 'RecordReportPoll', data }, { tenantId: randomUUID() }));
        }
        return connector.poll!(...args);
      },
    });
    const racingDeps = { ...deps, connectors: new Map([['toy', racing]]) };

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const holding = new Promise<void>((resolve) => (entered = resolve));
    const other = withTriedAdvisoryLock(dataSource, REPORT_LOCK, reportId(held), async () => {
      entered();
      await gate;
    });
    await holding;
    const result = await pollReports(racingDeps, [held, together, moved, alone].map(reportId), randomUUID(), context);
    release();
    await other;

    expect([...result.held].sort()).toEqual([together, moved, alone].map(reportId).sort());
    expect([...result.failures.keys()]).toEqual([reportId(moved)]);
    expect(result.failures.get(reportId(moved))).toMatchObject({ code: 'STREAM.WRONG_EXPECTED_VERSION' });
    expect((await typesOf(held)).filter((t) => t === 'AuthorityReportPolled')).toHaveLength(0);
    expect((await typesOf(moved)).filter((t) => t === 'AuthorityReportPolled')).toHaveLength(1);
    // The two others' polls: recorded (each in its own transaction after the group's failed).
    for (const event of [together, alone]) expect((await documentOf(event)).authority).toMatchObject({ polls: 1 });

    // Without a conflict: one transaction for the group's answers (their rows share the inserting transaction id).
    const second = await pollReports(deps, [together, alone].map(reportId), randomUUID(), context);
    expect(second.failures.size).toBe(0);
    const xmins = await dataSource.query(
      `SELECT DISTINCT xmin::text AS x FROM events WHERE stream_id = ANY($1) AND type = 'AuthorityReportPolled' AND (data->>'pollNo')::int = 2`,
      [[together, alone].map((e) => authorityReportStreamId(reportId(e)))],
    );
    expect(xmins).toHaveLength(1);
  });

  /** Requests the cancellation as the gateway does; returns its event. */
  async function requestCancellation(event: RecordedEvent): Promise<RecordedEvent> {
    const data = { reportId: reportId(event), reason: 'Wrong buyer', requestedAt: new Date().toISOString() };
    const [requested] = await store.transaction((uow) =>
      handleCommand(uow, authorityReportDecider, authorityReportStreamId(data.reportId), { type: 'RequestReportCancellation', data }, { tenantId: randomUUID() }),
    );
    return requested;
  }

  it('cancels at the authority outside any transaction and records it once; a refusal leaves the document reported', async () => {
    const event = await requestReport(`CANCEL-${run}`);
    await handle(event, context);
    const cancellation = await requestCancellation(event);
    expect((await documentOf(event)).state).toBe('cancelling');
    await cancelHandler(cancellation, context);
    await cancelHandler(cancellation, context);
    expect((await documentOf(event)).state).toBe('cancelled');
    const cancelledAt = await dataSource.query(`SELECT cancelled_at FROM toy_authority_documents WHERE report_id = $1`, [reportId(event)]);
    expect(cancelledAt[0].cancelled_at).not.toBeNull();
    expect((await typesOf(event)).slice(-2)).toEqual(['AuthorityReportCancellationRequested', 'AuthorityReportCancelled']);

    const kept = await requestReport(`KEEP-${run}`);
    await handle(kept, context);
    await cancelHandler(await requestCancellation(kept), context);
    expect(await documentOf(kept)).toMatchObject({ state: 'reported', authority: { cancellationError: { code: 'TOY-E004' } } });
    // Refused once, it may be asked again.
    await expect(requestCancellation(kept)).resolves.toMatchObject({ type: 'AuthorityReportCancellationRequested' });
  });
  it('the poll sweep polls a report that falls due during another group\'s call without waiting for that call', async () => {
    // An area code of this test's own (the toy's connector under it): the sweep finds every due report,
    // and must poll only these two (others fail for want of a connector here, and wait).
    const area = `toy-poll-${run}`;
    const toyConnector = deps.connectors.get('toy') as AuthorityConnector;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    const held = Object.assign(Object.create(toyConnector) as AuthorityConnector, {
      poll: async (...args: Parameters<NonNullable<AuthorityConnector['poll']>>) => {
        const number = (args[0].payload as { number: string }).number;
        asked.push(number);
        if (number.startsWith('SLOW-A-')) await gate;
        return (toyConnector.poll as NonNullable<AuthorityConnector['poll']>)(...args);
      },
    });
    const own: AuthorityReportingDependencies = { ...deps, connectors: new Map([[area, held]]), pollPolicies: new Map([[area, { intervalMs: 0, maxPolls: 3 }]]) };
    const submit = createAuthorityReportHandler(own);
    const request = async (number: string) => {
      const event = await appendReportRequest(store, toyReportRequest(number, { taxId, area }));
      await submit(event, context);
      return event;
    };
    const first = await request(`SLOW-A-${run}`);
    const sweep = new ReportPollSweep(own, { dataSource, lockName: `poll-held-${run}`, intervalMs: 3_600_000 });
    sweep.start();
    try {
      sweep.wake();
      await waitUntil('the first poll is in flight', async () => asked.includes(`SLOW-A-${run}`), 10_000);
      const second = await request(`SLOW-B-${run}`);
      sweep.wake();
      await waitUntil('the second report is polled while the first call waits', async () => (await documentOf(second)).authority?.polls >= 1, 10_000);
      expect((await documentOf(first)).authority?.polls).toBeUndefined();
      release();
      await waitUntil('the first poll is recorded once its call returns', async () => (await documentOf(first)).authority?.polls >= 1, 10_000);
    } finally {
      release();
      await sweep.stop();
    }
  });
});
