import { AppError, ErrorKind, FieldIssue } from '@einvoice/domain';
import { MAX_PARAM_LENGTH } from './request-target';

/** The one error body (DESIGN.md, the UAE shape): `{status, message, errors:[{path, code, message, severity}], request_id}`. */
export interface ErrorBody {
  readonly status: string;
  readonly message: string;
  readonly errors: readonly FieldIssue[];
  /** What the error names besides the fields (an AppError's `details.data`): SUPPLIER.EXISTS, the supplier (`{supplier_id}`); WEBHOOK.DUPLICATE, the endpoint (`{webhook_id}`). */
  readonly data?: Readonly<Record<string, unknown>>;
  /** The request's id, as its `x-request-id` answer header (http/request-id.ts): what to quote to support. */
  readonly request_id: string;
}

const statusOf: Record<ErrorKind, [number, string]> = {
  validation: [400, 'bad_request'],
  unauthenticated: [401, 'unauthorized'],
  forbidden: [403, 'forbidden'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  too_large: [413, 'payload_too_large'],
  unsupported_media_type: [415, 'unsupported_media_type'],
  rate_limited: [429, 'too_many_requests'],
  unavailable: [503, 'service_unavailable'],
  internal: [500, 'internal_error'],
};

/** The only place that maps error kinds to HTTP statuses (STYLE.md §3). */
export function toHttpError(error: AppError, requestId: string): { statusCode: number; body: ErrorBody } {
  const [statusCode, status] = statusOf[error.kind];
  const errors = error.issues.length > 0 ? error.issues : [{ path: '', code: error.code, message: error.message, severity: 'error' as const }];
  const data = error.details.data;
  const named = typeof data === 'object' && data !== null && !Array.isArray(data) ? { data: data as Record<string, unknown> } : {};
  return { statusCode, body: { status, message: error.message, errors, ...named, request_id: requestId } };
}

/** Fastify's own errors (raised before a route runs) in the domain's terms. */
export function fromFastifyError(error: { code?: string; statusCode?: number; message: string }): AppError {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('too_large', 'REQUEST.TOO_LARGE', 'The request body is larger than the gateway accepts.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'REQUEST.UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('validation', 'REQUEST.EMPTY_BODY', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_BAD_URL':
      return new AppError('validation', 'REQUEST.BAD_URL', 'The URL is not valid percent-encoding (e.g. %ff, %00).');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // Fastify's message repeats the whole path back.
      return new AppError('validation', 'REQUEST.URL_TOO_LONG', `A path segment is longer than the gateway accepts (${MAX_PARAM_LENGTH} characters).`);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('validation', 'REQUEST.INVALID_CONTENT_LENGTH', 'Content-Length does not match the body.');
    default:
      if (error.statusCode === 404) return new AppError('not_found', 'ROUTE.NOT_FOUND', 'No such route.');
      if (error.statusCode === 401) return new AppError('unauthenticated', 'AUTH.INVALID_KEY', error.message);
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return new AppError('validation', 'REQUEST.INVALID', error.message);
      }
      return new AppError('internal', 'INTERNAL', 'An unexpected error occurred; it has been logged.');
  }
}
