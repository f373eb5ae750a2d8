/**
 * The connector's AppErrors (STYLE.md §3), shared by the sandbox and the live client so the
 * worker sees the same codes in both modes.
 */
import { AppError, issue } from '@einvoice/domain';
import { AuthorityError } from './connector';

export const MYINVOIS_ERRORS = {
  INVALID_CREDENTIALS: 'MYINVOIS.INVALID_CREDENTIALS',
  FORBIDDEN: 'MYINVOIS.FORBIDDEN',
  REJECT_NOT_RECEIVER: 'MYINVOIS.REJECT_NOT_RECEIVER',
  TOKEN_REJECTED: 'MYINVOIS.TOKEN_REJECTED',
  RATE_LIMITED: 'MYINVOIS.RATE_LIMITED',
  UNAVAILABLE: 'MYINVOIS.UNAVAILABLE',
  TIMEOUT: 'MYINVOIS.TIMEOUT',
  BAD_STRUCTURE: 'MYINVOIS.BAD_STRUCTURE',
  BAD_ARGUMENT: 'MYINVOIS.BAD_ARGUMENT',
  MAXIMUM_SIZE_EXCEEDED: 'MYINVOIS.MAXIMUM_SIZE_EXCEEDED',
  DUPLICATE_SUBMISSION: 'MYINVOIS.DUPLICATE_SUBMISSION',
  INCORRECT_STATE: 'MYINVOIS.INCORRECT_STATE',
  OPERATION_PERIOD_OVER: 'MYINVOIS.OPERATION_PERIOD_OVER',
  NOT_FOUND: 'MYINVOIS.NOT_FOUND',
  UNEXPECTED_RESPONSE: 'MYINVOIS.UNEXPECTED_RESPONSE',
} as const;

/** Bad client id/secret: a clear, final 400 at onboarding (ISSUE 4 item 1). */
export function invalidCredentials(detail?: string): AppError {
  return new AppError('validation', MYINVOIS_ERRORS.INVALID_CREDENTIALS, 'The tax authority rejected the client_id/client_secret.', {
    retriable: false,
    issues: [issue('client_id', MYINVOIS_ERRORS.INVALID_CREDENTIALS, 'The tax authority does not accept this client_id and client_secret.')],
    details: detail === undefined ? {} : { authorityError: detail },
  });
}

/** 429 from the authority (or the sandbox): retry after `retryAfterMs`. */
export function rateLimited(retryAfterMs: number, endpoint: string): AppError {
  return new AppError('rate_limited', MYINVOIS_ERRORS.RATE_LIMITED, `MyInvois rate limit reached for ${endpoint}; retry later.`, {
    retriable: true,
    details: { retryAfterMs, endpoint },
  });
}

/** The access token expired or was revoked: log in again, then retry. */
export function tokenRejected(): AppError {
  return new AppError('unauthenticated', MYINVOIS_ERRORS.TOKEN_REJECTED, 'MyInvois rejected the access token; log in again.', {
    retriable: true,
  });
}

/** A request the authority refused as a whole (400/403/422), with its error object. */
export function authorityRejected(
  kind: 'validation' | 'forbidden' | 'too_large' | 'conflict' | 'not_found',
  code: string,
  error: AuthorityError,
  status?: number,
): AppError {
  return new AppError(kind, code, `MyInvois: ${error.message}`, {
    retriable: false,
    details: { authorityError: error, ...(status === undefined ? {} : { status }) },
  });
}

export function unavailable(message: string, details: Record<string, unknown>, cause?: unknown, code: string = MYINVOIS_ERRORS.UNAVAILABLE): AppError {
  return new AppError('unavailable', code, message, { retriable: true, details, cause });
}

/**
 * Reject Document by anyone but the document's receiver (SDK "04 reject document": "Rejection is
 * allowed for recipient of the document only"). Final: another token of the same taxpayer cannot help.
 */
export function rejectNotReceiver(uuid: string): AppError {
  return authorityRejected('forbidden', MYINVOIS_ERRORS.REJECT_NOT_RECEIVER, { code: 'Forbidden', message: 'Rejection is allowed for recipient of the document only.', target: uuid }, 403);
}
