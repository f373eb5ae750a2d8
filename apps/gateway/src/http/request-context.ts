import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { EventMetadata } from '@einvoice/domain';
import type { Tenant } from '../auth/api-keys';
import type { IdempotencyContext } from '../idempotency/idempotency';
import type { IdempotentRequest } from '../idempotency/idempotency.guard';
import { correlationIdOf } from './request-id';
import { requestTraceparent } from './request-span';

/** The request's id, here too: what its services log and its events carry as `correlationId`. */
export { correlationIdOf };

/** Who is asking, and how to make the answer replayable: what every area's service receives. */
export interface RequestContext {
  readonly tenant: Tenant;
  readonly correlationId: string;
  readonly idempotency?: IdempotencyContext;
  /** The request's span (W3C traceparent) when traces are on (http/request-span.ts). */
  readonly traceparent?: string;
}

/** The caller's tenant, the correlation id and the idempotency context. */
export const Ctx = createParamDecorator((_: unknown, context: ExecutionContext): RequestContext => {
  const request = context.switchToHttp().getRequest<IdempotentRequest>();
  return {
    tenant: request.tenant,
    correlationId: correlationIdOf(request),
    idempotency: request.idempotency,
    traceparent: requestTraceparent(request.raw),
  };
});

/** The metadata of the events a request appends: who, which request, which key, and the area's rule set when an area decided. */
export function eventMetadata(context: RequestContext, ruleSetId?: string): EventMetadata {
  return { tenantId: context.tenant.id, correlationId: context.correlationId, idempotencyKey: context.idempotency?.key, ruleSetId, ...(context.traceparent ? { traceparent: context.traceparent } : {}) };
}
