/**
 * The KSeF 2.0 REST API on the wire (`shared/conformance/ksef/open-api.json`): one method per call this
 * service makes, JSON in and out, KSeF's errors turned into the platform's: 429 → `rate_limited` with
 * KSeF's Retry-After (retriable), 401 → `KSEF.UNAUTHORIZED` (retriable: the caller signs in again), 5xx
 * and network failures → `unavailable` (retriable), any other 4xx → KSeF's own exception code and
 * description, final.
 */
import { AppError } from '@einvoice/domain';

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

const unavailable = (message: string) => new AppError('unavailable', 'KSEF.UNAVAILABLE', message, { retriable: true });

export class KsefApi {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  publicKeyCertificates(): Promise<PublicKeyCertificate[]> {
    return this.call('GET', '/security/public-key-certificates');
  }

  challenge(): Promise<{ challenge: string; timestamp: string; timestampMs: number }> {
    return this.call('POST', '/auth/challenge');
  }

  signInWithToken(body: { challenge: string; contextIdentifier: { type: 'Nip'; value: string }; encryptedToken: string }): Promise<{ referenceNumber: string; authenticationToken: TokenInfo }> {
    return this.call('POST', '/auth/ksef-token', { body });
  }

  authenticationStatus(referenceNumber: string, authenticationToken: string): Promise<{ status: StatusInfo }> {
    return this.call('GET', `/auth/${encodeURIComponent(referenceNumber)}`, { bearer: authenticationToken });
  }

  /** Works once per authentication. */
  redeem(authenticationToken: string): Promise<{ accessToken: TokenInfo; refreshToken: TokenInfo }> {
    return this.call('POST', '/auth/token/redeem', { bearer: authenticationToken });
  }

  refresh(refreshToken: string): Promise<{ accessToken: TokenInfo }> {
    return this.call('POST', '/auth/token/refresh', { bearer: refreshToken });
  }

  openOnlineSession(accessToken: string, encryption: { encryptedSymmetricKey: string; initializationVector: string }): Promise<{ referenceNumber: string; validUntil: string }> {
    return this.call('POST', '/sessions/online', { bearer: accessToken, body: { formCode: FA3_FORM_CODE, encryption } });
  }

  sendInvoice(
    accessToken: string,
    sessionReference: string,
    body: { invoiceHash: string; invoiceSize: number; encryptedInvoiceHash: string; encryptedInvoiceSize: number; encryptedInvoiceContent: string },
  ): Promise<{ referenceNumber: string }> {
    return this.call('POST', `/sessions/online/${encodeURIComponent(sessionReference)}/invoices`, { bearer: accessToken, body });
  }

  /** 204; KSeF then makes the session's collective UPO. */
  closeOnlineSession(accessToken: string, sessionReference: string): Promise<void> {
    return this.call('POST', `/sessions/online/${encodeURIComponent(sessionReference)}/close`, { bearer: accessToken });
  }

  sessionStatus(accessToken: string, sessionReference: string): Promise<{ status: StatusInfo; invoiceCount?: number; successfulInvoiceCount?: number; failedInvoiceCount?: number }> {
    return this.call('GET', `/sessions/${encodeURIComponent(sessionReference)}`, { bearer: accessToken });
  }

  invoiceStatus(accessToken: string, sessionReference: string, invoiceReference: string): Promise<SessionInvoiceStatus> {
    return this.call('GET', `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}`, { bearer: accessToken });
  }

  /** Online sessions opened since `from`, every page. */
  async onlineSessionsSince(accessToken: string, from: string): Promise<SessionSummary[]> {
    return this.everyPage<SessionSummary>(`/sessions?sessionType=Online&pageSize=1000&dateCreatedFrom=${encodeURIComponent(from)}`, accessToken, 'sessions');
  }

  /** Every invoice of a session with its status and hash, every page. */
  sessionInvoices(accessToken: string, sessionReference: string): Promise<SessionInvoiceStatus[]> {
    return this.everyPage<SessionInvoiceStatus>(`/sessions/${encodeURIComponent(sessionReference)}/invoices?pageSize=1000`, accessToken, 'invoices');
  }

  /** Invoices' metadata (`POST /invoices/query/metadata`): used to tell by its hash whether an invoice KSeF holds is this one. */
  async invoiceMetadata(
    accessToken: string,
    filters: { subjectType: 'Subject1' | 'Subject2'; dateRange: { dateType: 'Issue' | 'Invoicing' | 'PermanentStorage'; from: string; to?: string }; ksefNumber?: string; invoiceNumber?: string },
  ): Promise<Array<{ ksefNumber: string; invoiceNumber: string; invoiceHash: string }>> {
    const answer = await this.call<{ invoices: Array<{ ksefNumber: string; invoiceNumber: string; invoiceHash: string }> }>('POST', '/invoices/query/metadata?pageSize=10', { bearer: accessToken, body: filters });
    return answer.invoices ?? [];
  }

  /** The invoice's UPO (Urzędowe Poświadczenie Odbioru), XML. */
  invoiceUpo(accessToken: string, sessionReference: string, invoiceReference: string): Promise<string> {
    return this.call('GET', `/sessions/${encodeURIComponent(sessionReference)}/invoices/${encodeURIComponent(invoiceReference)}/upo`, { bearer: accessToken, text: true });
  }

  /** The invoice as KSeF keeps it, by its KSeF number (needs the InvoiceRead permission), XML. */
  downloadInvoice(accessToken: string, ksefNumber: string): Promise<string> {
    return this.call('GET', `/invoices/ksef/${encodeURIComponent(ksefNumber)}`, { bearer: accessToken, text: true });
  }

  private async everyPage<T>(path: string, bearer: string, key: string): Promise<T[]> {
    const all: T[] = [];
    let continuation: string | undefined;
    do {
      const page = await this.call<{ continuationToken?: string | null } & Record<string, T[]>>('GET', path, { bearer, headers: continuation ? { 'x-continuation-token': continuation } : {} });
      all.push(...(page[key] ?? []));
      continuation = page.continuationToken ?? undefined;
    } while (continuation);
    return all;
  }

  private async call<T>(method: string, path: string, options: { bearer?: string; body?: unknown; text?: boolean; headers?: Record<string, string> } = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          accept: options.text ? 'application/xml' : 'application/json',
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(options.bearer ? { authorization: `Bearer ${options.bearer}` } : {}),
          ...options.headers,
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw unavailable(`KSeF did not answer ${method} ${path}: ${(error as Error).message}`);
    }
    const text = await response.text().catch(() => '');
    if (response.ok) {
      if (options.text) return text as T;
      return (text ? JSON.parse(text) : undefined) as T;
    }
    throw errorOf(method, path, response, text);
  }
}

/** KSeF's error answer as the platform's error. */
function errorOf(method: string, path: string, response: Response, text: string): AppError {
  const status = response.status;
  if (status === 429) {
    const seconds = Number(response.headers.get('retry-after') ?? 30);
    return new AppError('rate_limited', 'KSEF.429', `KSeF's limit was reached (${method} ${path}): ${text.slice(0, 300)}`, { retriable: true, details: { retryAfterMs: (Number.isFinite(seconds) ? seconds : 30) * 1000 } });
  }
  if (status >= 500) return unavailable(`KSeF answered ${status} to ${method} ${path}.`);
  if (status === 401) return new AppError('unavailable', 'KSEF.UNAUTHORIZED', `KSeF refused the access token (${method} ${path}); signing in again.`, { retriable: true });
  let detail: { exceptionCode?: number; exceptionDescription?: string | null; details?: string[] | null } | undefined;
  try {
    detail = (JSON.parse(text) as { exception?: { exceptionDetailList?: Array<typeof detail> } }).exception?.exceptionDetailList?.[0];
  } catch {
    detail = undefined;
  }
  const code = detail?.exceptionCode ? `KSEF.${detail.exceptionCode}` : `KSEF.HTTP_${status}`;
  const message = [detail?.exceptionDescription ?? `KSeF answered ${status}`, ...(detail?.details ?? [])].join(' ');
  return new AppError('validation', code, `${message} (${method} ${path})`, { retriable: false, details: { httpStatus: status } });
}
