import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { AppError } from '@einvoice/domain';
import type { AuthenticatedRequest } from '../auth/api-key.guard';
import { Connections } from '../infrastructure/infrastructure.module';
import { IdempotencyContext, readIdempotencyKey, requestHash, sameRequest } from './idempotency';

/** The stored first answer to a repeated request: thrown, and sent by the exception filter with its own status code. */
export class ReplayedResponse extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
  ) {
    super('replayed idempotent response');
  }
}

export type IdempotentRequest = AuthenticatedRequest & { idempotency?: IdempotencyContext };

interface StoredResponse {
  request_hash: string;
  status_code: number;
  response: unknown;
}

/** The first answer recorded under a request's key, as the error that sends it (or the 409 of a key reused for another request). */
@Injectable()
export class IdempotentAnswers {
  constructor(private readonly connections: Connections) {}

  async replayOf(context: IdempotencyContext, request: IdempotentRequest): Promise<Error | undefined> {
    const rows: StoredResponse[] = await this.connections.dataSource.query(
      `SELECT request_hash, status_code, response FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
      [context.tenantId, context.key],
    );
    const stored = rows[0];
    if (!stored) return undefined;
    if (!sameRequest(stored.request_hash, request, context.requestHash)) {
      return new AppError('conflict', 'IDEMPOTENCY.KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
    }
    return new ReplayedResponse(stored.status_code, stored.response);
  }
}

/**
 * `Idempotency-Key` on every POST (Stripe's semantics): the same key with the same request
 * replays the first answer and creates nothing; the same key with another request is a 409.
 * The answer itself is written by the command, in the transaction of its effects; two requests
 * with one key that raced are settled by the exception filter (the loser answers as the winner did).
 * A guard after the API key's, not an interceptor: Nest wraps every handler of a route with an
 * interceptor in rxjs and AsyncResource bindings, ~50 µs a request whether it has a key or not (issue 11).
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(private readonly answers: IdempotentAnswers) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    if (request.method !== 'POST' || !request.tenant) return true;
    const key = readIdempotencyKey(request);
    if (!key) return true;
    const idempotency: IdempotencyContext = { tenantId: request.tenant.id, key, requestHash: requestHash(request) };
    const replay = await this.answers.replayOf(idempotency, request);
    if (replay) throw replay;
    request.idempotency = idempotency;
    return true;
  }
}
