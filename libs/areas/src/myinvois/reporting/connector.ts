/**
 * MyInvois as the generic reporting pipeline sees it (registry/authority.ts, `answer: 'poll'`, one
 * report per document, one caller submission per batch): Submit Documents takes a batch (each
 * document accepted as `Submitted`, or refused with its error); Get Submission gives the verdict
 * (Valid, with its long id, or Invalid); Get Recent Documents tells what MyInvois has after an answer
 * lost in a crash, and which documents their buyers asked to reject. Every call uses the supplier's
 * token (TokenCache, shared by the stack's processes); none runs inside a transaction.
 */
import { AppError, type AuthorityErrorData } from '@einvoice/domain';
import type { AuthorityCallContext, AuthorityConnector, AuthorityOutcome, AuthorityReport, BatchOutcome } from '../../registry/authority';
import {
  type AccessToken,
  type DocumentSummary,
  type AuthorityError as MyInvoisError,
  type MyInvoisConnector,
  type MyInvoisCredentials,
  type RecentDocument,
  type SubmissionResponse,
  type SubmissionStatus,
  prepareDocument,
} from '../connector/connector';
import { MYINVOIS_ERRORS } from '../connector/errors';
import { MAX_DOCUMENTS_PER_SUBMISSION } from '../connector/limits';
import { everyRecentDocument, wireUtc } from '../connector/recent-documents';
import type { TokenCache } from '../connector/token-cache';
import { type RetryAfterPolicy, SharedAnswers, sleep, withRetryAfter } from './calls';
import { refusalKind } from './buyer-rejection';
import {
  type MyInvoisPayload,
  type MyInvoisReceipt,
  type MyInvoisRejectionPayload,
  type MyInvoisRejectionReceipt,
  type MyInvoisReportPayload,
  REJECTION_WINDOW_MS,
  authorityErrorOf,
  isRejectionPayload,
} from './report';

/** Get Recent Documents' largest page (taken as Get Submission's: 100). */
const RECENT_PAGE_SIZE = 100;
/** Get Recent Documents answers for documents received within the last 31 days only (SDK "05"): stay inside. */
const RECENT_WINDOW_MS = 30 * 24 * 3_600_000;
/** MyInvois may register a document a little before our clock recorded the attempt: recovery windows start this much earlier. */
const CLOCK_MARGIN_MS = 60_000;
/**
 * How long before a document's acceptance (the verdict the pipeline recorded: its validation, seen by
 * a poll) MyInvois may have received it: seconds usually, longer when its validation or our polls were
 * slow (every 5 minutes after `maxPolls`). The buyers' rejection scan goes back this far before the
 * oldest acceptance; that costs no call while every document is found (newest first, the scan stops
 * once all were seen).
 */
const RECEIVED_BEFORE_ACCEPTANCE_MS = 24 * 3_600_000;
/** How far back a buyer's own rejection is looked for after a lost answer: rejection is possible 72 h after validation. */
const REJECTABLE_FOR_MS = 96 * 3_600_000;

type Report = AuthorityReport<MyInvoisReportPayload>;
type Rejection = AuthorityReport<MyInvoisRejectionPayload>;
type Receipt = MyInvoisReceipt | MyInvoisRejectionReceipt;
type Outcome = AuthorityOutcome<Receipt>;

export interface MyInvoisReportingOptions {
  /** The MyInvois API of `MYINVOIS_MODE` (connectorFromEnv). */
  readonly connector: MyInvoisConnector;
  /** The suppliers' tokens, logged in with `connector`. */
  readonly tokens: TokenCache;
  /** A supplier's client id and secret, and the TIN it acts for. @throws AppError (final) when it has none */
  readonly credentialsOf: (supplierId: string) => Promise<MyInvoisCredentials>;
  /**
   * How long one Get Submission answer serves the polls of its documents (default 1000 ms): they fall
   * due together and the poll sweep polls them one after the other.
   */
  readonly pollAnswerMs?: number;
  /**
   * How long one Get Recent Documents scan serves the recoveries of one lost attempt (default 10 s):
   * the batch sweep recovers its reports one after the other, and the scan costs 12 RPM.
   */
  readonly recoveryScanMs?: number;
  /** A 429 whose Retry-After is at most this is waited out by recover, poll and cancel (MYINVOIS_MAX_RETRY_AFTER_MS, default 20 s). */
  readonly maxRetryAfterMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

export class MyInvoisReportingConnector implements AuthorityConnector<MyInvoisPayload, Receipt> {
  /** A buyer may ask to reject a document within 72 h of its validation. */
  readonly buyerRejectionWindowMs = REJECTION_WINDOW_MS;
  private readonly connector: MyInvoisConnector;
  private readonly tokens: TokenCache;
  private readonly credentialsOf: (supplierId: string) => Promise<MyInvoisCredentials>;
  private readonly waits: RetryAfterPolicy;
  /** Get Submission's answers, by submission uid. */
  private readonly submissions: SharedAnswers<SubmissionStatus>;
  /** What Get Recent Documents listed since a lost attempt, by supplier and first attempt: the newest document of each internal id. */
  private readonly recoveryScans: SharedAnswers<ReadonlyMap<string, RecentDocument>>;

  constructor(options: MyInvoisReportingOptions) {
    const now = options.now ?? Date.now;
    this.connector = options.connector;
    this.tokens = options.tokens;
    this.credentialsOf = options.credentialsOf;
    this.waits = { maxRetryAfterMs: options.maxRetryAfterMs ?? 20_000, now, sleep: options.sleep ?? sleep };
    this.submissions = new SharedAnswers(options.pollAnswerMs ?? 1_000, now);
    this.recoveryScans = new SharedAnswers(options.recoveryScanMs ?? 10_000, now);
  }

  private get now(): number {
    return this.waits.now();
  }

  /**
   * One caller submission (one supplier, at most 100 documents of one format) in ONE Submit Documents
   * call. A 429 is not waited out here (the sweep tries the supplier again after its Retry-After); a
   * refusal of the call as a whole (limits, credentials) refuses every document with its reason. A
   * buyer's rejection (its own batch) is one Reject Document call.
   */
  async submitBatch(reports: readonly AuthorityReport<MyInvoisPayload>[], context: AuthorityCallContext): Promise<BatchOutcome<Receipt>> {
    const rejections = reports.filter((r): r is Rejection => isRejectionPayload(r.payload));
    const documents = reports.filter((r): r is Report => !isRejectionPayload(r.payload));
    const outcomes: Record<string, Outcome> = documents.length ? { ...(await this.submitDocuments(documents)).outcomes } : {};
    for (const rejection of rejections) outcomes[rejection.reportId] = await this.reject(rejection, context);
    return { outcomes };
  }

  /** Submit Documents for one caller submission. */
  private async submitDocuments(reports: readonly Report[]): Promise<BatchOutcome<Receipt>> {
    const documents = reports.map((r) => prepareDocument(r.payload.format, r.payload.invoiceCodeNumber, r.document.bytes));
    let answer: SubmissionResponse;
    try {
      answer = await this.withToken(reports[0].supplierId, (token) => this.connector.submitDocuments(token, documents));
    } catch (error) {
      const refusal = finalRefusal(error);
      if (!refusal) throw error;
      return { outcomes: Object.fromEntries(reports.map((r) => [r.reportId, { kind: 'rejected', error: refusal } satisfies Outcome])) };
    }
    // MyInvois names documents by their number, which is the supplier's one live document's (gateway).
    const reportIdOf = new Map(reports.map((r) => [r.payload.invoiceCodeNumber, r.reportId]));
    const outcomes: Record<string, Outcome> = {};
    for (const { invoiceCodeNumber, uuid } of answer.acceptedDocuments) {
      const reportId = reportIdOf.get(invoiceCodeNumber);
      if (reportId) outcomes[reportId] = { kind: 'accepted', final: false, receipt: { uuid, submissionUid: answer.submissionUid, status: 'Submitted' } };
    }
    for (const { invoiceCodeNumber, error } of answer.rejectedDocuments) {
      const reportId = reportIdOf.get(invoiceCodeNumber);
      // The submission it was refused in, as GET showed it before #8.
      if (reportId) outcomes[reportId] = { kind: 'rejected', error: authorityErrorOf(error), receipt: { submissionUid: answer.submissionUid } };
    }
    return { outcomes };
  }

  /** A batch of one (MyInvois reports go through the batch sweep; the contract asks for it all the same). */
  async submit(report: AuthorityReport<MyInvoisPayload>, context: AuthorityCallContext): Promise<Outcome> {
    const outcome = (await this.submitBatch([report], context)).outcomes[report.reportId];
    if (!outcome) {
      // Asked again, the worker recovers first: what MyInvois took is found, not sent twice.
      throw new AppError('unavailable', MYINVOIS_ERRORS.UNEXPECTED_RESPONSE, 'MyInvois answered a submission without the document.', { retriable: true });
    }
    return outcome;
  }

  /**
   * After an attempt whose answer was lost: the document MyInvois registered under this number since
   * the first attempt (Get Recent Documents, Sent, newest first), as accepted with what it has of it.
   * One scan serves every report of the attempt for a few seconds (the batch sweep asks for each).
   * A buyer's rejection: done when MyInvois shows it with this request's reason.
   */
  async recover(report: AuthorityReport<MyInvoisPayload>, firstAttemptAt: string, context: AuthorityCallContext): Promise<Outcome | undefined> {
    if (isRejectionPayload(report.payload)) {
      const { uuid, reason } = report.payload;
      return (await this.rejectedWithReason(report.supplierId, uuid, reason, context)) ? { kind: 'accepted', final: true, receipt: {} } : undefined;
    }
    const documentReport = report as Report;
    const scan = () => this.sentSince(report.supplierId, Date.parse(firstAttemptAt), context);
    const sent = await this.recoveryScans.get(`${report.supplierId}|${firstAttemptAt}`, scan);
    const found = sent.get(documentReport.payload.invoiceCodeNumber);
    if (!found) return undefined;
    return { kind: 'accepted', final: false, receipt: { uuid: found.uuid, submissionUid: found.submissionUid, status: found.status } };
  }

  /**
   * The verdict on a document (Get Submission of its submission, one answer shared by the polls of its
   * documents for `pollAnswerMs`): Valid is accepted for good with its long id, Invalid rejected with
   * MyInvois's reason; Submitted (and Cancelled meanwhile) is asked again later.
   */
  async poll(report: Report, receipt: MyInvoisReceipt, context: AuthorityCallContext): Promise<Outcome | { readonly kind: 'pending' }> {
    const status = await this.submissions.get(receipt.submissionUid, () => this.submissionStatus(report.supplierId, receipt.submissionUid, context));
    const document = status.documentSummary.find((d) => d.uuid === receipt.uuid);
    if (document?.status === 'Valid') return { kind: 'accepted', final: true, receipt: { ...receipt, status: 'Valid', longId: document.longId } };
    if (document?.status === 'Invalid') return { kind: 'rejected', error: { code: 'Invalid', message: document.documentStatusReason || 'Invalid' } };
    return { kind: 'pending' };
  }

  /**
   * Cancels (issuer, within 72 h of validation). Refused with MyInvois's error (window over, not
   * valid), except when the document is already cancelled: a repeat after a lost answer is done.
   */
  async cancel(
    report: Report,
    receipt: MyInvoisReceipt,
    reason: string,
    context: AuthorityCallContext,
  ): Promise<{ readonly kind: 'cancelled' } | { readonly kind: 'refused'; readonly error: AuthorityErrorData }> {
    try {
      await this.withToken(report.supplierId, (token) => withRetryAfter(this.waits, context, () => this.connector.cancelDocument(token, receipt.uuid, reason)));
      return { kind: 'cancelled' };
    } catch (error) {
      const refusal = finalRefusal(error);
      if (!refusal) throw error;
      const incorrectState = error instanceof AppError && error.code === MYINVOIS_ERRORS.INCORRECT_STATE;
      if (incorrectState && (await this.documentOf(report.supplierId, receipt, context))?.status === 'Cancelled') return { kind: 'cancelled' };
      return { kind: 'refused', error: refusal };
    }
  }

  /**
   * Which of a supplier's documents their buyers asked to reject (SDK "04 reject document": MyInvois
   * tells the issuer only through the document's `rejectRequestDateTime` and `documentStatusReason`):
   * one Get Recent Documents scan (Sent, pages of 100, newest first, until every given document was
   * seen) from a day before the oldest acceptance (RECEIVED_BEFORE_ACCEPTANCE_MS), at most 30 days
   * back. A 429 goes to the caller (the watch skips the supplier until its Retry-After).
   */
  async buyerRejections(
    supplierId: string,
    documents: readonly { readonly reportId: string; readonly receipt: MyInvoisReceipt; readonly acceptedAt: string }[],
    _context: AuthorityCallContext,
  ): Promise<readonly { readonly reportId: string; readonly reason: string; readonly requestedAt: string }[]> {
    if (!documents.length) return [];
    const reportIdOf = new Map(documents.map((d) => [d.receipt.uuid, d.reportId]));
    const now = this.now;
    const oldest = Math.min(...documents.map((d) => Date.parse(d.acceptedAt)));
    const query = {
      pageSize: RECENT_PAGE_SIZE,
      invoiceDirection: 'Sent' as const,
      submissionDateFrom: wireUtc(Math.max(oldest - RECEIVED_BEFORE_ACCEPTANCE_MS, now - RECENT_WINDOW_MS)),
      submissionDateTo: wireUtc(now),
    };
    const rejections: { reportId: string; reason: string; requestedAt: string }[] = [];
    await this.withToken(supplierId, async (token) => {
      for await (const document of everyRecentDocument((pageNo) => this.connector.recentDocuments(token, { ...query, pageNo }))) {
        const reportId = reportIdOf.get(document.uuid);
        if (!reportId) continue;
        reportIdOf.delete(document.uuid);
        const requestedAt = document.rejectRequestDateTime;
        if (requestedAt) rejections.push({ reportId, reason: document.documentStatusReason ?? '', requestedAt });
        if (reportIdOf.size === 0) break;
      }
    });
    return rejections;
  }

  /**
   * A buyer's rejection (SDK "04 reject document": the document's receiver only, within 72 h of
   * validation, once), with the BUYER's token (the report's supplier): accepted for good once MyInvois
   * recorded it, or rejected with MyInvois's error and how it refused (`refusal`: the gateway's status).
   * "Rejection can be requested only once" after a lost answer is done when MyInvois shows this very
   * reason on the received document. Retriable errors go to the caller (the sweep tries again).
   */
  private async reject(report: Rejection, context: AuthorityCallContext): Promise<Outcome> {
    const { uuid, reason } = report.payload;
    try {
      await this.withToken(report.supplierId, (token) => withRetryAfter(this.waits, context, () => this.connector.rejectDocument(token, uuid, reason)));
      return { kind: 'accepted', final: true, receipt: {} };
    } catch (error) {
      const refused = finalRefusal(error);
      if (!refused) throw error;
      const stated = error as AppError;
      if (stated.code === MYINVOIS_ERRORS.INCORRECT_STATE && (await this.rejectedWithReason(report.supplierId, uuid, reason, context))) {
        return { kind: 'accepted', final: true, receipt: {} };
      }
      return { kind: 'rejected', error: refused, receipt: { refusal: refusalKind(stated) } };
    }
  }

  /** True when MyInvois lists the document among the buyer's received ones with a rejection request of exactly this reason. */
  private rejectedWithReason(supplierId: string, uuid: string, reason: string, context: AuthorityCallContext): Promise<boolean> {
    const now = this.now;
    const query = { pageSize: RECENT_PAGE_SIZE, invoiceDirection: 'Received' as const, submissionDateFrom: wireUtc(now - REJECTABLE_FOR_MS), submissionDateTo: wireUtc(now + CLOCK_MARGIN_MS) };
    return this.withToken(supplierId, async (token) => {
      const page = (pageNo: number) => withRetryAfter(this.waits, context, () => this.connector.recentDocuments(token, { ...query, pageNo }));
      for await (const document of everyRecentDocument(page)) {
        if (document.uuid === uuid) return Boolean(document.rejectRequestDateTime) && document.documentStatusReason === reason;
      }
      return false;
    });
  }

  /** Runs a call with the supplier's token; a token MyInvois no longer takes is dropped (shared cache) before the error goes on. */
  private async withToken<T>(supplierId: string, call: (token: AccessToken) => Promise<T>): Promise<T> {
    try {
      return await call(await this.tokens.get(supplierId, await this.credentialsOf(supplierId)));
    } catch (error) {
      if (error instanceof AppError && error.code === MYINVOIS_ERRORS.TOKEN_REJECTED) await this.tokens.invalidate(supplierId);
      throw error;
    }
  }

  /** Get Submission, every document on one page (a submission holds at most 100, Get Submission's largest page). */
  private submissionStatus(supplierId: string, submissionUid: string, context: AuthorityCallContext): Promise<SubmissionStatus> {
    const page = { pageNo: 1, pageSize: MAX_DOCUMENTS_PER_SUBMISSION };
    return this.withToken(supplierId, (token) => withRetryAfter(this.waits, context, () => this.connector.getSubmission(token, submissionUid, page)));
  }

  /** The document as Get Submission shows it now (not a shared answer); undefined when MyInvois refuses to tell. */
  private async documentOf(supplierId: string, receipt: MyInvoisReceipt, context: AuthorityCallContext): Promise<DocumentSummary | undefined> {
    try {
      return (await this.submissionStatus(supplierId, receipt.submissionUid, context)).documentSummary.find((d) => d.uuid === receipt.uuid);
    } catch (error) {
      if (finalRefusal(error)) return undefined;
      throw error;
    }
  }

  /** Every document the supplier sent from `since` − 1 min to now + 1 min: the newest of each internal id. */
  private async sentSince(supplierId: string, since: number, context: AuthorityCallContext): Promise<ReadonlyMap<string, RecentDocument>> {
    const query = {
      pageSize: RECENT_PAGE_SIZE,
      invoiceDirection: 'Sent' as const,
      submissionDateFrom: wireUtc(since - CLOCK_MARGIN_MS),
      submissionDateTo: wireUtc(this.now + CLOCK_MARGIN_MS),
    };
    const newest = new Map<string, RecentDocument>();
    await this.withToken(supplierId, async (token) => {
      const page = (pageNo: number) => withRetryAfter(this.waits, context, () => this.connector.recentDocuments(token, { ...query, pageNo }));
      for await (const document of everyRecentDocument(page)) if (!newest.has(document.internalId)) newest.set(document.internalId, document);
    });
    return newest;
  }
}

/**
 * A final AppError as the refusal of what was asked: MyInvois's own error when it stated one, else
 * the connector's code and message. Undefined for what a retry may fix (429, unavailable, token).
 */
function finalRefusal(error: unknown): AuthorityErrorData | undefined {
  if (!(error instanceof AppError) || error.retriable) return undefined;
  const stated = error.details.authorityError;
  // INVALID_CREDENTIALS states the OAuth error as a bare string: not an error object.
  const authority = isMyInvoisError(stated) ? stated : { code: error.code, message: error.message };
  return authorityErrorOf({ ...authority, code: authority.code || error.code });
}

function isMyInvoisError(value: unknown): value is MyInvoisError {
  return typeof value === 'object' && value !== null && typeof (value as MyInvoisError).message === 'string' && 'code' in value;
}
