/**
 * Live MyInvois client for an intermediary (DESIGN.md "Areas": live mode): Login as
 * Intermediary System on the identity service, then the e-Invoice API with a bearer token.
 * Waits on client-side token buckets rather than hitting the authority's 429s. Never called
 * against the real hosts in tests: the int tests use test/fakes/myinvois.
 */
import { AppError } from '@einvoice/domain';
import {
  AccessToken,
  DocumentStateChange,
  MyInvoisConnector,
  MyInvoisCredentials,
  RecentDocument,
  RecentDocuments,
  RecentDocumentsQuery,
  SubmissionDocument,
  SubmissionResponse,
  SubmissionStatus,
  TinCheck,
  documentBytes,
} from './connector';
import { type AuthorityAnswer, AuthorityHttp } from '../../shared/authority-http';
import { MYINVOIS_ERRORS, invalidCredentials } from './errors';
import { apiError, authorityError, isObject } from './http';
import { checkSubmissionLimits } from './limits';
import { MyInvoisEndpoint, RateLimiter } from './rate-limits';

/** Base URLs: identity service (token) and system API (SDK FAQ "What are the environment URLs?"). */
export interface MyInvoisHosts {
  readonly identityBaseUrl: string;
  readonly apiBaseUrl: string;
}

export const MYINVOIS_HOSTS: Readonly<Record<'preprod' | 'production', MyInvoisHosts>> = {
  preprod: { identityBaseUrl: 'https://preprod-api.myinvois.hasil.gov.my', apiBaseUrl: 'https://preprod-api.myinvois.hasil.gov.my' },
  production: { identityBaseUrl: 'https://api.myinvois.hasil.gov.my', apiBaseUrl: 'https://api.myinvois.hasil.gov.my' },
};

export interface LiveMyInvoisOptions {
  /** Default: {@link MYINVOIS_HOSTS}.preprod. */
  readonly hosts?: MyInvoisHosts;
  /** Per request (default 30 s). */
  readonly timeoutMs?: number;
  readonly now?: () => number;
  /** Client-side limits; default: the documented limits per client id and endpoint. */
  readonly rateLimiter?: RateLimiter;
}

export class LiveMyInvoisClient implements MyInvoisConnector {
  readonly mode = 'live' as const;
  private readonly hosts: MyInvoisHosts;
  private readonly http: AuthorityHttp;
  private readonly now: () => number;
  private readonly limiter: RateLimiter;

  constructor(options: LiveMyInvoisOptions = {}) {
    this.hosts = options.hosts ?? MYINVOIS_HOSTS.preprod;
    this.now = options.now ?? Date.now;
    // A 429 without Retry-After waits a minute: the SDK's limits are per minute.
    this.http = new AuthorityHttp({
      area: 'my',
      authority: 'MyInvois',
      timeoutMs: options.timeoutMs ?? 30_000,
      codes: { unavailable: MYINVOIS_ERRORS.UNAVAILABLE, timeout: MYINVOIS_ERRORS.TIMEOUT, rateLimited: MYINVOIS_ERRORS.RATE_LIMITED },
      defaultRetryAfterMs: 60_000,
      now: this.now,
    });
    // A slot more than a second away: the caller hears a 429 at once (the reporting worker defers the submission).
    this.limiter = options.rateLimiter ?? new RateLimiter({ maxWaitMs: 1_000 });
  }

  /** `POST /connect/token`, form-encoded client credentials, header `onbehalfof`. */
  async login(credentials: MyInvoisCredentials): Promise<AccessToken> {
    if (!credentials.clientId || !credentials.clientSecret) throw invalidCredentials();
    await this.limiter.acquire(credentials.clientId, 'login');
    const form = new URLSearchParams({
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      grant_type: 'client_credentials',
      scope: 'InvoicingAPI',
    });
    const result = await this.http.send({
      method: 'POST',
      name: 'login',
      url: `${this.hosts.identityBaseUrl}/connect/token`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', onbehalfof: credentials.onBehalfOfTin },
      body: form.toString(),
    });
    const body = result.json;
    if (result.status === 200 && isObject(body) && typeof body.access_token === 'string') {
      const expiresIn = Number(body.expires_in);
      return {
        accessToken: body.access_token,
        expiresAt: this.now() + (Number.isFinite(expiresIn) ? expiresIn : 3600) * 1000,
        clientId: credentials.clientId,
        onBehalfOfTin: credentials.onBehalfOfTin,
      };
    }
    throw this.loginError(result);
  }

  /** `GET /api/v1.0/taxpayer/validate/{tin}?idType=&idValue=`: 200 valid, 404 not found. */
  async validateTin(token: AccessToken, check: TinCheck): Promise<boolean> {
    const query = new URLSearchParams({ idType: check.idType, idValue: check.idValue });
    const result = await this.call(token, 'validateTin', 'GET', `/api/v1.0/taxpayer/validate/${encodeURIComponent(check.tin)}?${query}`, undefined, [200, 404]);
    return result.status === 200;
  }

  /** `POST /api/v1.0/documentsubmissions` → 202 with accepted and rejected documents. */
  async submitDocuments(token: AccessToken, documents: readonly SubmissionDocument[]): Promise<SubmissionResponse> {
    const limitError = checkSubmissionLimits(documents);
    if (limitError) throw limitError;
    const body = {
      documents: documents.map((d) => ({
        format: d.format,
        documentHash: d.documentHash,
        codeNumber: d.codeNumber,
        document: documentBytes(d.document).toString('base64'),
      })),
    };
    const result = await this.call(token, 'submitDocuments', 'POST', '/api/v1.0/documentsubmissions', body, [200, 202]);
    const response = result.json;
    if (!isObject(response) || typeof response.submissionUid !== 'string') throw unexpected('submitDocuments', result);
    return {
      submissionUid: response.submissionUid,
      acceptedDocuments: Array.isArray(response.acceptedDocuments) ? response.acceptedDocuments : [],
      rejectedDocuments: (Array.isArray(response.rejectedDocuments) ? response.rejectedDocuments : []).map((r: unknown) => ({
        invoiceCodeNumber: isObject(r) && typeof r.invoiceCodeNumber === 'string' ? r.invoiceCodeNumber : '',
        error: authorityError(isObject(r) ? { error: r.error } : {}, 'Rejected'),
      })),
    };
  }

  /** `GET /api/v1.0/documentsubmissions/{submissionUid}?pageNo=&pageSize=`. */
  async getSubmission(token: AccessToken, submissionUid: string, page: { pageNo?: number; pageSize?: number } = {}): Promise<SubmissionStatus> {
    const query = new URLSearchParams();
    if (page.pageNo !== undefined) query.set('pageNo', String(page.pageNo));
    if (page.pageSize !== undefined) query.set('pageSize', String(page.pageSize));
    const suffix = query.size > 0 ? `?${query}` : '';
    const result = await this.call(token, 'getSubmission', 'GET', `/api/v1.0/documentsubmissions/${encodeURIComponent(submissionUid)}${suffix}`, undefined, [200]);
    const body = result.json;
    if (!isObject(body) || typeof body.overallStatus !== 'string') throw unexpected('getSubmission', result);
    return body as unknown as SubmissionStatus;
  }

  /** `GET /api/v1.0/documents/recent?pageNo=&pageSize=&submissionDateFrom=&submissionDateTo=&InvoiceDirection=&status=` → `{result, metadata}`. */
  async recentDocuments(token: AccessToken, q: RecentDocumentsQuery): Promise<RecentDocuments> {
    const query = new URLSearchParams();
    if (q.pageNo !== undefined) query.set('pageNo', String(q.pageNo));
    if (q.pageSize !== undefined) query.set('pageSize', String(q.pageSize));
    if (q.submissionDateFrom !== undefined) query.set('submissionDateFrom', q.submissionDateFrom);
    if (q.submissionDateTo !== undefined) query.set('submissionDateTo', q.submissionDateTo);
    if (q.invoiceDirection !== undefined) query.set('InvoiceDirection', q.invoiceDirection);
    if (q.status !== undefined) query.set('status', q.status);
    const suffix = query.size > 0 ? `?${query}` : '';
    const result = await this.call(token, 'recentDocuments', 'GET', `/api/v1.0/documents/recent${suffix}`, undefined, [200]);
    const body = result.json;
    if (!isObject(body) || !Array.isArray(body.result)) throw unexpected('recentDocuments', result);
    const metadata = isObject(body.metadata) ? body.metadata : {};
    return {
      result: body.result.filter(isObject).map(recentDocumentOf),
      metadata: { totalPages: Number(metadata.totalPages ?? 1), totalCount: Number(metadata.totalCount ?? body.result.length) },
    };
  }

  /** `PUT /api/v1.0/documents/state/{uuid}/state` `{status: 'cancelled', reason}`. */
  async cancelDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange> {
    return this.changeState(token, 'cancelDocument', uuid, 'cancelled', reason);
  }

  /** Same endpoint, `{status: 'rejected', reason}`. */
  async rejectDocument(token: AccessToken, uuid: string, reason: string): Promise<DocumentStateChange> {
    return this.changeState(token, 'rejectDocument', uuid, 'rejected', reason);
  }

  private async changeState(token: AccessToken, endpoint: MyInvoisEndpoint, uuid: string, status: string, reason: string): Promise<DocumentStateChange> {
    const result = await this.call(token, endpoint, 'PUT', `/api/v1.0/documents/state/${encodeURIComponent(uuid)}/state`, { status, reason }, [200]);
    const body = result.json;
    if (!isObject(body) || typeof body.status !== 'string') throw unexpected(endpoint, result);
    return { uuid: typeof body.uuid === 'string' ? body.uuid : uuid, status: body.status };
  }

  private async call(token: AccessToken, endpoint: MyInvoisEndpoint, method: string, path: string, body: unknown, ok: readonly number[]): Promise<AuthorityAnswer> {
    await this.limiter.acquire(token.clientId, endpoint);
    const headers: Record<string, string> = { authorization: `Bearer ${token.accessToken}`, accept: 'application/json', 'accept-language': 'en' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const result = await this.http.send({ method, name: endpoint, url: `${this.hosts.apiBaseUrl}${path}`, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (ok.includes(result.status)) return result;
    if (result.outcome === 'rate_limited' || result.outcome === 'unavailable') throw this.http.retriable(result);
    throw apiError(result.status, result.json, endpoint);
  }

  /** OAuth errors of the identity service: `invalid_client` and friends are final. */
  private loginError(result: AuthorityAnswer): AppError {
    if (result.outcome === 'rate_limited' || result.outcome === 'unavailable') return this.http.retriable(result);
    const body = result.json;
    if (result.status === 400 || result.status === 401) {
      const oauth = isObject(body) && typeof body.error === 'string' ? body.error : undefined;
      return invalidCredentials(oauth ?? `HTTP${result.status}`);
    }
    return apiError(result.status, body, 'login');
  }
}

/**
 * One `result` item of Get Recent Documents: the fields the worker reads (identity, state, and
 * the rejection a receiver requested), strings as sent; optional ones only when present.
 */
function recentDocumentOf(item: Record<string, unknown>): RecentDocument {
  const text = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : '');
  const optional = (name: string) => (typeof item[name] === 'string' ? (item[name] as string) : item[name] === null ? null : undefined);
  const issuerTin = optional('issuerTin');
  const receiverId = optional('receiverId');
  return {
    uuid: text('uuid'),
    submissionUid: text('submissionUid'),
    longId: text('longId'),
    internalId: text('internalId'),
    typeName: text('typeName'),
    status: text('status') as RecentDocument['status'],
    dateTimeReceived: text('dateTimeReceived'),
    ...(issuerTin ? { issuerTin } : {}),
    ...(receiverId ? { receiverId } : {}),
    rejectRequestDateTime: optional('rejectRequestDateTime') ?? null,
    documentStatusReason: optional('documentStatusReason') ?? null,
  };
}

/** Final, not retriable: after a 2xx the request may have taken effect (never resubmit after a 2xx). */
function unexpected(endpoint: string, result: AuthorityAnswer): AppError {
  return new AppError('internal', MYINVOIS_ERRORS.UNEXPECTED_RESPONSE, `MyInvois answered ${endpoint} with an unexpected body.`, {
    retriable: false,
    details: { endpoint, status: result.status },
  });
}
