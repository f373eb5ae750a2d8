/**
 * The KSeF 2.0 REST API on the wire (`shared/conformance/ksef/open-api.json`): one method per call this
 * service makes, JSON in and out, KSeF's errors turned into the platform's: 429 → `rate_limited` with
 * KSeF's Retry-After (retriable), 401 → `KSEF.UNAUTHORIZED` (retriable: the caller signs in again), 5xx
 * and network failures → `unavailable` (retriable), any other 4xx → KSeF's own exception code and
 * description, final.
 */
import { AppError } from '@einvoice/domain';
import { type AuthorityAnswer, AuthorityHttp } from '../../shared/authority-http';

/** KSeF's hosts (ksef-docs `srodowiska.md`). */
export const KSEF_ENVIRONMENTS = {
  test: 'https://api-test.ksef.mf.gov.pl/v2',
  demo: 'https://api-demo.ksef.mf.gov.pl/v2',
  prod: 'https://api.ksef.mf.gov.pl/v2',
} as const;

export interface TokenInfo {
  readonly token: string;
  readonly validUntil: string;
}

export interface StatusInfo {
  readonly code: number;
  readonly description: string;
  readonly details?: readonly string[] | null;
  readonly extensions?: Readonly<Record<string, string | null>> | null;
}

export interface PublicKeyCertificate {
  readonly certificate: string;
  readonly publicKeyId: string;
  readonly validFrom: string;
  readonly validTo: string;
  readonly usage: readonly ('KsefTokenEncryption' | 'SymmetricKeyEncryption')[];
}

export interface SessionInvoiceStatus {
  readonly ordinalNumber: number;
  readonly referenceNumber: string;
  readonly invoiceHash: string;
  readonly invoiceNumber?: string | null;
  readonly ksefNumber?: string | null;
  readonly acquisitionDate?: string | null;
  readonly upoDownloadUrl?: string | null;
  readonly status: StatusInfo;
}

export interface SessionSummary {
  readonly referenceNumber: string;
  readonly status: StatusInfo;
  readonly dateCreated: string;
}

/** The FA(3) form code of an online session (OpenOnlineSessionRequest.formCode). */
export const FA3_FORM_CODE = { systemCode: 'FA (3)', schemaVersion: '1-0E', value: 'FA' } as const;

export class KsefApi {
  private readonly http: AuthorityHttp;

  constructor(
    private readonly baseUrl: string,
    timeoutMs = 30_000,
  ) {
    // A 429 without Retry-After: KSeF's answers say "try again after 30 seconds" (notes, KSeF errors).
    this.http = new AuthorityHttp({ area: 'pl', authority: 'KSeF', timeoutMs, codes: { unavailable: 'KSEF.UNAVAILABLE', rateLimited: 'KSEF.429' }, defaultRetryAfterMs: 30_000 });
  }

  publicKeyCertificates(): Promise<PublicKeyCertificate[]> {
    return this.call('GET', '/security/public-key-certificates', '/security/public-key-certificates');
  }

  challenge(): Promise<{ challenge: string; timestamp: string; timestampMs: number }> {
    return this.call('POST', '/auth/challenge', '/auth/challenge');
  }

  signInWithToken(body: { challenge: string; contextIdentifier: { type: 'Nip'; value: string }; encryptedToken: string }): Promise<{ referenceNumber: string; authenticationToken: TokenInfo }> {
    return this.call('POST', '/auth/ksef-token', '/auth/ksef-token', { body });
  }

  authenticationStatus(referenceNumber: string, authenticationToken: string): Promise<{ status: StatusInfo }> {
    return this.call('GET', '/auth/{referenceNumber}', `/auth/${encodeURIComponent(referenceNumber)}`, { bearer: authenticationToken });
  }

  /** Works once per authentication. */
  redeem(authenticationToken: string): Promise<{ accessToken: TokenInfo; refreshToken: TokenInfo }> {
    return this.call('POST', '/auth/token/redeem', '/auth/token/redeem', { bearer: authenticationToken });
  }

  refresh(refreshToken: string): Promise<{ accessToken: TokenInfo }> {
    return this.call('POST', '/auth/token/refresh', '/auth/token/refresh', { bearer: refreshToken });
  }

  openOnlineSession(accessToken: string, encryption: { encryptedSymmetricKey: string; initializationVector: string }): Promise<{ referenceNumber: string; validUntil: string }> {
    return this.call('POST', '/sessions/online', '/sessions/online', { bearer: accessToken, body: { formCode: FA3_FORM_CODE, encryption } });
  }

  sendInvoice(
    accessToken: string,
    sessionReference: string,
    body: { invoiceHash: string; invoiceSize: number; encryptedInvoiceHash: string; encryptedInvoiceSize: number; encryptedInvoiceContent: string },
  ): Promise<{ referenceNumber: string }> {
    return this.call('POST', '/sessions/online/{referenceNumber}/invoices', `/sessions/online/${encodeURIComponent(sessionReference)}/invoices`, { bearer: accessToken, body });
  }

  /** 204; KSeF then makes the session's collective UPO. */
  closeOnlineSession(accessToken: string, sessionReference: string): Promise<void> {
    return this.call('POST', '/sessions/online/{referenceNumber}/close', `/sessions/online/${encodeURIComponent(sessionReference)}/close`, { bearer: accessToken });
  }

  sessionStatus(accessToken: string, sessionReference: string): Promise<{ status: StatusInfo; invoiceCount?: number; successfulInvoiceCount?: number; failedInvoiceCount?: number }> {
    return this.call('GET', '/sessions/{referenceNumber}', `/sessions/${encodeURIComponent(sessionReference)}`, { bearer: accessToken });
  }

  invoiceStatus(accessToken: string, sessionReference: string, invoiceReference: string): Promise<SessionInvoiceStatus> {
    return this.call('GET', '/sessions/{referenceNumber}/invoices/{invoiceReferenceNumber}', `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}`, { bearer: accessToken });
  }

  /** Online sessions opened since `from`, every page. */
  async onlineSessionsSince(accessToken: string, from: string): Promise<SessionSummary[]> {
    return this.everyPage<SessionSummary>('/sessions', `/sessions?sessionType=Online&pageSize=1000&dateCreatedFrom=${encodeURIComponent(from)}`, accessToken, 'sessions');
  }

  /** Every invoice of a session with its status and hash, every page. */
  sessionInvoices(accessToken: string, sessionReference: string): Promise<SessionInvoiceStatus[]> {
    return this.everyPage<SessionInvoiceStatus>('/sessions/{referenceNumber}/invoices', `/sessions/${encodeURIComponent(sessionReference)}/invoices?pageSize=1000`, accessToken, 'invoices');
  }

  /** Invoices' metadata (`POST /invoices/query/metadata`): used to tell by its hash whether an invoice KSeF holds is this one. */
  async invoiceMetadata(
    accessToken: string,
    filters: { subjectType: 'Subject1' | 'Subject2'; dateRange: { dateType: 'Issue' | 'Invoicing' | 'PermanentStorage'; from: string; to?: string }; ksefNumber?: string; invoiceNumber?: string },
  ): Promise<Array<{ ksefNumber: string; invoiceNumber: string; invoiceHash: string }>> {
    const answer = await this.call<{ invoices: Array<{ ksefNumber: string; invoiceNumber: string; invoiceHash: string }> }>('POST', '/invoices/query/metadata', '/invoices/query/metadata?pageSize=10', { bearer: accessToken, body: filters });
    return answer.invoices ?? [];
  }

  /** The invoice's UPO (Urzędowe Poświadczenie Odbioru), XML. */
  invoiceUpo(accessToken: string, sessionReference: string, invoiceReference: string): Promise<string> {
    return this.call('GET', '/sessions/{referenceNumber}/invoices/{invoiceReferenceNumber}/upo', `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}/upo`, { bearer: accessToken, text: true });
  }

  /** The invoice as KSeF keeps it, by its KSeF number (needs the InvoiceRead permission), XML. */
  downloadInvoice(accessToken: string, ksefNumber: string): Promise<string> {
    return this.call('GET', '/invoices/ksef/{ksefNumber}', `/invoices/ksef/${encodeURIComponent(ksefNumber)}`, { bearer: accessToken, text: true });
  }

  private async everyPage<T>(name: string, path: string, bearer: string, key: string): Promise<T[]> {
    const all: T[] = [];
    let continuation: string | undefined;
    do {
      const page = await this.call<{ continuationToken?: string | null } & Record<string, T[]>>('GET', name, path, { bearer, headers: continuation ? { 'x-continuation-token': continuation } : {} });
      all.push(...(page[key] ?? []));
      continuation = page.continuationToken ?? undefined;
    } while (continuation);
    return all;
  }

  /** `name`: the path's template in KSeF's OpenAPI (metrics and spans; the path holds references). */
  private async call<T>(method: string, name: string, path: string, options: { bearer?: string; body?: unknown; text?: boolean; headers?: Record<string, string> } = {}): Promise<T> {
    const answer = await this.http.send({
      method,
      name,
      url: `${this.baseUrl}${path}`,
      headers: {
        accept: options.text ? 'application/xml' : 'application/json',
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
        ...options.headers,
      },
      body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
    });
    if (answer.outcome === 'ok') return (options.text ? answer.text : answer.json) as T;
    throw this.errorOf(answer);
  }

  /** KSeF's error answer as the platform's error. */
  private errorOf(answer: AuthorityAnswer): AppError {
    if (answer.outcome === 'rate_limited' || answer.outcome === 'unavailable') return this.http.retriable(answer);
    if (answer.status === 401) return new AppError('unavailable', 'KSEF.UNAUTHORIZED', `KSeF refused the access token (${answer.request}); signing in again.`, { retriable: true });
    let detail: { exceptionCode?: number; exceptionDescription?: string | null; details?: string[] | null } | undefined;
    try {
      detail = (JSON.parse(answer.text) as { exception?: { exceptionDetailList?: Array<typeof detail> } }).exception?.exceptionDetailList?.[0];
    } catch {
      detail = undefined;
    }
    const code = detail?.exceptionCode ? `KSEF.${detail.exceptionCode}` : `KSEF.HTTP_${answer.status}`;
    const message = [detail?.exceptionDescription ?? `KSeF answered ${answer.status}`, ...(detail?.details ?? [])].join(' ');
    return new AppError('validation', code, `${message} (${answer.request})`, { retriable: false, details: { httpStatus: answer.status } });
  }
}
