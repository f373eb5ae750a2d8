import { randomUUID } from 'node:crypto';
import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { RequestContext } from '../areas/peppol/peppol-area.service';
import type { IdempotentRequest } from '../idempotency/idempotency.interceptor';

/** The caller's tenant, a correlation id (`x-request-id` when sent) and the idempotency context. */
export const Ctx = createParamDecorator((_: unknown, context: ExecutionContext): RequestContext => {
  const request = context.switchToHttp().getRequest<IdempotentRequest>();
  const requestId = request.headers['x-request-id'];
  return {
    tenant: request.tenant,
    correlationId: typeof requestId === 'string' && requestId.length <= 200 ? requestId : randomUUID(),
    idempotency: request.idempotency,
  };
});
