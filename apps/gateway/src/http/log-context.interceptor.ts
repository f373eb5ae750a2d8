import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { withLogContext } from '@einvoice/domain';
import { Observable } from 'rxjs';
import type { IdempotentRequest } from '../idempotency/idempotency.interceptor';
import { correlationIdOf } from './request-context';
import { requestTraceId } from './request-span';

/**
 * Every log line a request's handling writes says which request (the correlation id, the one its
 * events carry), whose (tenant) and which trace: the handler runs inside that log context.
 */
@Injectable()
export class LogContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const fields = { correlationId: correlationIdOf(request), tenantId: request.tenant?.id, traceId: requestTraceId(request.raw) };
    return new Observable((subscriber) => withLogContext(fields, () => next.handle().subscribe(subscriber)));
  }
}
