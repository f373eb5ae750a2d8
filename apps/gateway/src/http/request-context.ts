import { randomUUID } from 'node:crypto';
import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { EventMetadata } from '@einvoice/domain';
import type { Tenant } from '../auth/api-keys';
import type { IdempotencyContext } from '../idempotency/idempotency';
import type { IdempotentRequest } from '../idempotency/idempotency.guard';
import { requestTraceparent } from './request-span';

/** Who is asking, and how to make the answer replayable: what every area's service receives. */
export interface RequestContext {
  readonly tenant: Tenant;
  readonly correlationId: string;
  readonly idempotency?: IdempotencyContext;
  /** The request's span (W3C traceparent) when traces are on (http/request-span.ts). */
  readonly traceparent?: string;
}

const correlationIds = new WeakMap<object, string>();

/** The request's correlation id, one per request: `x-request-id` when sent (up to 200 characters), else a new UUID. */
export function correlationIdOf(request: { readonly raw: object; readonly headers: Record<string, string | string[] | undefined> }): string {
  let id = correlationIds.get(request.raw);
  if (!id) {
    const requestId = request.headers['x-request-id'];
    id = typeof requestId === 'string' && requestId.length > 0 && requestId.length <= 200 ? requestId : randomUUID();
    correlationIds.set(request.raw, id);
  }
  return id;
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
