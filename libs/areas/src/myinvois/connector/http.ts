/**
 * MyInvois's refusals as AppErrors (STYLE.md §3): 401 → token rejected, any other 4xx → the authority's
 * error object under the connector's code for it. The request itself, timeouts, 429 and 5xx:
 * shared/authority-http.ts.
 */
import { AppError } from '@einvoice/domain';
import { AuthorityError } from './connector';
import { MYINVOIS_ERRORS, authorityRejected, tokenRejected } from './errors';

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

/** An AppError for a refusal (a 4xx other than 429) of the API host, from its status and body. */
export function apiError(status: number, body: unknown, endpoint: string): AppError {
  if (status === 401) return tokenRejected();
  const error = authorityError(body, `HTTP${status}`);
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
