/**
 * The one error model (STYLE.md §3). Code that workers also run throws these, never HTTP
 * exceptions: the gateway maps `kind` to an HTTP status, workers map `retriable` to retry or
 * dead-letter.
 */

/** What went wrong, in the terms the gateway maps to a status (400, 401, 403, 404, 409, 413, 415, 429). */
export type ErrorKind =
  | 'validation'
  | 'unauthenticated'
  /** Authenticated, but not the party allowed to do this (e.g. only a document's receiver may reject it). */
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'unavailable'
  | 'internal';

/** One problem with the input, located by a field path such as `InvoiceLines[2].Description`. */
export interface FieldIssue {
  /** Dotted/indexed path of the field, or the area of the document (`Document`) for whole-document rules. */
  readonly path: string;
  /** Stable machine code, e.g. `FIELD.REQUIRED`, `FIELD.TOO_LONG`, `DOCUMENT.TOTAL_MISMATCH`, `BR-CO-10`. */
  readonly code: string;
  /** A sentence for a person. */
  readonly message: string;
  /** Peppol's levels; only `error` rejects a request. */
  readonly severity: 'error' | 'warning';
}

export interface AppErrorOptions {
  readonly issues?: readonly FieldIssue[];
  readonly retriable?: boolean;
  readonly details?: Record<string, unknown>;
  readonly cause?: unknown;
}

/** Base of every error the service raises on purpose. */
export class AppError extends Error {
  readonly issues: readonly FieldIssue[];
  readonly retriable: boolean;
  readonly details: Record<string, unknown>;

  constructor(
    readonly kind: ErrorKind,
    /** Stable code such as `DOCUMENT.DUPLICATE_ID`; clients switch on it. */
    readonly code: string,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.issues = options.issues ?? [];
    this.retriable = options.retriable ?? (kind === 'unavailable' || kind === 'rate_limited');
    this.details = options.details ?? {};
  }
}

/** A request whose fields break the schema or the business rules (HTTP 400). */
export function validationError(issues: readonly FieldIssue[], message = 'The request is invalid.'): AppError {
  return new AppError('validation', 'REQUEST.INVALID', message, { issues });
}

/** A field issue with severity `error`, the common case. */
export function issue(path: string, code: string, message: string): FieldIssue {
  return { path, code, message, severity: 'error' };
}

/**
 * Raised by the event store when a stream moved on since it was read (EventStore client style:
 * structured fields so callers can switch on them). Retriable: re-read, decide again, append.
 */
export class WrongExpectedVersionError extends AppError {
  constructor(
    readonly streamId: string,
    readonly expected: number,
    readonly actual: number | null,
  ) {
    super('conflict', 'STREAM.WRONG_EXPECTED_VERSION', `Stream ${streamId} changed concurrently; retry the request.`, {
      retriable: true,
      details: { streamId, expected, actual },
    });
    this.name = 'WrongExpectedVersionError';
  }
}

export function notFound(code: string, message: string): AppError {
  return new AppError('not_found', code, message);
}

export function conflict(code: string, message: string, issues: readonly FieldIssue[] = []): AppError {
  return new AppError('conflict', code, message, { issues });
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** A rate limit's refusal (an authority's 429, or a client-side limiter's): nothing was done; wait and ask again. */
export function isRateLimited(error: unknown): error is AppError {
  return error instanceof AppError && error.kind === 'rate_limited';
}

/** The wait a rate limit's refusal states (its Retry-After; 0 when it states none); undefined for any other error. */
export function retryAfterMsOf(error: unknown): number | undefined {
  return isRateLimited(error) ? Number(error.details.retryAfterMs ?? 0) : undefined;
}
