import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { AppError, createLogger, isAppError } from '@einvoice/domain';
import type { FastifyReply } from 'fastify';
import { ReplayedResponse } from '../idempotency/idempotency.interceptor';
import { fromFastifyError, toHttpError } from './error-response';

const log = createLogger('gateway');

/** Fastify error codes standing for the statuses Nest reports without one. */
const httpStatusCodes: Record<number, string> = {
  413: 'FST_ERR_CTP_BODY_TOO_LARGE',
  415: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
};

/** Maps whatever a route threw to the one error shape; anything unexpected is logged and a 500. */
export function errorToReply(error: unknown): { statusCode: number; body: unknown; headers?: Record<string, string> } {
  if (error instanceof ReplayedResponse) {
    return { statusCode: error.statusCode, body: error.body, headers: { 'idempotent-replayed': 'true' } };
  }
  if (isAppError(error)) return toHttpError(error);
  if (error instanceof HttpException) {
    // Nest wraps some of Fastify's errors (body too large...) in HttpException: map by status.
    const status = error.getStatus();
    const fastifyCode = ((error.cause ?? {}) as { code?: string }).code;
    return toHttpError(fromFastifyError({ code: fastifyCode ?? httpStatusCodes[status], statusCode: status, message: error.message }));
  }
  const fastify = error as { code?: string; statusCode?: number; message?: string };
  if (typeof fastify?.code === 'string' && fastify.code.startsWith('FST_')) {
    return toHttpError(fromFastifyError({ code: fastify.code, statusCode: fastify.statusCode, message: fastify.message ?? '' }));
  }
  log('error', 'unhandled error', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  return toHttpError(new AppError('internal', 'INTERNAL', 'An unexpected error occurred; it has been logged.'));
}

@Catch()
export class AllErrorsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const { statusCode, body, headers } = errorToReply(error);
    void reply.status(statusCode).headers({ ...headers, 'content-type': 'application/json; charset=utf-8' }).send(body);
  }
}
