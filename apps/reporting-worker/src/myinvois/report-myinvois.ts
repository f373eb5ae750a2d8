import { AppError, EventMetadata, Logger, RecordedEvent, SecretBox, SupplierProfile, foldEvents } from '@einvoice/domain';
import { MyInvoisDocumentCancellationRequestedData, MyInvoisDocumentsSubmittedData, MyInvoisSubmissionAcceptedData, SubmissionError, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { EventHandler, EventStore, MessageContext, UnitOfWork, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { releasePeppolCopies } from './release-peppol-copies';
import { withTriedAdvisoryLock } from '@einvoice/domain/infrastructure';

export interface MyInvoisReportingDependencies {
  readonly store: EventStore;
  /** The connector of `MYINVOIS_MODE` (myinvois.connectorFromEnv; in sandbox mode on the shared database). */
  readonly connector: myinvois.MyInvoisConnector;
  /** Tokens of this process: the worker logs in itself with the stored credentials. */
  readonly tokens: myinvois.TokenCache;
  readonly secrets: SecretBox;
  readonly groupId: string;
  readonly log: Logger;
  /** Wait between Get Submission polls (notes/national-systems.md: every 3–5 s). */
  readonly pollIntervalMs: number;
  /** Polls per submission before the worker stops asking (documents then stay `submitted`). */
  readonly maxPolls: number;
  /**
   * A 429's Retry-After up to this long is waited out inside the handler (heartbeating);
   * longer, the error goes to the consumer (retriable: its backoff, then the dead-letter topic).
   */
  readonly maxRetryAfterMs: number;
  /** A submission turned away (429) tries again after its Retry-After, and never sooner than this. */
  readonly minDeferMs: number;
}

/** Settings from the environment (README "Malaysia (MyInvois)"). */
export function myInvoisReportingSettings(env: NodeJS.ProcessEnv = process.env) {
  return {
    pollIntervalMs: Number(env.MYINVOIS_POLL_MS ?? 3_000),
    maxPolls: Number(env.MYINVOIS_MAX_POLLS ?? 100),
    maxRetryAfterMs: Number(env.MYINVOIS_MAX_RETRY_AFTER_MS ?? 20_000),
    minDeferMs: Number(env.MYINVOIS_MIN_DEFER_MS ?? 1_000),
  };
}

/**
 * Reports MyInvois submissions (#4): submits the documents of a MyInvoisDocumentsSubmitted,
 * records the answer, then polls Get Submission until every accepted document is Valid or
 * Invalid. Each step runs in one transaction with its processed mark, and the authority's answer
 * commits with it: a redelivered event finds the mark and submits nothing again. For the window
 * between MyInvois's 2xx and that commit, a submission attempt is committed before the call, and a
 * redelivery that finds it unanswered looks the documents up at MyInvois instead of resubmitting.
 */
export function createMyInvoisHandler(deps: MyInvoisReportingDependencies): EventHandler {
  return async (event, ctx) => {
    switch (event.type) {
      case 'MyInvoisDocumentsSubmitted':
        await submit(deps, event.data as MyInvoisDocumentsSubmittedData, ctx, {
          metadata: (tenantId) => metadataOf(event, tenantId),
          claim: (uow) => uow.markProcessed(deps.groupId, event.eventId),
        });
        return;
      case 'MyInvoisDocumentCancellationRequested':
        return cancel(deps, event, event.data as MyInvoisDocumentCancellationRequestedData, ctx);
      default:
        return;
    }
  };
}

/** What a long wait needs of its caller: a Kafka handler heartbeats, a periodic job has nothing to tell. */
export type Heartbeat = Pick<MessageContext, 'heartbeat'>;

/** Pages of Get Recent Documents read at most when looking for documents of a lost answer. */
const RECOVERY_PAGE_SIZE = 100;

type AcceptedDocument = MyInvoisSubmissionAcceptedData['acceptedDocuments'][number];
type RejectedDocument = MyInvoisSubmissionAcceptedData['rejectedDocuments'][number];

/**
 * Submits in three steps so that a crash never submits a document twice (ISSUE 4 item 9):
 * (1) commits a MyInvoisSubmissionAttempted marker before calling Submit Documents; a delivery
 * that finds a marker without an answer first asks Get Recent Documents which internal ids
 * MyInvois already has (since the first attempt − 1 min) and records those as accepted
 * (`recovered`), submitting only the rest; (2) calls Submit Documents; (3) records the answer
 * with the processed mark.
 */
/** Advisory lock class of a submission being submitted (namespaces: supplier-participants.ts). */
const SUBMIT_LOCK = 7312005;

/**
 * One submitter per submission at a time: a Kafka delivery and the stale sweep (or two workers
 * after a rebalance) could otherwise both pass the attempt marker while the other's Submit
 * Documents call is in flight, and submit twice. Session lock on its own connection, tried, not
 * waited for: the loser gets a retriable MYINVOIS.SUBMISSION_IN_FLIGHT and comes back later, when
 * the answer is recorded. A crash ends the session and frees the lock.
 */
/**
 * Who is submitting: the Kafka delivery of MyInvoisDocumentsSubmitted (`claim` marks it processed,
 * false when it was already) or the submit sweep trying a deferred submission again (nothing to claim:
 * the decider records one answer, and the submit lock keeps others out meanwhile).
 */
export interface SubmitCaller {
  readonly metadata: (tenantId: string) => EventMetadata;
  readonly claim: (uow: UnitOfWork) => Promise<boolean>;
}

/** `deferred`: turned away with a 429, the submission waits for its client id's next slot. */
export type SubmitOutcome = 'done' | 'deferred';

export async function submit(deps: MyInvoisReportingDependencies, data: MyInvoisDocumentsSubmittedData, ctx: Heartbeat, caller: SubmitCaller): Promise<SubmitOutcome> {
  let outcome: SubmitOutcome = 'done';
  const submitted = await withTriedAdvisoryLock(deps.store.dataSource, SUBMIT_LOCK, data.submissionId, async () => {
    outcome = await submitOnce(deps, data, ctx, caller);
  });
  if (!submitted) {
    throw new AppError('unavailable', 'MYINVOIS.SUBMISSION_IN_FLIGHT', 'Another worker is submitting this submission to MyInvois right now.', { retriable: true });
  }
  return outcome;
}

/** A 429 (MyInvois's, or the worker's own per-client-id limit): when the submission may try again. */
function turnedAway(deps: MyInvoisReportingDependencies, error: unknown): string | undefined {
  if (!(error instanceof AppError) || error.kind !== 'rate_limited') return undefined;
  return new Date(Date.now() + Math.max(Number(error.details.retryAfterMs ?? 0), deps.minDeferMs)).toISOString();
}

async function submitOnce(deps: MyInvoisReportingDependencies, data: MyInvoisDocumentsSubmittedData, ctx: Heartbeat, caller: SubmitCaller): Promise<SubmitOutcome> {
  const streamId = myInvoisSubmissionStreamId(data.submissionId);
  const metadata = caller.metadata(data.tenantId);
  const deferred = (attempt: number, dueAt: string) =>
    deps.store.transaction(async (uow) => {
      if (!(await caller.claim(uow))) return;
      await handleCommand(uow, myInvoisSubmissionDecider, streamId, {
        type: 'RecordSubmissionDeferred',
        data: { submissionId: data.submissionId, attempt, deferredAt: new Date().toISOString(), dueAt },
      }, metadata);
      deps.log('info', 'MyInvois turned a submission away (429): deferred to its client id\'s next slot', { submissionId: data.submissionId, dueAt });
    }).then((): SubmitOutcome => 'deferred');
  const idOf = new Map(data.documents.map((d) => [d.invoiceCodeNumber, d.documentId]));
  const stateNow = async (read: (id: string) => Promise<RecordedEvent[]>) => foldEvents(myInvoisSubmissionDecider, (await read(streamId)) as never);
  let plan: { token: myinvois.AccessToken; recovered: AcceptedDocument[]; remaining: MyInvoisDocumentsSubmittedData['documents']; attempt: number } | undefined;
  const before = await stateNow((id) => deps.store.readStream(id));
  if (before.status === 'submitted') {
    // The calls (login, Get Recent Documents) run with no transaction open; the attempt marker is
    // then recorded only if nothing was answered meanwhile (the submit lock keeps other submitters out).
    let token: myinvois.AccessToken;
    let recovered: AcceptedDocument[];
    try {
      token = await withTokenErrors(deps, data.supplierId, () => tokenFor(deps, data.supplierId));
      recovered =
        before.attempts > 0 && before.firstAttemptAt
          ? await withTokenErrors(deps, data.supplierId, () => findSubmitted(deps, ctx, token, data, before.firstAttemptAt as string))
          : [];
    } catch (error) {
      const dueAt = turnedAway(deps, error);
      if (dueAt) return deferred(0, dueAt);
      throw error;
    }
    const found = new Set(recovered.map((d) => d.invoiceCodeNumber));
    const remaining = data.documents.filter((d) => !found.has(d.invoiceCodeNumber));
    plan = await deps.store.transaction(async (uow) => {
      const state = await stateNow((id) => uow.readStream(id));
      if (state.status !== 'submitted') return undefined;
      if (remaining.length > 0) {
        await handleCommand(uow, myInvoisSubmissionDecider, streamId, {
          type: 'RecordSubmissionAttempt',
          data: { submissionId: data.submissionId, attempt: state.attempts + 1, attemptedAt: new Date().toISOString(), codeNumbers: remaining.map((d) => d.invoiceCodeNumber) },
        }, metadata);
      }
      return { token, recovered, remaining, attempt: state.attempts + 1 };
    });
  }

  let response: myinvois.SubmissionResponse | undefined;
  let refusal: SubmissionError | undefined;
  if (plan && plan.remaining.length > 0) {
    const { token, remaining } = plan;
    try {
      const documents = remaining.map((d) => myinvois.prepareDocument(d.format, d.invoiceCodeNumber, d.document));
      // A 429 is not waited out here: the partition (other tenants' submissions) would wait with it.
      response = await deps.connector.submitDocuments(token, documents);
    } catch (error) {
      const dueAt = turnedAway(deps, error);
      if (dueAt) return deferred(plan.attempt, dueAt);
      if (!(error instanceof AppError) || error.retriable) {
        if (error instanceof AppError && error.code === myinvois.MYINVOIS_ERRORS.TOKEN_REJECTED) await deps.tokens.invalidate(data.supplierId);
        throw error;
      }
      // Refused as a whole (limits, credentials): every document sent is rejected, with the reason.
      const authority = (error.details.authorityError as SubmissionError | undefined) ?? { code: error.code, message: error.message };
      refusal = { ...authority, code: authority.code || error.code };
      deps.log('warn', 'MyInvois refused a submission', { submissionId: data.submissionId, code: error.code });
    }
  }

  await deps.store.transaction(async (uow) => {
    if (!(await caller.claim(uow))) return;
    if (!plan) return; // answered before: nothing to record
    const { recovered, remaining } = plan;
    if (refusal && recovered.length === 0) {
      await handleCommand(uow, myInvoisSubmissionDecider, streamId, {
        type: 'RecordSubmissionRejected',
        data: { submissionId: data.submissionId, error: refusal, rejectedAt: new Date().toISOString() },
      }, metadata);
      return;
    }
    const accepted: AcceptedDocument[] = [
      ...recovered,
      ...(response?.acceptedDocuments ?? []).map((d) => ({ documentId: idOf.get(d.invoiceCodeNumber) ?? '', uuid: d.uuid, invoiceCodeNumber: d.invoiceCodeNumber })),
    ];
    const rejected: RejectedDocument[] = refusal
      ? remaining.map((d) => ({ documentId: d.documentId, invoiceCodeNumber: d.invoiceCodeNumber, error: refusal as SubmissionError }))
      : (response?.rejectedDocuments ?? []).map((d) => ({ documentId: idOf.get(d.invoiceCodeNumber) ?? '', invoiceCodeNumber: d.invoiceCodeNumber, error: d.error }));
    const submissionUid = response?.submissionUid ?? recovered[0]?.submissionUid ?? '';
    await handleCommand(uow, myInvoisSubmissionDecider, streamId, {
      type: 'RecordSubmissionAccepted',
      data: { submissionId: data.submissionId, submissionUid, acceptedDocuments: accepted, rejectedDocuments: rejected, acceptedAt: new Date().toISOString() },
    }, metadata);
    deps.log('info', 'MyInvois submission answered', { submissionId: data.submissionId, submissionUid, accepted: accepted.length, recovered: recovered.length, rejected: rejected.length });
  });
  return 'done';
}

/**
 * The documents of `data` MyInvois already has (an earlier attempt's answer was lost): Get Recent
 * Documents, sent since the first attempt − 1 min, matched by internal id (newest first).
 */
async function findSubmitted(
  deps: MyInvoisReportingDependencies,
  ctx: Heartbeat,
  token: myinvois.AccessToken,
  data: MyInvoisDocumentsSubmittedData,
  firstAttemptAt: string,
): Promise<AcceptedDocument[]> {
  const wanted = new Map(data.documents.map((d) => [d.invoiceCodeNumber, d.documentId]));
  const found: AcceptedDocument[] = [];
  const query = {
    pageSize: RECOVERY_PAGE_SIZE,
    submissionDateFrom: myinvois.wireUtc(Date.parse(firstAttemptAt) - 60_000),
    submissionDateTo: myinvois.wireUtc(Date.now() + 60_000),
    invoiceDirection: 'Sent' as const,
  };
  for await (const doc of myinvois.everyRecentDocument((pageNo) => withRetryAfter(deps, ctx, () => deps.connector.recentDocuments(token, { ...query, pageNo })))) {
    const documentId = wanted.get(doc.internalId);
    if (!documentId) continue;
    wanted.delete(doc.internalId);
    found.push({ documentId, uuid: doc.uuid, invoiceCodeNumber: doc.internalId, submissionUid: doc.submissionUid, recovered: true });
    if (wanted.size === 0) break;
  }
  deps.log('warn', 'MyInvois submission attempted before: found at MyInvois, not resubmitted', { submissionId: data.submissionId, found: found.length, missing: wanted.size });
  return found;
}

/**
 * Polls a submission whose documents are due (poll-sweep.ts, `next_poll_at`): Get Submission with no
 * transaction open, then RecordPoll as poll number `polls + 1` with the next poll due after
 * `pollIntervalMs` (none after `maxPolls`). Polls are timed by the read model, not by events
 * travelling through Kafka while a partition sleeps (#8).
 */
export async function pollDue(deps: MyInvoisReportingDependencies, submissionId: string, metadata: (tenantId: string) => EventMetadata, ctx: Heartbeat): Promise<void> {
  const polls = await pollsSoFar(deps, submissionId);
  const answer = await askSubmission(deps, submissionId, ctx);
  if (!answer) return;
  const nextPollAt = new Date(Date.now() + deps.pollIntervalMs).toISOString();
  await deps.store.transaction((uow) => recordPoll(uow, answer, { pollNo: polls + 1, maxPolls: deps.maxPolls, nextPollAt }, metadata));
}

/**
 * A poll after the chain is over (stale-sweep.ts): its answer is recorded, and no further poll is
 * due (it is the last allowed one).
 */
export async function pollOnce(deps: MyInvoisReportingDependencies, submissionId: string, metadata: (tenantId: string) => EventMetadata, ctx: Heartbeat): Promise<void> {
  const pollNo = (await pollsSoFar(deps, submissionId)) + 1;
  const answer = await askSubmission(deps, submissionId, ctx);
  if (answer) await deps.store.transaction((uow) => recordPoll(uow, answer, { pollNo, maxPolls: pollNo, nextPollAt: new Date().toISOString() }, metadata));
}

/** Polls recorded so far (the last MyInvoisSubmissionPolled's number). */
async function pollsSoFar(deps: MyInvoisReportingDependencies, submissionId: string): Promise<number> {
  const state = foldEvents(myInvoisSubmissionDecider, (await deps.store.readStream(myInvoisSubmissionStreamId(submissionId))) as never);
  return state.status === 'answered' ? state.polls : 0;
}

/** What one Get Submission round saw of a submission (every MyInvois submission its documents sit in). */
interface SubmissionAnswer {
  readonly submitted: MyInvoisDocumentsSubmittedData;
  readonly status: myinvois.SubmissionStatus;
}

/** Get Submission for every submission the documents sit in, with no transaction open; undefined when not answered yet. */
async function askSubmission(deps: MyInvoisReportingDependencies, submissionId: string, ctx: Heartbeat): Promise<SubmissionAnswer | undefined> {
  const history = await deps.store.readStream(myInvoisSubmissionStreamId(submissionId));
  const submitted = history.find((e) => e.type === 'MyInvoisDocumentsSubmitted')?.data as MyInvoisDocumentsSubmittedData | undefined;
  const accepted = history.find((e) => e.type === 'MyInvoisSubmissionAccepted')?.data as MyInvoisSubmissionAcceptedData | undefined;
  if (!submitted || !accepted) return undefined;
  return withTokenErrors(deps, submitted.supplierId, async () => {
    const token = await tokenFor(deps, submitted.supplierId);
    // Recovered documents may sit in another submission than the rest.
    const uids = [...new Set([accepted.submissionUid, ...accepted.acceptedDocuments.map((d) => d.submissionUid ?? accepted.submissionUid)])].filter(Boolean);
    const answers: myinvois.SubmissionStatus[] = [];
    for (const uid of uids) answers.push(await withRetryAfter(deps, ctx, () => deps.connector.getSubmission(token, uid)));
    return { submitted, status: { ...answers[0], documentSummary: answers.flatMap((a) => a.documentSummary) } };
  });
}

/** Records what Get Submission said (RecordPoll) in `uow`, and releases the Peppol copies it validated. */
async function recordPoll(
  uow: UnitOfWork,
  { submitted, status }: SubmissionAnswer,
  chain: { pollNo: number; maxPolls: number; nextPollAt: string },
  metadataFor: (tenantId: string) => EventMetadata,
): Promise<void> {
  const { submissionId } = submitted;
  const metadata = metadataFor(submitted.tenantId);
  const recorded = await handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(submissionId), {
    type: 'RecordPoll',
    data: {
      submissionId,
      ...chain,
      documents: status.documentSummary.map((d) => ({ uuid: d.uuid, status: d.status, longId: d.longId, reason: d.documentStatusReason })),
      polledAt: new Date().toISOString(),
    },
  }, metadata);
  // transport_mode: peppol: a copy leaves with its document's validation, in this transaction.
  await releasePeppolCopies(uow, submitted, recorded, metadata);
}

/**
 * Cancels (issuer) at MyInvois and records its answer; a refusal (72 h passed, wrong state) is
 * recorded, not retried. A buyer's rejection is buyer-rejection.ts.
 */
async function cancel(
  deps: MyInvoisReportingDependencies,
  event: RecordedEvent,
  data: MyInvoisDocumentCancellationRequestedData,
  ctx: MessageContext,
): Promise<void> {
  if (await deps.store.wasProcessed(deps.groupId, event.eventId)) return;
  const streamId = myInvoisSubmissionStreamId(data.submissionId);
  const history = await deps.store.readStream(streamId);
  const submitted = history.find((e) => e.type === 'MyInvoisDocumentsSubmitted')?.data as MyInvoisDocumentsSubmittedData | undefined;
  let refused: SubmissionError | undefined;
  if (submitted) {
    try {
      await withTokenErrors(deps, submitted.supplierId, async () => {
        const token = await tokenFor(deps, submitted.supplierId);
        await withRetryAfter(deps, ctx, () => deps.connector.cancelDocument(token, data.uuid, data.reason));
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.retriable) throw error;
      refused = (error.details.authorityError as SubmissionError | undefined) ?? { code: error.code, message: error.message };
    }
  }
  await deps.store.transaction(async (uow) => {
    if (!(await uow.markProcessed(deps.groupId, event.eventId)) || !submitted) return;
    await handleCommand(uow, myInvoisSubmissionDecider, streamId, {
      type: 'RecordCancellation',
      data: { submissionId: data.submissionId, uuid: data.uuid, refused, at: new Date().toISOString() },
    }, metadataOf(event, submitted.tenantId));
  });
}

/**
 * The supplier's token: its stored credentials (sealed), logged in by this process when needed. Read
 * outside any transaction: a login is a network call (the house rule: none inside a transaction).
 */
export async function tokenFor(deps: MyInvoisReportingDependencies, supplierId: string): Promise<myinvois.AccessToken> {
  const db = deps.store.dataSource;
  const [row] = await db.query(myinvois.SELECT_CREDENTIALS_SQL, [supplierId, myinvois.MYINVOIS_AUTHORITY]);
  const [supplier] = await db.query(`SELECT profile FROM suppliers WHERE id = $1`, [supplierId]);
  const tin = (supplier?.profile as SupplierProfile | undefined)?.identifiers.find((i) => i.scheme === 'MY:TIN')?.id ?? '';
  return deps.tokens.get(supplierId, myinvois.openStoredCredentials(row as myinvois.StoredCredentialsRow, deps.secrets, tin));
}

/** Runs a MyInvois call; a token MyInvois no longer takes is dropped from the shared cache before the error goes on. */
export async function withTokenErrors<T>(deps: MyInvoisReportingDependencies, supplierId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError && error.code === myinvois.MYINVOIS_ERRORS.TOKEN_REJECTED) await deps.tokens.invalidate(supplierId);
    throw error;
  }
}


/** Honours a 429's `retryAfterMs` when it fits the handler's budget (heartbeating meanwhile). */
export async function withRetryAfter<T>(deps: MyInvoisReportingDependencies, ctx: Heartbeat, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const retryAfterMs = error instanceof AppError && error.kind === 'rate_limited' ? Number(error.details.retryAfterMs ?? 0) : -1;
      if (retryAfterMs < 0 || retryAfterMs > deps.maxRetryAfterMs || attempt >= 3) throw error;
      deps.log('warn', 'MyInvois rate limit: waiting', { retryAfterMs, attempt });
      await sleep(retryAfterMs, ctx);
    }
  }
}

/** Sleeps, heartbeating every second so the group keeps the partition (kafkajs heartbeats only when asked). */
async function sleep(ms: number, ctx: Heartbeat): Promise<void> {
  const until = Date.now() + ms;
  for (let left = ms; left > 0; left = until - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(left, 1_000)));
    await ctx.heartbeat();
  }
}

export function metadataOf(event: RecordedEvent, tenantId: string): EventMetadata {
  return { tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId };
}
