/**
 * A MyInvois that behaves as the SDK documents (DESIGN.md "Areas": sandbox mode, the default).
 * Its state (tokens, submissions, documents, DV302 index) is a {@link SandboxState}: PostgreSQL,
 * shared by every process of a stack as MyInvois is one service (`connectorFromEnv` with a query
 * function), or memory (unit tests, the test fake). Rate limits are counted per process.
 * Conventions (README.md "Sandbox conventions"): client ids starting with `bad` or the secret
 * `invalid` fail login; internal ids containing `INVALID` end up Invalid; an id value of all
 * zeros is an unknown taxpayer.
 */
import { AppError } from '@einvoice/domain';
import { randomBytes } from 'node:crypto';
import {
  AccessToken,
  AuthorityError,
  DocumentStateChange,
  DocumentSummary,
  MyInvoisConnector,
  MyInvoisCredentials,
  OverallStatus,
  RecentDocument,
  RecentDocuments,
  RecentDocumentsQuery,
  SubmissionDocument,
  SubmissionResponse,
  SubmissionStatus,
  TinCheck,
  documentBytes,
  documentHash,
} from './connector';
import { DuplicateKeyFields, duplicateKey, readDuplicateKeyFields } from './document-fields';
import { MYINVOIS_ERRORS, authorityRejected, invalidCredentials, rateLimited, rejectNotReceiver, tokenRejected } from './errors';
import { TIN_ID_TYPES, authorityLongId, authorityUid, checkIdValue, checkTinFormat } from './identifiers';
import { checkSubmissionLimits } from './limits';
import { MyInvoisEndpoint, RateLimiter } from './rate-limits';
import { InMemorySandboxState, SandboxDocument, SandboxState } from './sandbox-state';

export interface SandboxOptions {
  readonly now?: () => number;
  /** Random bytes for ids (inject for reproducible ids). */
  readonly random?: (n: number) => Uint8Array;
  /** Requests per minute per client id; default: the documented limits. */
  readonly rateLimits?: Partial<Record<MyInvoisEndpoint, number>>;
  /** How long documents stay `Submitted` (default 2 s). */
  readonly validationDelayMs?: number;
  /** Token lifetime (default 3600 s, as MyInvois). */
  readonly tokenLifetimeSeconds?: number;
  /** Where tokens, submissions and documents live; default: this process's memory. */
  readonly state?: SandboxState;
}

/** Cancellation/rejection window after validation (SDK "03 cancel document"). */
export const STATE_CHANGE_WINDOW_MS = 72 * 3_600_000;

const TYPE_NAMES: Record<string, string> = {
  '01': 'Invoice',
  '02': 'Credit Note',
  '03': 'Debit Note',
  '04': 'Refund Note',
  '11': 'Self-billed Invoice',
  '12': 'Self-billed Credit Note',
  '13': 'Self-billed Debit Note',
  '14': 'Self-billed Refund Note',
};

export class SandboxMyInvois implements MyInvoisConnector {
  readonly mode = 'sandbox' as const;
  private readonly now: () => number;
  private readonly random: (n: number) => Uint8Array;
  private readonly limiter: RateLimiter;
  private readonly validationDelayMs: number;
  private readonly tokenLifetimeMs: number;
  private readonly state: SandboxState;
  /** Logins per client id through THIS instance (a test counter, not shared state). */
  readonly loginCount = new Map<string, number>();

  constructor(options: SandboxOptions = {}) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? randomBytes;
    this.limiter = new RateLimiter({ limits: options.rateLimits, now: this.now });
    this.validationDelayMs = options.validationDelayMs ?? 2_000;
    this.tokenLifetimeMs = (options.tokenLifetimeSeconds ?? 3_600) * 1_000;
    this.state = options.state ?? new InMemorySandboxState();
  }

  async login(credentials: MyInvoisCredentials): Promise<AccessToken> {
    this.limit(credentials.clientId, 'login');
    const { clientId, clientSecret, onBehalfOfTin } = credentials;
    if (!clientId || !clientSecret || clientId.startsWith('bad') || clientSecret === 'invalid') throw invalidCredentials('invalid_client');
    const tin = checkTinFormat(onBehalfOfTin);
    if (!tin.ok) {
      throw authorityRejected('validation', MYINVOIS_ERRORS.FORBIDDEN, { code: 'invalid_request', message: `onbehalfof: ${tin.reason}`, target: 'onbehalfof' });
    }
    const token: AccessToken = { accessToken: `sandbox.${authorityUid(this.random)}`, expiresAt: this.now() + this.tokenLifetimeMs, clientId, onBehalfOfTin };
    await this.state.saveToken(token, this.now());
    this.loginCount.set(clientId, (this.loginCount.get(clientId) ?? 0) + 1);
    return token;
  }

  async validateTin(token: AccessToken, check: TinCheck): Promise<boolean> {
    await this.authorize(token, 'validateTin');
    if (!TIN_ID_TYPES.includes(check.idType) || !check.idValue) {
      throw authorityRejected('validation', MYINVOIS_ERRORS.BAD_ARGUMENT, { code: 'BadArgument', message: 'idType must be NRIC, PASSPORT, BRN or ARMY, with an idValue.', target: 'idType' });
    }
    // Malformed TIN or id, or the all-zeros id: the authority finds no such taxpayer (404).
    return checkTinFormat(check.tin).ok && checkIdValue(check.idType, check.idValue) && !/^0+$/.test(check.idValue);
  }

  async submitDocuments(token: AccessToken, documents: readonly SubmissionDocument[]): Promise<SubmissionResponse> {
    await this.authorize(token, 'submitDocuments');
    const limitError = checkSubmissionLimits(documents);
    if (limitError) throw limitError;
    const submissionUid = authorityUid(this.random);
    const received = new Date(this.now()).toISOString();
    await this.state.saveSubmission({ submissionUid, clientId: token.clientId, dateTimeReceived: received });
    const candidates = documents.map((doc) => this.candidate(doc, token, submissionUid, received));
    // The well-formed documents stored together (one commit for the submission), in order.
    const toStore = candidates.flatMap((c) => ('document' in c ? [c] : []));
    const stored = new Map((await this.state.addDocuments(toStore)).map((outcome, index) => [toStore[index], outcome]));
    const accepted: { uuid: string; invoiceCodeNumber: string }[] = [];
    const rejected: { invoiceCodeNumber: string; error: AuthorityError }[] = [];
    for (const [index, doc] of documents.entries()) {
      const candidate = candidates[index];
      const outcome = 'document' in candidate ? stored.get(candidate) : undefined;
      if ('error' in candidate) rejected.push({ invoiceCodeNumber: doc.codeNumber, error: candidate.error });
      else if (outcome && 'duplicateOf' in outcome) rejected.push({ invoiceCodeNumber: doc.codeNumber, error: duplicated(doc.codeNumber, outcome.duplicateOf) });
      else accepted.push({ uuid: candidate.document.summary.uuid, invoiceCodeNumber: doc.codeNumber });
    }
    return { submissionUid, acceptedDocuments: accepted, rejectedDocuments: rejected };
  }

  async getSubmission(token: AccessToken, submissionUid: string): Promise<SubmissionStatus> {
    await this.authorize(token, 'getSubmission');
    const submission = await this.state.findSubmission(submissionUid);
    if (!submission || submission.clientId !== token.clientId) throw notFound(`submission ${submissionUid}`);
    const documents = await this.state.submissionDocuments(submissionUid);
    if (documents.some((d) => !d.polled)) await this.state.markPolled(submissionUid);
    const summaries = await this.advanceAll(documents);
    return {
      submissionUid,
      documentCount: summaries.length,
      dateTimeReceived: submission.dateTimeReceived,
      overallStatus: overall(summaries),
      documentSummary: summaries,
    };
  }

  /**
   * Get Recent Documents, filtered and paged: `Sent` (the default) lists this client id's
   * submissions (newest first); `Received` the validated documents whose receiver is the token's
   * taxpayer, whoever issued them.
   */
  async recentDocuments(token: AccessToken, query: RecentDocumentsQuery): Promise<RecentDocuments> {
    await this.authorize(token, 'recentDocuments');
    const pageSize = Math.min(Math.max(query.pageSize ?? 20, 1), 100);
    const pageNo = Math.max(query.pageNo ?? 1, 1);
    const { documents, totalCount } = await this.state.recentDocuments({
      ...(query.invoiceDirection === 'Received' ? { receiverTin: token.onBehalfOfTin } : { clientId: token.clientId }),
      receivedFrom: query.submissionDateFrom ? Date.parse(query.submissionDateFrom) : undefined,
      receivedTo: query.submissionDateTo ? Date.parse(query.submissionDateTo) : undefined,
      status: query.status,
      offset: (pageNo - 1) * pageSize,
      limit: pageSize,
    });
    return { result: documents.map(recentDocumentOf), metadata: { totalPages: Math.ceil(totalCount / pageSize), totalCount } };
  }

  async cancelDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange> {
    await this.authorize(token, 'cancelDocument');
    await this.changeState(uuid, reason, undefined, (doc) => ({
      summary: { ...doc.summary, status: 'Cancelled', cancelDateTime: new Date(this.now()).toISOString(), documentStatusReason: reason },
      releaseKey: true,
    }));
    return { uuid, status: 'Cancelled' };
  }

  async rejectDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange> {
    await this.authorize(token, 'rejectDocument');
    // The receiver check comes first: nobody else learns anything about the document's state.
    const receiverOnly = (doc: SandboxDocument) => {
      if (doc.summary.receiverId !== token.onBehalfOfTin) throw rejectNotReceiver(uuid);
    };
    await this.changeState(uuid, reason, receiverOnly, (doc) => {
      if (doc.summary.rejectRequestDateTime) throw incorrectState('Rejection can be requested only once.');
      return { summary: { ...doc.summary, rejectRequestDateTime: new Date(this.now()).toISOString(), documentStatusReason: reason }, releaseKey: false };
    });
    return { uuid, status: 'Requested for Rejection' };
  }

  /** A document as it would be stored (its uuid drawn), or its refusal at the door (hash, structure). */
  private candidate(
    doc: SubmissionDocument,
    token: AccessToken,
    submissionUid: string,
    received: string,
  ): { readonly document: Omit<SandboxDocument, 'version'>; readonly claimKey: boolean } | { readonly error: AuthorityError } {
    const bytes = documentBytes(doc.document);
    if (doc.documentHash.toLowerCase() !== documentHash(bytes)) {
      return { error: badArgument(doc.codeNumber, 'DocumentHash', 'Document hash is not valid', 'documentHash') };
    }
    const fields = readDuplicateKeyFields(doc.format, bytes.toString('utf8'));
    if (!fields) return { error: badArgument(doc.codeNumber, 'BadStructure', 'The document does not match the document type structure.', 'document') };
    const uuid = authorityUid(this.random);
    const becomesValid = !fields.internalId.includes('INVALID') && !doc.codeNumber.includes('INVALID');
    // Documents that will be invalid never block a corrected resubmission: they claim no key.
    return {
      document: { summary: summaryOf(uuid, submissionUid, fields, token, received), key: duplicateKey(fields), validatesAt: this.now() + this.validationDelayMs, becomesValid, polled: false },
      claimKey: becomesValid,
    };
  }

  /**
   * A poll's view of a submission's documents: those due get their verdict, all written in one step
   * (one commit per poll); one another process changed first is decided again alone (`advance`).
   */
  private async advanceAll(documents: readonly SandboxDocument[]): Promise<DocumentSummary[]> {
    const next = documents.map((doc) => this.verdictOf(doc));
    const changes = documents.flatMap((doc, index) => (next[index] ? [{ uuid: doc.summary.uuid, expectedVersion: doc.version, summary: next[index] as DocumentSummary }] : []));
    const changed = await this.state.replaceDocuments(changes);
    const summaries: DocumentSummary[] = [];
    for (const [index, doc] of documents.entries()) {
      const verdict = next[index];
      if (!verdict) summaries.push(doc.summary);
      else if (changed.has(doc.summary.uuid)) summaries.push(verdict);
      else summaries.push(await this.advance((await this.state.findDocument(doc.summary.uuid)) as SandboxDocument));
    }
    return summaries;
  }

  /** The verdict due on a document (Valid, with its long id drawn, or Invalid), or undefined while none is. */
  private verdictOf(doc: SandboxDocument): DocumentSummary | undefined {
    if (doc.summary.status !== 'Submitted' || !doc.polled || this.now() < doc.validatesAt) return undefined;
    return doc.becomesValid
      ? { ...doc.summary, status: 'Valid', longId: authorityLongId(this.random), dateTimeValidated: new Date(this.now()).toISOString() }
      : { ...doc.summary, status: 'Invalid', documentStatusReason: 'Sandbox: internal id marked INVALID' };
  }

  /**
   * `Submitted` on the first poll; `Valid`/`Invalid` on a later one once the delay has passed.
   * The transition is a compare-and-set: of two processes polling at once one decides (and draws
   * the long id), the other reads what it decided.
   */
  private async advance(doc: SandboxDocument): Promise<DocumentSummary> {
    for (let current = doc; ; ) {
      const next = this.verdictOf(current);
      if (!next) return current.summary;
      if (await this.state.replaceDocument(current.summary.uuid, current.version, next)) return next;
      current = (await this.state.findDocument(current.summary.uuid)) as SandboxDocument;
    }
  }

  /** Cancel/reject: checks the document, then applies `change` as a compare-and-set (re-checked if another change came first). */
  private async changeState(
    uuid: string,
    reason: string,
    allowed: ((doc: SandboxDocument) => void) | undefined,
    change: (doc: SandboxDocument) => { summary: DocumentSummary; releaseKey: boolean },
  ): Promise<void> {
    for (;;) {
      const doc = await this.stateChangeTarget(uuid, reason, allowed);
      const { summary, releaseKey } = change(doc);
      if (await this.state.replaceDocument(uuid, doc.version, summary, { releaseKey })) return;
    }
  }

  private async stateChangeTarget(uuid: string, reason: string, allowed?: (doc: SandboxDocument) => void): Promise<SandboxDocument> {
    const doc = await this.state.findDocument(uuid);
    if (!doc) throw notFound(`document ${uuid}`);
    allowed?.(doc);
    if (!reason || [...reason].length > 300) {
      throw authorityRejected('validation', MYINVOIS_ERRORS.BAD_ARGUMENT, { code: 'BadArgument', message: 'A reason of 1 to 300 characters is required.', target: 'reason' });
    }
    if (doc.summary.status === 'Invalid' || doc.summary.status === 'Cancelled') throw incorrectState(`The document is ${doc.summary.status}.`);
    const validated = doc.summary.dateTimeValidated ? Date.parse(doc.summary.dateTimeValidated) : undefined;
    if (validated !== undefined && this.now() - validated > STATE_CHANGE_WINDOW_MS) {
      throw authorityRejected('conflict', MYINVOIS_ERRORS.OPERATION_PERIOD_OVER, { code: 'OperationPeriodOver', message: 'The 72-hour window after validation has passed.', target: uuid });
    }
    return doc;
  }

  private async authorize(token: AccessToken, endpoint: MyInvoisEndpoint): Promise<void> {
    this.limit(token.clientId, endpoint);
    const known = await this.state.findToken(token.accessToken);
    if (!known || this.now() >= known.expiresAt) throw tokenRejected();
  }

  /** Rate limits are counted per process (each instance its own buckets), unlike the shared state. */
  private limit(clientId: string, endpoint: MyInvoisEndpoint): void {
    const waitMs = this.limiter.tryAcquire(clientId, endpoint);
    if (waitMs > 0) throw rateLimited(Math.ceil(waitMs / 1000) * 1000, endpoint);
  }
}

function recentDocumentOf(d: DocumentSummary): RecentDocument {
  return {
    uuid: d.uuid,
    submissionUid: d.submissionUid,
    longId: d.longId,
    internalId: d.internalId,
    typeName: d.typeName,
    status: d.status,
    dateTimeReceived: d.dateTimeReceived,
    issuerTin: d.issuerTin,
    receiverId: d.receiverId,
    rejectRequestDateTime: d.rejectRequestDateTime ?? null,
    documentStatusReason: d.documentStatusReason ?? null,
  };
}

function summaryOf(uuid: string, submissionUid: string, fields: DuplicateKeyFields, token: AccessToken, received: string): DocumentSummary {
  return {
    uuid,
    submissionUid,
    longId: '',
    internalId: fields.internalId,
    typeName: TYPE_NAMES[fields.typeCode] ?? fields.typeCode,
    typeVersionName: fields.typeVersion,
    issuerTin: fields.supplierTin || token.onBehalfOfTin,
    receiverId: fields.buyerTin,
    dateTimeIssued: `${fields.issueDate}T${fields.issueTime}`,
    dateTimeReceived: received,
    dateTimeValidated: null,
    status: 'Submitted',
    cancelDateTime: null,
    rejectRequestDateTime: null,
    documentStatusReason: null,
  };
}

function overall(summaries: readonly DocumentSummary[]): OverallStatus {
  if (summaries.some((s) => s.status === 'Submitted')) return 'in progress';
  const invalid = summaries.filter((s) => s.status === 'Invalid').length;
  if (invalid === 0 && summaries.length > 0) return 'valid';
  return invalid === summaries.length ? 'invalid' : 'partially valid';
}

function badArgument(codeNumber: string, code: string, message: string, target: string): AuthorityError {
  return { code: 'BadArgument', message: 'Invalid Argument', target: codeNumber, details: [{ code, message, target }] };
}

function notFound(what: string): AppError {
  return authorityRejected('not_found', MYINVOIS_ERRORS.NOT_FOUND, { code: 'NotFound', message: `No ${what}.` }, 404);
}


/** MyInvois's DV302: a document whose duplicate-detection fields match a document it holds. */
function duplicated(codeNumber: string, duplicateOf: string): AuthorityError {
  return {
    code: 'DV302',
    message: 'Duplicated submission',
    target: codeNumber,
    details: [{ code: 'DV302', message: `Duplicated submitted document where the values of configured attributes match with values for the document with UUID: ${duplicateOf}`, target: 'document' }],
  };
}
function incorrectState(message: string): AppError {
  return authorityRejected('conflict', MYINVOIS_ERRORS.INCORRECT_STATE, { code: 'IncorrectState', message });
}
