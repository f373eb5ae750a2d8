/**
 * HTTP plumbing of the live client: one request with a timeout, and the mapping of the
 * authority's answers to AppErrors (STYLE.md §3): 429 → rate_limited with Retry-After,
 * 5xx/network/timeout → unavailable, 401 → token rejected, 4xx → the authority's error object.
 */
import { AppError } from '@einvoice/domain';
import { AuthorityError } from './connector';
import { MYINVOIS_ERRORS, authorityRejected, rateLimited, tokenRejected, unavailable } from './errors';

export type Fetch = typeof fetch;

export interface HttpResult {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** Sends one request; network failures and timeouts become retriable `unavailable` errors. */
export async function send(fetchFn: Fetch, url: string, init: RequestInit, timeoutMs: number, endpoint: string): Promise<HttpResult> {
  let response: Response;
  try {
    response = await fetchFn(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw unavailable(
      timedOut ? `MyInvois did not answer ${endpoint} within ${timeoutMs} ms.` : `MyInvois could not be reached for ${endpoint}.`,
      { endpoint },
      error,
      timedOut ? MYINVOIS_ERRORS.TIMEOUT : MYINVOIS_ERRORS.UNAVAILABLE,
    );
  }
  const text = await response.text();
  let body: unknown = undefined;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, headers: response.headers, body };
}

/** Retry-After in ms: delta-seconds or an HTTP date; 60 s when absent (limits are per minute). */
export function retryAfterMs(header: string | null, now: number = Date.now()): number {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return 60_000;
}

/**
 * The authority's error object from a body. The SDK's Standard Error Response names fields
 * `errorCode`/`error`/`innerError`; submission errors use `code`/`message`/`details`. Both read.
 */
export function authorityError(body: unknown, fallback: string): AuthorityError {
  const raw = isObject(body) && isObject(body.error) ? body.error : isObject(body) ? body : {};
  const code = str(raw.code) ?? str(raw.errorCode) ?? fallback;
  const message = str(raw.message) ?? str(raw.error) ?? str(raw.error_description) ?? (typeof body === 'string' && body ? body : fallback);
  const nested = Array.isArray(raw.details) ? raw.details : Array.isArray(raw.innerError) ? raw.innerError : undefined;
  return {
    code,
    message,
    target: str(raw.target) ?? str(raw.propertyName) ?? null,
    propertyPath: str(raw.propertyPath) ?? null,
    details: nested ? nested.map((d) => authorityError({ error: d }, fallback)) : null,
  };
}

/** An AppError for any non-2xx answer of the API host. */
export function apiError(result: HttpResult, endpoint: string): AppError {
  const { status } = result;
  if (status === 429) return rateLimited(retryAfterMs(result.headers.get('retry-after')), endpoint);
  if (status >= 500) return unavailable(`MyInvois answered ${status} to ${endpoint}.`, { endpoint, status });
  if (status === 401) return tokenRejected();
  const error = authorityError(result.body, `HTTP${status}`);
  if (status === 404) return authorityRejected('not_found', MYINVOIS_ERRORS.NOT_FOUND, error, status);
  // Only a document's receiver may reject it (SDK "04 reject document"); other 403s: the taxpayer did not grant it.
  if (status === 403 && endpoint === 'rejectDocument') return authorityRejected('forbidden', MYINVOIS_ERRORS.REJECT_NOT_RECEIVER, error, status);
  if (status === 403) return authorityRejected('validation', MYINVOIS_ERRORS.FORBIDDEN, error, status);
  if (status === 422) return authorityRejected('conflict', MYINVOIS_ERRORS.DUPLICATE_SUBMISSION, error, status);
  if (error.code === 'MaximumSizeExceeded') return authorityRejected('too_large', MYINVOIS_ERRORS.MAXIMUM_SIZE_EXCEEDED, error, status);
  if (error.code === 'BadStructure') return authorityRejected('validation', MYINVOIS_ERRORS.BAD_STRUCTURE, error, status);
  if (error.code === 'OperationPeriodOver') return authorityRejected('conflict', MYINVOIS_ERRORS.OPERATION_PERIOD_OVER, error, status);
  if (error.code === 'IncorrectState') return authorityRejected('conflict', MYINVOIS_ERRORS.INCORRECT_STATE, error, status);
  return authorityRejected('validation', MYINVOIS_ERRORS.BAD_ARGUMENT, error, status);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
