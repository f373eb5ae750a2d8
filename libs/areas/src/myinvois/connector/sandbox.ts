/**
 * In-process MyInvois that behaves as the SDK documents (DESIGN.md "Areas": sandbox mode, the
 * default). State lives in memory; the worker persists what matters through its events.
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
import { MYINVOIS_ERRORS, authorityRejected, invalidCredentials, rateLimited, tokenRejected } from './errors';
import { TIN_ID_TYPES, authorityLongId, authorityUid, checkIdValue, checkTinFormat } from './identifiers';
import { checkSubmissionLimits } from './limits';
import { MyInvoisEndpoint, RateLimiter } from './rate-limits';

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

interface StoredDocument {
  summary: DocumentSummary;
  key: string;
  validatesAt: number;
  becomesValid: boolean;
  polled: boolean;
}

interface StoredSubmission {
  readonly submissionUid: string;
  readonly clientId: string;
  readonly dateTimeReceived: string;
  readonly uuids: readonly string[];
}

export class SandboxMyInvois implements MyInvoisConnector {
  readonly mode = 'sandbox' as const;
  private readonly now: () => number;
  private readonly random: (n: number) => Uint8Array;
  private readonly limiter: RateLimiter;
  private readonly validationDelayMs: number;
  private readonly tokenLifetimeMs: number;
  private readonly tokens = new Map<string, AccessToken>();
  private readonly submissions = new Map<string, StoredSubmission>();
  private readonly documents = new Map<string, StoredDocument>();
  /** DV302 index: duplicate key → uuid of the first document with it. */
  private readonly byKey = new Map<string, string>();
  /** Logins per client id, for tests and the fake server. */
  readonly loginCount = new Map<string, number>();

  constructor(options: SandboxOptions = {}) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? randomBytes;
    this.limiter = new RateLimiter({ limits: options.rateLimits, now: this.now });
    this.validationDelayMs = options.validationDelayMs ?? 2_000;
    this.tokenLifetimeMs = (options.tokenLifetimeSeconds ?? 3_600) * 1_000;
  }

  async login(credentials: MyInvoisCredentials): Promise<AccessToken> {
    this.limit(credentials.clientId, 'login');
    const { clientId, clientSecret, onBehalfOfTin } = credentials;
    if (!clientId || !clientSecret || clientId.startsWith('bad') || clientSecret === 'invalid') throw invalidCredentials('invalid_client');
    const tin = checkTinFormat(onBehalfOfTin);
    if (!tin.ok) {
      throw authorityRejected('validation', MYINVOIS_ERRORS.FORBIDDEN, { code: 'invalid_request', message: `onbehalfof: ${tin.reason}`, target: 'onbehalfof' });
    }
    this.loginCount.set(clientId, (this.loginCount.get(clientId) ?? 0) + 1);
    const token: AccessToken = { accessToken: `sandbox.${authorityUid(this.random)}`, expiresAt: this.now() + this.tokenLifetimeMs, clientId, onBehalfOfTin };
    this.tokens.set(token.accessToken, token);
    return token;
  }

  async validateTin(token: AccessToken, check: TinCheck): Promise<boolean> {
    this.authorize(token, 'validateTin');
    if (!TIN_ID_TYPES.includes(check.idType) || !check.idValue) {
      throw authorityRejected('validation', MYINVOIS_ERRORS.BAD_ARGUMENT, { code: 'BadArgument', message: 'idType must be NRIC, PASSPORT, BRN or ARMY, with an idValue.', target: 'idType' });
    }
    // Malformed TIN or id, or the all-zeros id: the authority finds no such taxpayer (404).
    return checkTinFormat(check.tin).ok && checkIdValue(check.idType, check.idValue) && !/^0+$/.test(check.idValue);
  }

  async submitDocuments(token: AccessToken, documents: readonly SubmissionDocument[]): Promise<SubmissionResponse> {
    this.authorize(token, 'submitDocuments');
    const limitError = checkSubmissionLimits(documents);
    if (limitError) throw limitError;
    const submissionUid = authorityUid(this.random);
    const received = new Date(this.now()).toISOString();
    const accepted: { uuid: string; invoiceCodeNumber: string }[] = [];
    const rejected: { invoiceCodeNumber: string; error: AuthorityError }[] = [];
    for (const doc of documents) {
      const outcome = this.accept(doc, token, submissionUid, received);
      if ('error' in outcome) rejected.push({ invoiceCodeNumber: doc.codeNumber, error: outcome.error });
      else accepted.push({ uuid: outcome.uuid, invoiceCodeNumber: doc.codeNumber });
    }
    this.submissions.set(submissionUid, { submissionUid, clientId: token.clientId, dateTimeReceived: received, uuids: accepted.map((a) => a.uuid) });
    return { submissionUid, acceptedDocuments: accepted, rejectedDocuments: rejected };
  }

  async getSubmission(token: AccessToken, submissionUid: string): Promise<SubmissionStatus> {
    this.authorize(token, 'getSubmission');
    const submission = this.submissions.get(submissionUid);
    if (!submission || submission.clientId !== token.clientId) throw notFound(`submission ${submissionUid}`);
    const summaries = submission.uuids.map((uuid) => this.advance(this.documents.get(uuid) as StoredDocument));
    return {
      submissionUid,
      documentCount: summaries.length,
      dateTimeReceived: submission.dateTimeReceived,
      overallStatus: overall(summaries),
      documentSummary: summaries,
    };
  }

  /** The documents this client id sent (newest submission first), filtered and paged as Get Recent Documents. */
  async recentDocuments(token: AccessToken, query: RecentDocumentsQuery): Promise<RecentDocuments> {
    this.authorize(token, 'recentDocuments');
    if (query.invoiceDirection === 'Received') return { result: [], metadata: { totalPages: 0, totalCount: 0 } };
    const from = query.submissionDateFrom ? Date.parse(query.submissionDateFrom) : -Infinity;
    const to = query.submissionDateTo ? Date.parse(query.submissionDateTo) : Infinity;
    const all = [...this.submissions.values()]
      .filter((s) => s.clientId === token.clientId && Date.parse(s.dateTimeReceived) >= from && Date.parse(s.dateTimeReceived) <= to)
      .reverse()
      .flatMap((s) => s.uuids.map((uuid) => (this.documents.get(uuid) as StoredDocument).summary))
      .filter((d) => !query.status || d.status === query.status);
    const pageSize = Math.min(Math.max(query.pageSize ?? 20, 1), 100);
    const pageNo = Math.max(query.pageNo ?? 1, 1);
    const page = all.slice((pageNo - 1) * pageSize, pageNo * pageSize);
    return {
      result: page.map((d) => ({ uuid: d.uuid, submissionUid: d.submissionUid, longId: d.longId, internalId: d.internalId, typeName: d.typeName, status: d.status, dateTimeReceived: d.dateTimeReceived, issuerTin: d.issuerTin })),
      metadata: { totalPages: Math.ceil(all.length / pageSize), totalCount: all.length },
    };
  }

  async cancelDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange> {
    this.authorize(token, 'cancelDocument');
    const doc = this.stateChangeTarget(uuid, reason);
    doc.summary = { ...doc.summary, status: 'Cancelled', cancelDateTime: new Date(this.now()).toISOString(), documentStatusReason: reason };
    this.byKey.delete(doc.key);
    return { uuid, status: 'Cancelled' };
  }

  async rejectDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange> {
    this.authorize(token, 'rejectDocument');
    const doc = this.stateChangeTarget(uuid, reason);
    if (doc.summary.rejectRequestDateTime) throw incorrectState('Rejection can be requested only once.');
    doc.summary = { ...doc.summary, rejectRequestDateTime: new Date(this.now()).toISOString(), documentStatusReason: reason };
    return { uuid, status: 'Requested for Rejection' };
  }

  private accept(doc: SubmissionDocument, token: AccessToken, submissionUid: string, received: string): { uuid: string } | { error: AuthorityError } {
    const bytes = documentBytes(doc.document);
    if (doc.documentHash.toLowerCase() !== documentHash(bytes)) {
      return { error: badArgument(doc.codeNumber, 'DocumentHash', 'Document hash is not valid', 'documentHash') };
    }
    const fields = readDuplicateKeyFields(doc.format, bytes.toString('utf8'));
    if (!fields) return { error: badArgument(doc.codeNumber, 'BadStructure', 'The document does not match the document type structure.', 'document') };
    const key = duplicateKey(fields);
    const original = this.byKey.get(key);
    if (original) {
      return {
        error: {
          code: 'DV302',
          message: 'Duplicated submission',
          target: doc.codeNumber,
          details: [{ code: 'DV302', message: `Duplicated submitted document where the values of configured attributes match with values for the document with UUID: ${original}`, target: 'document' }],
        },
      };
    }
    const uuid = authorityUid(this.random);
    const becomesValid = !fields.internalId.includes('INVALID') && !doc.codeNumber.includes('INVALID');
    // Documents that will be invalid never block a corrected resubmission.
    if (becomesValid) this.byKey.set(key, uuid);
    this.documents.set(uuid, {
      summary: summaryOf(uuid, submissionUid, fields, token, received),
      key,
      validatesAt: this.now() + this.validationDelayMs,
      becomesValid,
      polled: false,
    });
    return { uuid };
  }

  /** `Submitted` on the first poll; `Valid`/`Invalid` on a later one once the delay has passed. */
  private advance(doc: StoredDocument): DocumentSummary {
    if (doc.summary.status === 'Submitted' && doc.polled && this.now() >= doc.validatesAt) {
      doc.summary = doc.becomesValid
        ? { ...doc.summary, status: 'Valid', longId: authorityLongId(this.random), dateTimeValidated: new Date(this.now()).toISOString() }
        : { ...doc.summary, status: 'Invalid', documentStatusReason: 'Sandbox: internal id marked INVALID' };
    }
    doc.polled = true;
    return doc.summary;
  }

  private stateChangeTarget(uuid: string, reason: string): StoredDocument {
    const doc = this.documents.get(uuid);
    if (!doc) throw notFound(`document ${uuid}`);
    if (!reason || reason.length > 300) {
      throw authorityRejected('validation', MYINVOIS_ERRORS.BAD_ARGUMENT, { code: 'BadArgument', message: 'A reason of 1 to 300 characters is required.', target: 'reason' });
    }
    if (doc.summary.status === 'Invalid' || doc.summary.status === 'Cancelled') throw incorrectState(`The document is ${doc.summary.status}.`);
    const validated = doc.summary.dateTimeValidated ? Date.parse(doc.summary.dateTimeValidated) : undefined;
    if (validated !== undefined && this.now() - validated > STATE_CHANGE_WINDOW_MS) {
      throw authorityRejected('conflict', MYINVOIS_ERRORS.OPERATION_PERIOD_OVER, { code: 'OperationPeriodOver', message: 'The 72-hour window after validation has passed.', target: uuid });
    }
    return doc;
  }

  private authorize(token: AccessToken, endpoint: MyInvoisEndpoint): void {
    this.limit(token.clientId, endpoint);
    const known = this.tokens.get(token.accessToken);
    if (!known || this.now() >= known.expiresAt) throw tokenRejected();
  }

  private limit(clientId: string, endpoint: MyInvoisEndpoint): void {
    const waitMs = this.limiter.tryAcquire(clientId, endpoint);
    if (waitMs > 0) throw rateLimited(Math.ceil(waitMs / 1000) * 1000, endpoint);
  }
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

function incorrectState(message: string): AppError {
  return authorityRejected('conflict', MYINVOIS_ERRORS.INCORRECT_STATE, { code: 'IncorrectState', message });
}
