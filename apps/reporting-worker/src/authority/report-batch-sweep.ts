import { closeCallWindow, recordIfTurnedAway, recordReport } from './record-report';
import { randomUUID } from 'node:crypto';
import {
  AppError,
  type AuthorityAnswerData,
  type AuthorityReportRequestedData,
  type RecordedEvent,
  authorityReportDecider,
  authorityReportStreamId,
  foldEvents,
  isRateLimited,
  retryAfterMsOf,
} from '@einvoice/domain';
import { LockedPeriodicJob } from '@einvoice/domain/infrastructure';
import type { AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchPolicy } from '@einvoice/areas';
import type { DataSource } from 'typeorm';
import { pollReports } from './poll-report';
import { type AuthorityReportingDependencies, answerOf, connectorOf, pollPolicyOf, reportMetadata, wholeReportOf } from './report-to-authority';

/** One batch sweep per stack at a time (advisory lock class): two sweepers would send one report twice. */
const SWEEP_LOCK = 7312012;
/** Batches sent per area and round at most, the longest waiting first. */
const BATCHES_PER_ROUND = 50;
/** Issuers whose batches are sent at once (each call in flight holds a pool connection for its transactions). */
const ISSUERS_AT_ONCE = 4;
/** How long an issuer whose call failed waits at least before the next try. */
const RETRY_AFTER_FAILURE_MS = 5_000;

export interface ReportBatchSweepOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** AUTHORITY_BATCH_SWEEP_MS (default 500): how often due batches are looked for. */
  readonly intervalMs: number;
  /** Told when a batch's answers are recorded (the poll sweep looks at once for reports taken for processing). */
  readonly answered?: () => void;
}

/** A batch to send: an issuer's reports submitted together (`batchKey`), or its others (`batchKey` null). */
export interface DueBatch {
  readonly supplierId: string;
  readonly batchKey: string | null;
}

/** What the batch sweep has to do in an area: the batches due, and in how many ms the next other one falls due. */
export interface BatchSchedule {
  readonly due: readonly DueBatch[];
  /** Undefined when no other batch waits. */
  readonly nextDueInMs?: number;
}

/**
 * Batches of a batched area and when each falls due, once the authority's wait since the issuer's last
 * call is over (`authority_call_windows`): reports the caller submitted together (one `batchKey`) at
 * once, as the caller made them one call; the issuer's other reports when `maxReports` are waiting or
 * the oldest has waited `maxWaitMs`. Reports attempted without an answer (a crash mid-call) wait with
 * the others and are asked for first. The `limit` due first (the longest waiting first), and when the
 * first of the others falls due, in one query read on every look of the sweep.
 */
export async function batchSchedule(dataSource: DataSource, area: string, policy: BatchPolicy, limit = BATCHES_PER_ROUND): Promise<BatchSchedule> {
  const rows: Array<{ supplier_id: string | null; batch_key: string | null; in_ms: number | null }> = await dataSource.query(
    `WITH batches AS (
       SELECT d.supplier_id, d.batch_key, min(d.created_at) AS first_at,
              greatest(CASE WHEN d.batch_key IS NOT NULL OR count(*) >= $2 THEN min(d.created_at)
                            ELSE min(d.created_at) + make_interval(secs => $3::float8 / 1000) END,
                       coalesce(max(w.next_call_at), '-infinity')) AS due_at
       FROM documents d
       LEFT JOIN authority_call_windows w ON w.area = d.area AND w.supplier_id = d.supplier_id
       WHERE d.area = $1 AND d.report_state = 'pending'
       GROUP BY d.supplier_id, d.batch_key)
     (SELECT supplier_id, batch_key, NULL::float8 AS in_ms FROM batches WHERE due_at <= now() ORDER BY first_at LIMIT $4)
     UNION ALL
     (SELECT NULL, NULL, extract(epoch FROM min(due_at) - now()) * 1000 FROM batches WHERE due_at > now())`,
    [area, policy.maxReports, policy.maxWaitMs, limit],
  );
  const due = rows.filter((r) => r.supplier_id !== null).map((r) => ({ supplierId: r.supplier_id as string, batchKey: r.batch_key }));
  const next = rows.find((r) => r.supplier_id === null)?.in_ms;
  return { due, ...(next !== null && next !== undefined ? { nextDueInMs: Number(next) } : {}) };
}

/** The batches due (batchSchedule). */
export async function dueBatches(dataSource: DataSource, area: string, policy: BatchPolicy, limit = BATCHES_PER_ROUND): Promise<readonly DueBatch[]> {
  return (await batchSchedule(dataSource, area, policy, limit)).due;
}

/** What became of one batch. */
export interface BatchResult {
  readonly batchId: string;
  /** Reports in the call. */
  readonly sent: number;
  /** Reports attempted before whose answer was found at the authority (not sent again). */
  readonly recovered: number;
  /** Reports the call left unanswered (asked for in a later round). */
  readonly unanswered: number;
  /** Reports taken for processing whose first poll this batch made (firstPollAfterMs 0): none is left for the poll sweep to make now. */
  readonly firstPolled: number;
  /** The wait the authority stated before the issuer's next call, when it stated one. */
  readonly nextCallAfterMs?: number;
}

/**
 * Sends one batch of an issuer's unanswered reports: those submitted together under `batchKey`, all of
 * them, or (`batchKey` null) its others, oldest first, at most `maxReports`. In three steps so that a
 * crash never reports one twice and no transaction is open during a call: (1) reports attempted before
 * are looked up at the authority (`recover`); (2) one transaction records what it has of them
 * (answers, `recovered`) and an attempt marker with the batch id on each of the others; (3) with no transaction open, one `submitBatch` call for those; then one transaction records
 * every answer and when the authority allows the issuer's next call; an area that polls at once has the
 * first poll of the reports taken for processing made then (firstPolls). A report the call did not answer
 * stays unanswered, and the next round recovers it first.
 */
export async function sendBatch(deps: AuthorityReportingDependencies, area: string, batch: DueBatch, policy: BatchPolicy): Promise<BatchResult> {
  const { supplierId, batchKey } = batch;
  const batchId = randomUUID();
  const connector = connectorOf(deps, area);
  const submitBatch = connector.submitBatch?.bind(connector);
  if (!submitBatch) throw new AppError('internal', 'AUTHORITY.NO_BATCH_CALL', `Area ${area} reports in batches but its connector has no submitBatch.`, { retriable: false });
  // A caller's batch is never split: it was one call for the caller, and is one for the authority.
  const waiting = await waitingReports(deps, area, batch, batchKey === null ? policy.maxReports : null);
  const call = { heartbeat: async () => undefined };

  const answers = new Map<string, AuthorityOutcome>();
  let recovered = 0;
  // Only calls that may have reached the authority are asked about (none turned away by its rate limit).
  for (const report of waiting.filter((r) => r.firstAttemptAt !== undefined)) {
    const found = await connector.recover(await wholeReportOf(deps, report.data), report.firstAttemptAt as string, call);
    if (found) {
      answers.set(report.data.reportId, found);
      recovered += 1;
    }
  }
  const toSend = waiting.filter((r) => !answers.has(r.data.reportId));
  if (recovered) deps.log('warn', 'batch reports attempted before: found at the authority, not sent again', { area, supplierId, batchKey, recovered });

  // What the authority has is recorded before the call, with the attempt markers of the others: a
  // failing call then does not make a later round ask for it again.
  const poll = pollPolicyOf(deps, area);
  const attemptedAt = new Date().toISOString();
  // Each stream as it stands after this transaction: the answers are decided on it (no other writer
  // appends to a report while it is unanswered and in this sweep's hands; one that did would fail the
  // expected version, and a later round would recover the report).
  const afterAttempt = new Map<string, RecordedEvent[]>();
  await deps.store.transaction(async (uow) => {
    for (const report of waiting) {
      const reportId = report.data.reportId;
      const found = answers.get(reportId);
      const command = found
        ? { type: 'RecordAuthorityAnswer' as const, data: { reportId, answer: answerOf(found, true, poll) } }
        : { type: 'RecordReportAttempt' as const, data: { reportId, attempt: report.attempts + 1, attemptedAt, batchId } };
      const recorded = await recordReport(uow, report.data, command, reportMetadata(report.data, report.requested), { history: report.history });
      afterAttempt.set(reportId, [...report.history, ...recorded]);
    }
  });
  if (!toSend.length) return { batchId, sent: 0, recovered, unanswered: 0, firstPolled: 0 };

  const requests = await Promise.all(toSend.map((report) => wholeReportOf(deps, report.data)));
  const outcome = await submitBatchOnce(submitBatch, requests, call).catch(async (error: unknown) => {
    // Turned away (429): nothing was taken, so the next round sends these reports again without asking first.
    await recordIfTurnedAway(deps.store, error, toSend.map((r) => ({ request: r.data, attempt: r.attempts + 1, metadata: reportMetadata(r.data, r.requested), history: afterAttempt.get(r.data.reportId) })));
    throw error;
  });
  const answered = toSend.filter((r) => outcome.outcomes[r.data.reportId] !== undefined);
  // An area that polls at once (`firstPollAfterMs` 0: MyInvois) has its first poll made here, right
  // after the answers are recorded, on the streams as committed (firstPolls); the next poll recorded
  // with the answer is then one interval later: the poll sweep's, should this one not be made.
  const { firstPollAfterMs, ...pollLater } = poll;
  const pollsHere = firstPollAfterMs === 0;
  const afterAnswer = new Map<string, RecordedEvent[]>();
  await deps.store.transaction(async (uow) => {
    for (const report of answered) {
      const reportId = report.data.reportId;
      const answer: AuthorityAnswerData = answerOf(outcome.outcomes[reportId], false, pollsHere ? pollLater : poll);
      const history = afterAttempt.get(reportId) ?? [];
      const recorded = await recordReport(uow, report.data, { type: 'RecordAuthorityAnswer', data: { reportId, answer } }, reportMetadata(report.data, report.requested), { history });
      if (answer.kind === 'accepted' && !answer.final) afterAnswer.set(reportId, [...history, ...recorded]);
    }
    if (outcome.nextCallAfterMs !== undefined && outcome.nextCallAfterMs > 0) {
      await closeCallWindow(uow, area, supplierId, outcome.nextCallAfterMs);
    }
  });
  const firstPolled = pollsHere && afterAnswer.size ? await firstPolls(deps, afterAnswer, batchId) : 0;
  const unanswered = toSend.length - answered.length;
  if (unanswered) deps.log('warn', 'the authority left batch reports unanswered; asked for in a later round', { area, supplierId, batchKey, batchId, unanswered });
  deps.log('info', 'batch reported', { area, supplierId, batchKey, batchId, sent: toSend.length, recovered, unanswered });
  return { batchId, sent: toSend.length, recovered, unanswered, firstPolled, nextCallAfterMs: outcome.nextCallAfterMs };
}

/**
 * The first poll of reports the authority just took for processing, made by the sweep that sent them:
 * not through the poll sweep (its schedule read, a wait for its next look, the streams read again).
 * Issue 11: under the MyInvois bulk load a document's first poll came 0.7 s (p50) after its answer,
 * and its verdict, one poll interval after that first poll, as late. A report not polled here (another
 * worker holds it, the call or its record failed) is polled by the poll sweep at its recorded next poll.
 */
async function firstPolls(deps: AuthorityReportingDependencies, streams: ReadonlyMap<string, RecordedEvent[]>, batchId: string): Promise<number> {
  try {
    const { held, failures } = await pollReports(deps, [...streams.keys()], batchId, { heartbeat: async () => undefined }, streams);
    const polled = held.length - failures.size;
    if (polled < streams.size) deps.log('info', 'first polls left to the poll sweep', { batchId, left: streams.size - polled });
    return polled;
  } catch (error) {
    deps.log('warn', 'first polls not made; the poll sweep makes them', { batchId, error: error instanceof AppError ? error.code : String(error) });
    return 0;
  }
}

interface WaitingReport {
  readonly requested: RecordedEvent;
  readonly data: AuthorityReportRequestedData;
  readonly history: RecordedEvent[];
  readonly attempts: number;
  readonly firstAttemptAt?: string;
}

/** The batch's unanswered reports, oldest first, with their streams (read in one query, outside any transaction); `limit` null: all. */
async function waitingReports(deps: AuthorityReportingDependencies, area: string, batch: DueBatch, limit: number | null): Promise<WaitingReport[]> {
  const rows: Array<{ report_id: string }> = await deps.store.dataSource.query(
    `SELECT report_id FROM documents
     WHERE area = $1 AND supplier_id = $2 AND batch_key IS NOT DISTINCT FROM $3 AND report_state = 'pending' AND report_id IS NOT NULL
     ORDER BY created_at, id LIMIT $4`,
    [area, batch.supplierId, batch.batchKey, limit],
  );
  const streams = await deps.store.readStreams(rows.map((row) => authorityReportStreamId(row.report_id)));
  const read = rows.map(({ report_id: reportId }): WaitingReport | undefined => {
    const history = streams.get(authorityReportStreamId(reportId)) ?? [];
    const state = foldEvents(authorityReportDecider, history as never);
    // Answered since the row was read (the projection commits with the answer): nothing to send.
    if (state.status !== 'requested') return undefined;
    const requested = history.find((e) => e.type === 'AuthorityReportRequested') as RecordedEvent;
    return { requested, data: requested.data as AuthorityReportRequestedData, history, attempts: state.attempts, firstAttemptAt: state.firstAttemptAt };
  });
  const waiting = read.filter((r): r is WaitingReport => r !== undefined);
  // In the order they were requested (the store's global positions: a caller's submission in its own
  // order, where created_at ties in a millisecond), chained records in their chain's order.
  const requestOrder = (r: WaitingReport) => BigInt(r.requested.globalPosition);
  waiting.sort((a, b) => (requestOrder(a) < requestOrder(b) ? -1 : requestOrder(a) > requestOrder(b) ? 1 : 0));
  return waiting.sort((a, b) => (a.data.chainPosition ?? 0) - (b.data.chainPosition ?? 0));
}

type SubmitBatch = NonNullable<AuthorityConnector['submitBatch']>;

/** One call; a final error of the connector (not the authority's per-report refusals) refuses every report of the batch. */
async function submitBatchOnce(submitBatch: SubmitBatch, requests: AuthorityReport[], call: { heartbeat(): Promise<void> }) {
  try {
    return await submitBatch(requests, call);
  } catch (error) {
    if (!(error instanceof AppError) || error.retriable) throw error;
    const refused: AuthorityOutcome = { kind: 'rejected', error: { code: error.code, message: error.message } };
    return { outcomes: Object.fromEntries(requests.map((r) => [r.reportId, refused])) };
  }
}

/**
 * Sends the due batches of every batched area (area registry `authority.batch`), in one worker of the
 * stack at a time. A round goes on while it has batches in flight: a batch is started as soon as it is
 * due and has a place (ISSUERS_AT_ONCE issuers at once, `issuerCallsAtOnce` calls each; an issuer's
 * batches in the order they became due), not once the batches started before it are all answered, so
 * a caller's submission made during a call does not wait for that call (issue 11: requested → attempted
 * was 1.5 s p50 under the MyInvois bulk load, most of it waiting for the round to end). The authority's
 * wait and the back-off after a failure are the issuer's, whichever of its batches caused them: an
 * issuer whose call failed (authority down, 429) waits RETRY_AFTER_FAILURE_MS, or its Retry-After,
 * before the next try, and one whose call the authority answered with a wait (its call window, read by
 * `dueBatches`) sends no other batch until then; the other issuers go on. `wake()` (a report of a
 * batched area requested) looks for due batches at once, during a round too.
 */
export class ReportBatchSweep extends LockedPeriodicJob {
  private readonly resumeAt = new Map<string, number>();

  constructor(
    private readonly deps: AuthorityReportingDependencies,
    private readonly options: ReportBatchSweepOptions,
  ) {
    super({ ...options, lockKey: SWEEP_LOCK, log: deps.log, description: 'authority report batch sweep' });
  }

  protected round(stopping: () => boolean): Promise<void> {
    // Batches in flight, by area, issuer and batch key → their issuer (area:supplier).
    const inFlight = new Map<string, string>();
    // Batches that found nothing to send (answered meanwhile) or were left unanswered: not started again this round.
    const idle = new Set<string>();
    return this.whileInFlight(stopping, async (start) => {
      for (const [area, policy] of this.deps.batchPolicies ?? []) {
        const { due, nextDueInMs } = await batchSchedule(this.options.dataSource, area, policy);
        // A batch waiting for its oldest report's maxWaitMs or its issuer's call window is sent when it falls
        // due, not at the next interval (issue 11: Argentina's callers, all waiting for their answers, sent
        // nothing to wake the sweep, and each 100 ms batch waited for the 500 ms interval).
        if (nextDueInMs !== undefined) this.wakeIn(nextDueInMs);
        for (const batch of due) {
          const issuer = `${area}:${batch.supplierId}`;
          const key = `${issuer}:${batch.batchKey ?? ''}`;
          if (inFlight.has(key) || idle.has(key) || (this.resumeAt.get(issuer) ?? 0) > Date.now()) continue;
          const issuers = [...inFlight.values()];
          if (issuers.filter((i) => i === issuer).length >= Math.max(1, policy.issuerCallsAtOnce ?? 1)) continue;
          if (!issuers.includes(issuer) && new Set(issuers).size >= ISSUERS_AT_ONCE) continue;
          inFlight.set(key, issuer);
          start(
            this.send(area, policy, batch)
              .then((again) => void (again || idle.add(key)))
              .finally(() => inFlight.delete(key)),
          );
        }
      }
    });
  }

  /**
   * One batch; a failure closes its issuer's window for a while (every worker's for a 429). True when
   * the round may start it again (it sent or recovered reports and the authority answered them all, or
   * it failed: its issuer then waits); false when it found none to send or some were left unanswered.
   */
  private async send(area: string, policy: BatchPolicy, batch: DueBatch): Promise<boolean> {
    const { supplierId, batchKey } = batch;
    const issuer = `${area}:${supplierId}`;
    const failedBefore = this.resumeAt.get(issuer);
    try {
      const result = await sendBatch(this.deps, area, batch, policy);
      // A failure of another of its batches meanwhile keeps the issuer waiting.
      if (!((result.nextCallAfterMs ?? 0) > 0) && this.resumeAt.get(issuer) === failedBefore) this.resumeAt.delete(issuer);
      // The poll sweep looks at once for what this batch left it (not the reports it polled itself).
      if (result.sent + result.recovered > result.firstPolled) this.options.answered?.();
      // A batch the authority left (partly) unanswered is asked for in a later round, not at once again.
      return result.sent + result.recovered > 0 && result.unanswered === 0;
    } catch (error) {
      const rateLimited = isRateLimited(error);
      const retryAfterMs = retryAfterMsOf(error) ?? 0;
      this.resumeAt.set(issuer, Date.now() + Math.max(retryAfterMs, RETRY_AFTER_FAILURE_MS));
      // Turned away (429, MyInvois's per-client-id limit): the issuer's next call waits for its slot in every worker.
      if (rateLimited) await closeCallWindow(this.options.dataSource, area, supplierId, Math.max(retryAfterMs, RETRY_AFTER_FAILURE_MS)).catch(() => undefined);
      const code = error instanceof AppError ? error.code : String(error);
      this.deps.log('warn', 'batch not sent; the issuer is tried again later', { area, supplierId, batchKey, error: code });
      return true;
    }
  }
}
