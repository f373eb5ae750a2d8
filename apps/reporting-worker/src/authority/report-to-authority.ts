import {
  AppError,
  type AuthorityAnswerData,
  type AuthorityReportRequestedData,
  type EventMetadata,
  type Logger,
  type RecordedEvent,
  authorityReportDecider,
  authorityReportStreamId,
  foldEvents,
  retryAfterMsOf,
} from '@einvoice/domain';
import { type EventHandler, type EventStore, type MessageContext, handleCommand, loadDocumentAttachments } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, type AuthorityOutcome, type AuthorityReport, type BatchPolicy, DEFAULT_POLL_POLICY, type PollPolicy, hasDetached, reattachEmbedded } from '@einvoice/areas';
import { withTriedAdvisoryLock } from '@einvoice/domain/infrastructure';
import { recordIfTurnedAway, recordReport } from './record-report';

/**
 * Advisory lock class of a report being sent, polled or cancelled: one call about a report at a time
 * (namespaces: apps/gateway/src/participants/supplier-participants.ts).
 */
export const REPORT_LOCK = 7312008;

export interface AuthorityReportingDependencies {
  readonly store: EventStore;
  /** The connector of each area that has one (area registry `authority.connector`), by area code. */
  readonly connectors: ReadonlyMap<string, AuthorityConnector>;
  /** How each area's verdicts are polled for (area registry `authority.poll`); DEFAULT_POLL_POLICY otherwise. */
  readonly pollPolicies?: ReadonlyMap<string, PollPolicy>;
  /** Areas whose authority takes reports in batches (area registry `authority.batch`): the batch sweep sends theirs. */
  readonly batchPolicies?: ReadonlyMap<string, BatchPolicy>;
  readonly groupId: string;
  readonly log: Logger;
}

/** The area's poll policy. */
export function pollPolicyOf(deps: AuthorityReportingDependencies, area: string): PollPolicy {
  return deps.pollPolicies?.get(area) ?? DEFAULT_POLL_POLICY;
}

/** The connector of a report's area; a registry mistake (no connector in this worker) is final. */
export function connectorOf(deps: AuthorityReportingDependencies, area: string): AuthorityConnector {
  const connector = deps.connectors.get(area);
  if (!connector) throw new AppError('internal', 'AUTHORITY.NO_CONNECTOR', `Area ${area} has no authority connector in this worker.`, { retriable: false });
  return connector;
}

/** The metadata of what the worker records about a report, caused by `event`. */
export function reportMetadata(data: AuthorityReportRequestedData, event: RecordedEvent | undefined, correlationId?: string): EventMetadata {
  return { tenantId: data.tenantId, correlationId: event?.metadata.correlationId ?? correlationId, causationId: event?.eventId, ruleSetId: data.ruleSetId };
}

/** The report as its connector sees it. */
export function reportOf(data: AuthorityReportRequestedData): AuthorityReport {
  return { reportId: data.reportId, tenantId: data.tenantId, supplierId: data.supplierId, payload: data.payload, document: data.document };
}

/**
 * The report with its document whole, as the authority must receive it: embedded attachments that
 * the events carry detached (libs/areas/src/ubl/attachments.ts) are put back from
 * `document_attachments` (a received copy's are its sender's). A read, before any call.
 */
export async function wholeReportOf(deps: AuthorityReportingDependencies, data: AuthorityReportRequestedData): Promise<AuthorityReport> {
  const request = reportOf(data);
  if (!hasDetached(data.document.bytes)) return request;
  const query = (sql: string, parameters?: unknown[]) => deps.store.dataSource.query(sql, parameters);
  const [row] = (await query(`SELECT coalesce(source_document_id, id) AS owner FROM documents WHERE id = $1`, [data.documentId])) as Array<{ owner: string }>;
  const bytes = reattachEmbedded(data.document.bytes, await loadDocumentAttachments(query, row?.owner ?? data.documentId));
  return { ...request, document: { ...request.document, bytes } };
}

/** What the report handler may wake when a report of a batched area is requested (the batch sweep). */
export interface BatchSweepWaker {
  readonly wake?: () => void;
}

/**
 * Reports a document to its area's tax authority (libs/domain/src/authority-report), in three steps so
 * that a crash never reports it twice and no transaction is open during the call:
 * (1) one transaction records the attempt marker (or, when the answer is already recorded, only the
 * processed mark); (2) with no transaction open, a report that was attempted before asks the authority
 * what it has (`recover`) and submits only when it has nothing; (3) one transaction records the answer
 * with the processed mark. One sender per report at a time (a tried advisory lock): a redelivery that
 * races an in-flight call gets a retriable error and comes back once the answer is recorded. A call the
 * authority turns away (429) is recorded with the processed mark and sent again by the resend sweep once
 * the authority's wait is over (report-resend-sweep.ts): retried here, it held the consumer's handler
 * slots and its partitions' fetch rounds, and every other area's reports waited behind it (issue 11:
 * Jordan's and Nigeria's synchronous answers waited up to 128 s behind Poland's turned-away reports),
 * and a wait longer than the consumer's retries (KSeF's per-hour limit) dead-lettered the report.
 */
export function createAuthorityReportHandler(deps: AuthorityReportingDependencies, batches: BatchSweepWaker = {}): EventHandler {
  return async (event, ctx) => {
    if (event.type !== 'AuthorityReportRequested') return;
    const data = event.data as AuthorityReportRequestedData;
    // Sent with the issuer's other reports by the batch sweep (report-batch-sweep.ts). Such requests are
    // no longer published (the sweep hears `report_requested`); one published before the upgrade wakes it.
    if (deps.batchPolicies?.has(data.area)) {
      batches.wake?.();
      return;
    }
    const connector = connectorOf(deps, data.area);
    const processed = { groupId: deps.groupId, eventId: event.eventId };
    const sent = await withTriedAdvisoryLock(deps.store.dataSource, REPORT_LOCK, data.reportId, async () => void (await sendReport(deps, connector, event, ctx, processed)));
    if (!sent) throw new AppError('unavailable', 'AUTHORITY.REPORT_IN_FLIGHT', 'Another worker is sending this report right now.', { retriable: true });
  };
}

/**
 * One report's attempt, call and answer (createAuthorityReportHandler), by the consumer (`processed`:
 * the event it handles, marked with the answer) or by the resend sweep (none). The caller holds the
 * report's lock. Resolves 'turned away' when the authority's rate limit refused the call (recorded).
 */
export async function sendReport(
  deps: AuthorityReportingDependencies,
  connector: AuthorityConnector,
  requested: RecordedEvent,
  ctx: Pick<MessageContext, 'heartbeat'>,
  processed?: { readonly groupId: string; readonly eventId: string },
): Promise<'answered' | 'turned away' | 'answered before'> {
  const data = requested.data as AuthorityReportRequestedData;
  const streamId = authorityReportStreamId(data.reportId);
  const metadata = reportMetadata(data, requested);
  const earlier = await deps.store.transaction(async (uow) => {
    const state = foldEvents(authorityReportDecider, (await uow.readStream(streamId)) as never);
    if (state.status !== 'requested') {
      if (processed) await uow.markProcessed(processed.groupId, processed.eventId);
      return undefined;
    }
    const attempt = { reportId: data.reportId, attempt: state.attempts + 1, attemptedAt: new Date().toISOString() };
    await handleCommand(uow, authorityReportDecider, streamId, { type: 'RecordReportAttempt', data: attempt }, metadata);
    return { attempt: attempt.attempt, inDoubtSince: state.firstAttemptAt };
  });
  if (!earlier) return 'answered before';

  const request = await wholeReportOf(deps, data);
  const call = { heartbeat: () => ctx.heartbeat() };
  // Only a call that may have reached the authority is asked about (none turned away by its rate limit).
  const recovered = earlier.inDoubtSince !== undefined ? await connector.recover(request, earlier.inDoubtSince, call) : undefined;
  if (recovered) deps.log('warn', 'report attempted before: found at the authority, not sent again', { reportId: data.reportId, area: data.area });
  let outcome: AuthorityOutcome;
  try {
    outcome = recovered ?? (await submit(connector, request, call));
  } catch (error) {
    // Turned away (429): nothing was taken; sent again once the authority's wait is over, without asking first.
    if (!(await recordIfTurnedAway(deps.store, error, [{ request: data, attempt: earlier.attempt, metadata }], processed))) throw error;
    deps.log('info', 'the authority turned the report away (rate limit); sent again after its wait', { reportId: data.reportId, area: data.area, retryAfterMs: retryAfterMsOf(error) });
    return 'turned away';
  }
  const answer = answerOf(outcome, recovered !== undefined, pollPolicyOf(deps, data.area));

  await deps.store.transaction(async (uow) => {
    if (processed && !(await uow.markProcessed(processed.groupId, processed.eventId))) return;
    await recordReport(uow, data, { type: 'RecordAuthorityAnswer', data: { reportId: data.reportId, answer } }, metadata);
  });
  deps.log('info', 'authority answered', { reportId: data.reportId, area: data.area, answer: answer.kind });
  return 'answered';
}

/** Submits; an error a retry cannot fix (the connector's own, not the authority's refusal) is the authority's refusal of this document. */
async function submit(connector: AuthorityConnector, request: AuthorityReport, call: { heartbeat(): Promise<void> }): Promise<AuthorityOutcome> {
  try {
    return await connector.submit(request, call);
  } catch (error) {
    if (!(error instanceof AppError) || error.retriable) throw error;
    return { kind: 'rejected', error: { code: error.code, message: error.message } };
  }
}

export function answerOf(outcome: AuthorityOutcome, recovered: boolean, poll: PollPolicy): AuthorityAnswerData {
  const now = Date.now();
  const at = new Date(now).toISOString();
  if (outcome.kind === 'rejected') return { kind: 'rejected', error: outcome.error, ...(outcome.receipt ? { receipt: outcome.receipt as Record<string, unknown> } : {}), at };
  const receipt = (outcome.receipt ?? {}) as Record<string, unknown>;
  if (outcome.final) return { kind: 'accepted', receipt, recovered, final: true, at };
  return { kind: 'accepted', receipt, recovered, final: false, nextPollAt: new Date(now + (poll.firstPollAfterMs ?? poll.intervalMs)).toISOString(), at };
}
