// Batched reporting in the generic pipeline (#8; the way VeriFactu and MyInvois take documents) on
// real PostgreSQL, with the toy area's sandbox authority (libs/areas/src/toy) in batch mode: one call
// per issuer's batch, due when full or when its oldest waited, the authority's stated wait honoured,
// refusals per report, and a batch whose answer was lost recovered rather than reported twice; reports
// a caller submitted together (`batchKey`) sent at once, whole, in a call of their own.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, type AuthorityReportRequestedData, type RecordedEvent, authorityReportStreamId, createLogger } from '@einvoice/domain';
import type { EventStore } from '@einvoice/domain/infrastructure';
import type { BatchPolicy } from '@einvoice/areas';
import { ToySandboxAuthority } from '../../libs/areas/src/toy';
import { ReportBatchSweep, dueBatches, sendBatch } from '../../apps/reporting-worker/src/authority/report-batch-sweep';
import { type AuthorityReportingDependencies, REPORT_LOCK, createAuthorityReportHandler } from '../../apps/reporting-worker/src/authority/report-to-authority';
import { openTestDatabase } from '../support/database';
import { waitUntil } from '../support/wait';
import { workerContext as context } from '../support/myinvois-worker';
import { appendReportRequest, toyReportRequest } from '../support/toy-reports';

describe('#8 batched reporting to an authority (toy sandbox in batch mode, real PostgreSQL)', () => {
  const run = Date.now().toString(36);
  // An area code of this file's own (the toy's connector under it): the sweep looks for every due
  // issuer of an area, and must not take the reports other suites leave pending for 'toy'.
  const area = `toy-batch-${run}`;
  let dataSource: DataSource;
  let store: EventStore;
  let authority: ToySandboxAuthority;
  let calls: Array<readonly string[]>;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    authority = new ToySandboxAuthority((sql, params) => dataSource.query(sql, params), { batchWaitMs: 60_000 });
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  beforeEach(() => {
    calls = [];
  });

  /**
   * The pipeline's dependencies with the toy area batched under `policy`; every batch call is counted.
   * The authority states a minute's wait after each call unless `at` is another.
   */
  function depsWith(policy: BatchPolicy, at: ToySandboxAuthority = authority): AuthorityReportingDependencies {
    const counted = Object.assign(Object.create(at) as ToySandboxAuthority, {
      submitBatch: (reports: Parameters<ToySandboxAuthority['submitBatch']>[0]) => {
        calls.push(reports.map((r) => r.payload.number));
        return at.submitBatch(reports);
      },
    });
    return {
      store,
      connectors: new Map([[area, counted]]),
      batchPolicies: new Map([[area, policy]]),
      groupId: `authority-batch-int-${run}`,
      log: createLogger('test', 'error'),
    };
  }

  /** An issuer: its supplier id and toy tax id. */
  const issuer = () => ({ supplierId: randomUUID(), taxId: `TOY${randomUUID().slice(0, 8)}` });

  /** Appends a report of `number` for `who` (as the gateway does; `batchKey`: submitted with others) and returns its requested event. */
  const requestReport = (who: { supplierId: string; taxId: string }, number: string, batchKey?: string): Promise<RecordedEvent> =>
    appendReportRequest(store, toyReportRequest(number, { supplierId: who.supplierId, area, taxId: who.taxId, ...(batchKey ? { batchKey } : {}) }));

  const reportIdOf = (event: RecordedEvent) => (event.data as AuthorityReportRequestedData).reportId;
  const streamOf = (event: RecordedEvent) => store.readStream(authorityReportStreamId(reportIdOf(event)));
  const typesOf = async (event: RecordedEvent) => (await streamOf(event)).map((e) => e.type);
  const documentOf = async (event: RecordedEvent) =>
    (await dataSource.query(`SELECT state, authority FROM documents WHERE id = $1`, [(event.data as AuthorityReportRequestedData).documentId]))[0];
  const takenAtAuthority = async (who: { taxId: string }) =>
    Number((await dataSource.query(`SELECT count(*) AS n FROM toy_authority_documents WHERE tax_id = $1`, [who.taxId]))[0].n);
  const openWindow = (who: { supplierId: string }) => dataSource.query(`DELETE FROM authority_call_windows WHERE area = $1 AND supplier_id = $2`, [area, who.supplierId]);
  const dueOf = async (who: { supplierId: string }, policy: BatchPolicy) => (await dueBatches(dataSource, area, policy, 10_000)).filter((b) => b.supplierId === who.supplierId);
  const isDue = async (who: { supplierId: string }, policy: BatchPolicy) => (await dueOf(who, policy)).length > 0;
  /** The issuer's reports submitted one by one (no batch key). */
  const othersOf = (who: { supplierId: string }) => ({ supplierId: who.supplierId, batchKey: null });
  /** The calls that carried reports of one test (numbers starting with `prefix`): a sweep serves every due issuer of the file's area. */
  const callsOf = (prefix: string) => calls.filter((numbers) => numbers.some((n) => n.startsWith(prefix)));

  it('an issuer\'s reports go in one call, each answered; the Kafka handler leaves them to the batch', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const deps = depsWith(policy);
    const who = issuer();
    const events = [];
    for (let n = 1; n <= 3; n += 1) events.push(await requestReport(who, `B${n}-${run}`));
    // The consumer of AuthorityReportRequested sends nothing for a batched area.
    await createAuthorityReportHandler(deps)(events[0], context);
    expect(await typesOf(events[0])).toEqual(['AuthorityReportRequested']);

    expect(await isDue(who, policy)).toBe(true);
    const result = await sendBatch(deps, area, othersOf(who), policy);
    expect(result).toMatchObject({ sent: 3, recovered: 0, unanswered: 0 });
    expect(calls).toEqual([[`B1-${run}`, `B2-${run}`, `B3-${run}`]]);
    for (const event of events) {
      expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
      expect((await streamOf(event))[1].data).toMatchObject({ batchId: result.batchId, attempt: 1 });
      expect((await documentOf(event)).state).toBe('reported');
    }
    expect(await takenAtAuthority(who)).toBe(3);
  });

  it('a batch is due when full or when its oldest report has waited maxWaitMs, and holds at most maxReports', async () => {
    const policy = { maxReports: 3, maxWaitMs: 60_000 };
    const deps = depsWith(policy);
    const who = issuer();
    await requestReport(who, `F1-${run}`);
    await requestReport(who, `F2-${run}`);
    expect(await isDue(who, policy)).toBe(false);
    await requestReport(who, `F3-${run}`);
    await requestReport(who, `F4-${run}`);
    expect(await isDue(who, policy)).toBe(true);
    await sendBatch(deps, area, othersOf(who), policy);
    expect(calls).toEqual([[`F1-${run}`, `F2-${run}`, `F3-${run}`]]);

    // One left, young: not due until it has waited (here: its wait set back).
    await openWindow(who);
    expect(await isDue(who, policy)).toBe(false);
    await dataSource.query(`UPDATE documents SET created_at = now() - interval '2 minutes' WHERE supplier_id = $1 AND report_state = 'pending'`, [who.supplierId]);
    expect(await isDue(who, policy)).toBe(true);
  });

  it('the wait the authority states after a call holds the issuer\'s next batch back; other issuers go on', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const deps = depsWith(policy);
    const who = issuer();
    const other = issuer();
    await requestReport(who, `W1-${run}`);
    await sendBatch(deps, area, othersOf(who), policy);
    const [window] = await dataSource.query(
      `SELECT extract(epoch FROM next_call_at - now()) AS seconds FROM authority_call_windows WHERE area = $1 AND supplier_id = $2`,
      [area, who.supplierId],
    );
    expect(Number(window.seconds)).toBeGreaterThan(50);
    await requestReport(who, `W2-${run}`);
    await requestReport(other, `W3-${run}`);
    expect(await isDue(who, policy)).toBe(false);
    expect(await isDue(other, policy)).toBe(true);
    await openWindow(who);
    expect(await isDue(who, policy)).toBe(true);
  });

  it('a refusal is the refused report\'s alone', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const who = issuer();
    const good = await requestReport(who, `G-${run}`);
    const refused = await requestReport(who, `REFUSE-${run}`);
    await sendBatch(depsWith(policy), area, othersOf(who), policy);
    expect((await documentOf(good)).state).toBe('reported');
    expect(await documentOf(refused)).toMatchObject({ state: 'rejected', authority: { error: { code: 'TOY-E001', path: 'ID' } } });
  });

  it('a batch whose answer was lost is recovered in the next round: every report reported once, none sent twice', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const deps = depsWith(policy);
    const who = issuer();
    const events = [await requestReport(who, `L1-${run}`), await requestReport(who, `LOSTBATCH-${run}`), await requestReport(who, `L3-${run}`)];
    await expect(sendBatch(deps, area, othersOf(who), policy)).rejects.toMatchObject({ code: 'TOY.UNAVAILABLE', retriable: true });
    expect(await takenAtAuthority(who)).toBe(3);
    for (const event of events) expect((await documentOf(event)).state).toBe('pending');

    const result = await sendBatch(deps, area, othersOf(who), policy);
    expect(result).toMatchObject({ sent: 0, recovered: 3, unanswered: 0 });
    expect(calls).toHaveLength(1);
    expect(await takenAtAuthority(who)).toBe(3);
    for (const event of events) {
      expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
      expect((await streamOf(event)).at(-1)?.data).toMatchObject({ recovered: true });
      expect((await documentOf(event)).state).toBe('reported');
    }
  });

  it('a batch turned away by the authority\'s rate limit (429) is sent again without asking the authority first: nothing was taken', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    let turnAway = true;
    let recoveries = 0;
    const limited = Object.assign(Object.create(authority) as ToySandboxAuthority, {
      submitBatch: (reports: Parameters<ToySandboxAuthority['submitBatch']>[0]) => {
        if (!turnAway) return authority.submitBatch(reports);
        turnAway = false;
        return Promise.reject(new AppError('rate_limited', 'TOY.RATE_LIMITED', 'Too many requests.', { details: { retryAfterMs: 1_000 } }));
      },
      recover: (...args: Parameters<ToySandboxAuthority['recover']>) => {
        recoveries += 1;
        return authority.recover(...args);
      },
    });
    const deps = depsWith(policy, limited);
    const who = issuer();
    const events = [await requestReport(who, `RL1-${run}`), await requestReport(who, `RL2-${run}`)];
    await expect(sendBatch(deps, area, othersOf(who), policy)).rejects.toMatchObject({ code: 'TOY.RATE_LIMITED' });
    for (const event of events) {
      expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAttemptTurnedAway']);
      expect((await documentOf(event)).state).toBe('pending');
    }

    await openWindow(who);
    expect(await sendBatch(deps, area, othersOf(who), policy)).toMatchObject({ sent: 2, recovered: 0 });
    expect(recoveries).toBe(0);
    expect(calls).toEqual([[`RL1-${run}`, `RL2-${run}`], [`RL1-${run}`, `RL2-${run}`]]);
    for (const event of events) expect((await documentOf(event)).state).toBe('reported');
  });

  it('a call that fails part-way is retried: what the authority took before the failure is recovered, the rest sent', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const deps = depsWith(policy);
    const who = issuer();
    // FLAKY- numbers fail their first two calls (libs/areas/src/toy/README.md): P1 is taken before.
    const first = await requestReport(who, `P1-${run}`);
    const flaky = await requestReport(who, `FLAKY-${run}`);
    for (let failure = 1; failure <= 2; failure += 1) {
      await expect(sendBatch(deps, area, othersOf(who), policy)).rejects.toMatchObject({ retriable: true });
    }
    const result = await sendBatch(deps, area, othersOf(who), policy);
    // P1 was found at the authority by the second round (recorded then, though its call failed).
    expect(result).toMatchObject({ sent: 1, recovered: 0 });
    expect(calls).toEqual([[`P1-${run}`, `FLAKY-${run}`], [`FLAKY-${run}`], [`FLAKY-${run}`]]);
    expect(calls.at(-1)).toEqual([`FLAKY-${run}`]);
    expect(await takenAtAuthority(who)).toBe(2);
    expect((await documentOf(first)).state).toBe('reported');
    expect((await documentOf(flaky)).state).toBe('reported');
    // Three attempts of the flaky one, each a marker; the first report was attempted once.
    expect((await typesOf(flaky)).filter((t) => t === 'AuthorityReportAttempted')).toHaveLength(3);
    expect((await typesOf(first)).filter((t) => t === 'AuthorityReportAttempted')).toHaveLength(1);
  });

  it('a batch the authority left partly unanswered is asked for in a later round, not again at once in the same round', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const authority = new ToySandboxAuthority((sql, params) => dataSource.query(sql, params));
    // The authority takes both but answers for one only (the other's answer lost).
    const partial = Object.assign(Object.create(authority) as ToySandboxAuthority, {
      submitBatch: async (reports: Parameters<ToySandboxAuthority['submitBatch']>[0]) => {
        const answer = await authority.submitBatch(reports);
        const outcomes = Object.fromEntries(Object.entries(answer.outcomes).filter(([reportId]) => !reports.some((r) => r.reportId === reportId && r.payload.number.startsWith('UNANS'))));
        return { ...answer, outcomes };
      },
    });
    const who = issuer();
    const answered = await requestReport(who, `ANS-${run}`);
    const unanswered = await requestReport(who, `UNANS-${run}`);
    const sweep = new ReportBatchSweep(depsWith(policy, partial), { dataSource, lockName: `batch-unanswered-${run}`, intervalMs: 60_000 });
    expect(await sweep.runOnce()).toBe(true);
    expect(callsOf('ANS').length + callsOf('UNANS').length).toBeGreaterThan(0);
    expect(calls.filter((numbers) => numbers.includes(`UNANS-${run}`))).toHaveLength(1);
    expect((await documentOf(answered)).state).toBe('reported');
    expect((await documentOf(unanswered)).state).toBe('pending');
    // The next round asks the authority first and finds it: recorded once, never sent twice.
    await sweep.runOnce();
    expect((await documentOf(unanswered)).state).toBe('reported');
    expect(calls.filter((numbers) => numbers.includes(`UNANS-${run}`))).toHaveLength(1);
  });

  it('the sweep sends every due issuer\'s batch, one call each', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const deps = depsWith(policy);
    const [one, two] = [issuer(), issuer()];
    const a = await requestReport(one, `S1-${run}`);
    const b = await requestReport(two, `S2-${run}`);
    const sweep = new ReportBatchSweep(deps, { dataSource, lockName: `batch-int-${run}`, intervalMs: 60_000 });
    expect(await sweep.runOnce()).toBe(true);
    expect((await documentOf(a)).state).toBe('reported');
    expect((await documentOf(b)).state).toBe('reported');
    expect(calls).toEqual(expect.arrayContaining([[`S1-${run}`], [`S2-${run}`]]));
    // The other issuers still due are this file's own (F4 of the second test).
    expect(calls.flat().every((number) => number.endsWith(run))).toBe(true);
  });

  describe('reports submitted together (batchKey)', () => {
    const noWait = () => new ToySandboxAuthority((sql, params) => dataSource.query(sql, params));

    it('each keyed group goes alone and whole, past maxReports; the issuer\'s others in a call of their own', async () => {
      const policy = { maxReports: 2, maxWaitMs: 0 };
      const who = issuer();
      const [one, two] = [randomUUID(), randomUUID()];
      // Interleaved, as concurrent callers would: no call mixes them.
      for (const [number, key] of [['KU1', undefined], ['KA1', one], ['KA2', one], ['KU2', undefined], ['KB1', two], ['KA3', one], ['KB2', two]] as const) {
        await requestReport(who, `${number}-${run}`, key);
      }
      expect(await dueOf(who, policy)).toEqual([othersOf(who), { supplierId: who.supplierId, batchKey: one }, { supplierId: who.supplierId, batchKey: two }]);

      const sweep = new ReportBatchSweep(depsWith(policy, noWait()), { dataSource, lockName: `batch-int-${run}`, intervalMs: 60_000 });
      expect(await sweep.runOnce()).toBe(true);
      expect(callsOf('K')).toEqual([
        [`KU1-${run}`, `KU2-${run}`],
        [`KA1-${run}`, `KA2-${run}`, `KA3-${run}`],
        [`KB1-${run}`, `KB2-${run}`],
      ]);
      expect(await isDue(who, policy)).toBe(false);
      expect(await takenAtAuthority(who)).toBe(7);
    });

    it('a keyed group is due at once, while the issuer\'s others wait for maxWaitMs; keyed reports never join their batch', async () => {
      const policy = { maxReports: 10, maxWaitMs: 60_000 };
      const who = issuer();
      const key = randomUUID();
      await requestReport(who, `QU1-${run}`);
      await requestReport(who, `QK1-${run}`, key);
      await requestReport(who, `QK2-${run}`, key);
      expect(await dueOf(who, policy)).toEqual([{ supplierId: who.supplierId, batchKey: key }]);
      await sendBatch(depsWith(policy, noWait()), area, { supplierId: who.supplierId, batchKey: key }, policy);
      expect(calls).toEqual([[`QK1-${run}`, `QK2-${run}`]]);
      expect(await isDue(who, policy)).toBe(false);

      // The others' batch, once due, holds none of a keyed group requested after it.
      await requestReport(who, `QK3-${run}`, randomUUID());
      await sendBatch(depsWith(policy, noWait()), area, othersOf(who), policy);
      expect(calls.at(-1)).toEqual([`QU1-${run}`]);
    });

    it('the issuer\'s call window holds its other batches back, keyed or not: one call per round while the authority says wait', async () => {
      const policy = { maxReports: 10, maxWaitMs: 0 };
      const who = issuer();
      // Each group's age is its first report's time, in ms: requested in the same ms, two groups are equally old and
      // either may go first (seen on a fast machine). Their ages are set apart here: the oldest goes first.
      const requested = [await requestReport(who, `HK1-${run}`, randomUUID()), await requestReport(who, `HK2-${run}`, randomUUID()), await requestReport(who, `HU1-${run}`)];
      for (const [i, event] of requested.entries()) {
        await dataSource.query(`UPDATE documents SET created_at = created_at - make_interval(secs => $2) WHERE id = $1`, [(event.data as AuthorityReportRequestedData).documentId, 3 - i]);
      }
      const sweep = new ReportBatchSweep(depsWith(policy), { dataSource, lockName: `batch-int-${run}`, intervalMs: 60_000 });
      for (let round = 1; round <= 3; round += 1) {
        await sweep.runOnce();
        expect(callsOf('H')).toHaveLength(round);
        await openWindow(who);
      }
      expect(callsOf('H')).toEqual([[`HK1-${run}`], [`HK2-${run}`], [`HU1-${run}`]]);
    });

    it('a requested report of a batched area wakes the sweep: sent long before its interval', async () => {
      const policy = { maxReports: 10, maxWaitMs: 60_000 };
      const deps = depsWith(policy, noWait());
      const sweep = new ReportBatchSweep(deps, { dataSource, lockName: `batch-wake-${run}`, intervalMs: 3_600_000 });
      const handle = createAuthorityReportHandler(deps, { wake: () => sweep.wake() });
      const who = issuer();
      const key = randomUUID();
      const events = [await requestReport(who, `WK1-${run}`, key), await requestReport(who, `WK2-${run}`, key)];
      sweep.start();
      try {
        for (const event of events) await handle(event, context);
        await waitUntil('the woken sweep sends the keyed group', async () => (await documentOf(events[1])).state === 'reported', 10_000);
      } finally {
        await sweep.stop();
      }
      expect(callsOf('WK')).toEqual([[`WK1-${run}`, `WK2-${run}`]]);
    });

    it('a batch waiting for maxWaitMs is sent when it falls due, with no request or interval to wake the sweep', async () => {
      const policy = { maxReports: 10, maxWaitMs: 300 };
      const sweep = new ReportBatchSweep(depsWith(policy, noWait()), { dataSource, lockName: `batch-due-${run}`, intervalMs: 3_600_000 });
      const who = issuer();
      const event = await requestReport(who, `DUE1-${run}`);
      sweep.start();
      try {
        // The request's wake: its batch is not due yet (it waits 300 ms for others).
        sweep.wake();
        await waitUntil('the batch sent once it fell due', async () => (await documentOf(event)).state === 'reported', 10_000);
      } finally {
        await sweep.stop();
      }
      expect(callsOf('DUE')).toEqual([[`DUE1-${run}`]]);
    });

    it('a batch due during another\'s call is sent without waiting for that call: the round takes it as soon as it has a place', async () => {
      const policy = { maxReports: 10, maxWaitMs: 0, issuerCallsAtOnce: 2 };
      const authority = noWait();
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      // The first group's call waits until the test lets it go.
      const held = Object.assign(Object.create(authority) as ToySandboxAuthority, {
        submitBatch: async (reports: Parameters<ToySandboxAuthority['submitBatch']>[0]) => {
          if (reports.some((r) => r.payload.number.startsWith('GA'))) await gate;
          return authority.submitBatch(reports);
        },
      });
      const sweep = new ReportBatchSweep(depsWith(policy, held), { dataSource, lockName: `batch-held-${run}`, intervalMs: 3_600_000 });
      const who = issuer();
      const first = await requestReport(who, `GA1-${run}`, randomUUID());
      sweep.start();
      try {
        sweep.wake();
        await waitUntil('the first call is in flight', async () => callsOf('GA').length === 1, 10_000);
        const second = await requestReport(who, `GB1-${run}`, randomUUID());
        sweep.wake();
        await waitUntil('the second group is answered while the first call waits', async () => (await documentOf(second)).state === 'reported', 10_000);
        expect((await documentOf(first)).state).toBe('pending');
        release();
        await waitUntil('the first group is answered once its call returns', async () => (await documentOf(first)).state === 'reported', 10_000);
      } finally {
        release();
        await sweep.stop();
      }
      expect(callsOf('G')).toEqual([[`GA1-${run}`], [`GB1-${run}`]]);
    });
  });

  describe('#11 an area that polls at once (firstPollAfterMs 0): the first poll right after the answers', () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const pollPolicy = { intervalMs: 60_000, firstPollAfterMs: 0, maxPolls: 5 };
    const withPolls = (poll: typeof pollPolicy | { intervalMs: number; maxPolls: number }) => ({ ...depsWith(policy, noWaitAuthority()), pollPolicies: new Map([[area, poll]]) });
    const noWaitAuthority = () => new ToySandboxAuthority((sql, params) => dataSource.query(sql, params), { batchWaitMs: 0 });
    const secondsToNextPoll = async (event: RecordedEvent) =>
      Number((await dataSource.query(`SELECT extract(epoch FROM next_poll_at - now()) AS s FROM documents WHERE report_id = $1`, [reportIdOf(event)]))[0].s);
    const pollsAtAuthority = async (event: RecordedEvent) =>
      Number((await dataSource.query(`SELECT polls FROM toy_authority_documents WHERE report_id = $1`, [reportIdOf(event)]))[0].polls);

    it('each report taken for processing is polled once by the batch\'s sweep, not the poll sweep; a final answer is not polled', async () => {
      const who = issuer();
      const slow = [await requestReport(who, `SLOW-P1-${run}`), await requestReport(who, `SLOW-P2-${run}`)];
      const final = await requestReport(who, `FINAL-P3-${run}`);
      const result = await sendBatch(withPolls(pollPolicy), area, othersOf(who), policy);
      expect(result).toMatchObject({ sent: 3, unanswered: 0, firstPolled: 2 });
      for (const event of slow) {
        expect(await typesOf(event)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted', 'AuthorityReportPolled']);
        expect((await streamOf(event))[3].data).toMatchObject({ pollNo: 1 });
        expect(await pollsAtAuthority(event)).toBe(1);
        // The next poll is the interval after this one.
        expect(await secondsToNextPoll(event)).toBeGreaterThan(50);
      }
      expect(await typesOf(final)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
    });

    it('a report another worker holds is left to the poll sweep, an interval after its answer; without firstPollAfterMs the sweep makes every poll', async () => {
      const who = issuer();
      const held = await requestReport(who, `SLOW-H1-${run}`);
      const free = await requestReport(who, `SLOW-H2-${run}`);
      const other = await dataSource.createQueryRunner();
      await other.connect();
      try {
        await other.query(`SELECT pg_advisory_lock($1, hashtext($2))`, [REPORT_LOCK, reportIdOf(held)]);
        expect(await sendBatch(withPolls(pollPolicy), area, othersOf(who), policy)).toMatchObject({ sent: 2, firstPolled: 1 });
      } finally {
        await other.query(`SELECT pg_advisory_unlock_all()`);
        await other.release();
      }
      expect(await typesOf(held)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
      expect(await pollsAtAuthority(held)).toBe(0);
      expect(await secondsToNextPoll(held)).toBeGreaterThan(50);
      expect((await typesOf(free)).at(-1)).toBe('AuthorityReportPolled');

      const later = await requestReport(who, `SLOW-L1-${run}`);
      await sendBatch(withPolls({ intervalMs: 60_000, maxPolls: 5 }), area, othersOf(who), policy);
      expect(await typesOf(later)).toEqual(['AuthorityReportRequested', 'AuthorityReportAttempted', 'AuthorityReportAccepted']);
      expect(await secondsToNextPoll(later)).toBeGreaterThan(50);
    });
  });

  it('nothing pending: no call', async () => {
    const policy = { maxReports: 10, maxWaitMs: 0 };
    const result = await sendBatch(depsWith(policy), area, othersOf({ supplierId: randomUUID() }), policy);
    expect(result).toMatchObject({ sent: 0, recovered: 0, unanswered: 0 });
    expect(calls).toHaveLength(0);
  });
});
