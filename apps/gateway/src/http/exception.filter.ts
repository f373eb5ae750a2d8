import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Injectable } from '@nestjs/common';
import { AppError, createLogger, isAppError } from '@einvoice/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OAUTH_TOKEN_PATH, OAuthError } from '../auth/oauth-request';
import { IdempotentAnswers, type IdempotentRequest, ReplayedResponse } from '../idempotency/idempotency.guard';
import { fromFastifyError, toHttpError } from './error-response';
import { REQUEST_ID_HEADER, correlationIdOf } from './request-id';

const log = createLogger('gateway');

/** Fastify error codes standing for the statuses Nest reports without one. */
const httpStatusCodes: Record<number, string> = {
  413: 'FST_ERR_CTP_BODY_TOO_LARGE',
  415: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
};

type ErrorReply = { statusCode: number; body: unknown; headers?: Record<string, string> };

/**
 * Maps whatever a route threw to the one error shape, with the request's id (`request_id`); anything
 * unexpected is logged (with `where`: the request's correlation id, tenant) and a 500.
 */
export function errorToReply(error: unknown, requestId: string, where: Record<string, unknown> = {}): ErrorReply {
  if (error instanceof ReplayedResponse) {
    // The first answer as it was, but an error names this request (its header's id), not the first one.
    const body = isErrorBody(error.body) ? { ...error.body, request_id: requestId } : error.body;
    return { statusCode: error.statusCode, body, headers: { 'idempotent-replayed': 'true' } };
  }
  const http = (appError: AppError) => toHttpError(appError, requestId);
  if (isAppError(error)) {
    const retryAfterMs = Number(error.details.retryAfterMs);
    // RFC 9110 §10.2.3: whole seconds, rounded up so that a client retrying on time is let in.
    const headers = error.kind === 'rate_limited' && retryAfterMs > 0 ? { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) } : undefined;
    return { ...http(error), headers };
  }
  if (error instanceof HttpException) {
    // Nest wraps some of Fastify's errors (body too large...) in HttpException: map by status.
    const status = error.getStatus();
    const fastifyCode = ((error.cause ?? {}) as { code?: string }).code;
    return http(fromFastifyError({ code: fastifyCode ?? httpStatusCodes[status], statusCode: status, message: error.message }));
  }
  // The tenant was deleted while its request was in flight (its key's revocation is announced at once, tenant-keys.ts).
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  if (driverError?.code === '23503' && driverError.constraint?.endsWith('tenant_id_fkey')) {
    return http(new AppError('unauthenticated', 'AUTH.INVALID_KEY', 'The API key is not valid (its tenant was deleted).'));
  }
  const fastify = error as { code?: string; statusCode?: number; message?: string };
  if (typeof fastify?.code === 'string' && fastify.code.startsWith('FST_')) {
    return http(fromFastifyError({ code: fastify.code, statusCode: fastify.statusCode, message: fastify.message ?? '' }));
  }
  if (clientWentAway(error)) {
    // Nobody reads this answer: the client closed the connection mid-request. Not our error.
    log('info', 'client closed the connection before its request was read', { ...where, error: String((error as Error).message) });
    return http(new AppError('validation', 'REQUEST.ABORTED', 'The client closed the connection before the request was read.'));
  }
  log('error', 'unhandled error', { ...where, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return http(new AppError('internal', 'INTERNAL', 'An unexpected error occurred; it has been logged.'));
}

function isErrorBody(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && Array.isArray((body as { errors?: unknown }).errors);
}

/** A request stream that ended early: the client aborted (Node's 'aborted', a reset connection). */
function clientWentAway(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === 'ECONNRESET' || e?.code === 'ECONNABORTED' || e?.code === 'ERR_STREAM_PREMATURE_CLOSE' || e?.message === 'aborted';
}

/**
 * The OAuth token endpoint answers RFC 6749 §5.2's shape (`{error, error_description}`), whatever
 * refused the request: its own checks, or the body parsers (malformed JSON, another media type).
 */
export function oauthErrorToReply(error: unknown, requestId: string, where: Record<string, unknown> = {}): ErrorReply {
  // RFC 6749 §5.2 lets a response carry more members: `request_id` as in every other error body.
  if (error instanceof OAuthError) {
    const headers = error.basic && error.statusCode === 401 ? { 'www-authenticate': 'Basic realm="einvoice"' } : undefined;
    return { statusCode: error.statusCode, body: { ...error.body, request_id: requestId }, headers };
  }
  const reply = errorToReply(error, requestId, where);
  if (reply.statusCode >= 500) return reply;
  const message = (reply.body as { message?: string }).message ?? 'The request is invalid.';
  return { statusCode: reply.statusCode === 413 ? 413 : 400, body: { error: 'invalid_request', error_description: message, request_id: requestId } };
}

@Catch()
@Injectable()
export class AllErrorsFilter implements ExceptionFilter {
  constructor(private readonly idempotentAnswers: IdempotentAnswers) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const request = host.switchToHttp().getRequest<IdempotentRequest>();
    if (request.idempotency && error instanceof AppError && error.code === 'IDEMPOTENCY.IN_PROGRESS') {
      // Two requests with one key raced; the loser answers as the winner did (once it has answered).
      void this.idempotentAnswers
        .replayOf(request.idempotency, request)
        .then((winner) => this.send(winner ?? error, request, reply), (lookupError: unknown) => this.send(lookupError, request, reply));
      return;
    }
    this.send(error, request, reply);
  }

  private send(error: unknown, request: FastifyRequest & { tenant?: { id: string } }, reply: FastifyReply): void {
    const path = (request.url ?? '').split('?')[0];
    const requestId = correlationIdOf(request);
    const where = { correlationId: requestId, tenantId: request.tenant?.id, path, method: request.method };
    const { statusCode, body, headers } = path === OAUTH_TOKEN_PATH ? oauthErrorToReply(error, requestId, where) : errorToReply(error, requestId, where);
    void reply.status(statusCode).headers({ ...headers, [REQUEST_ID_HEADER]: requestId, 'content-type': 'application/json; charset=utf-8' }).send(body);
  }
}
