import { ArgumentsHost, Catch, ExceptionFilter, HttpException } from '@nestjs/common';
import { AppError, createLogger, isAppError } from '@einvoice/domain';
import type { FastifyReply } from 'fastify';
import { ReplayedResponse } from '../idempotency/idempotency.interceptor';
import { fromFastifyError, toHttpError } from './error-response';

const log = createLogger('gateway');

/** Maps whatever a route threw to the one error shape; anything unexpected is logged and a 500. */
export function errorToReply(error: unknown): { statusCode: number; body: unknown; headers?: Record<string, string> } {
  if (error instanceof ReplayedResponse) {
    return { statusCode: error.statusCode, body: error.body, headers: { 'idempotent-replayed': 'true' } };
  }
  if (isAppError(error)) return toHttpError(error);
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const kind = status === 404 ? 'not_found' : status === 401 ? 'unauthenticated' : status === 413 ? 'too_large' : 'validation';
    const code = status === 404 ? 'ROUTE.NOT_FOUND' : 'REQUEST.INVALID';
    return toHttpError(new AppError(status >= 500 ? 'internal' : kind, code, status === 404 ? 'No such route.' : error.message));
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
