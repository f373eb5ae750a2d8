import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { AppError } from '@einvoice/domain';
import { Observable, catchError, from, switchMap, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/api-key.guard';
import { Connections } from '../infrastructure/infrastructure.module';
import { IdempotencyContext, readIdempotencyKey, requestHash, sameRequest } from './idempotency';

/** The stored first answer to a repeated request. */
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

/**
 * `Idempotency-Key` on every POST (Stripe's semantics): the same key with the same request
 * replays the first answer and creates nothing; the same key with another request is a 409.
 * The answer itself is written by the command, in the transaction of its effects.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly connections: Connections) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    if (request.method !== 'POST' || !request.tenant) return next.handle();
    const key = readIdempotencyKey(request);
    if (!key) return next.handle();
    const idempotency: IdempotencyContext = { tenantId: request.tenant.id, key, requestHash: requestHash(request) };
    return from(this.find(idempotency)).pipe(
      switchMap((stored) => {
        if (stored) return throwError(() => this.replay(stored, idempotency, request));
        request.idempotency = idempotency;
        return next.handle().pipe(
          catchError((error) =>
            // Two requests with one key raced; the loser answers as the winner did.
            error instanceof AppError && error.code === 'IDEMPOTENCY.IN_PROGRESS'
              ? from(this.find(idempotency)).pipe(
                  switchMap((winner) => throwError(() => (winner ? this.replay(winner, idempotency, request) : error))),
                )
              : throwError(() => error),
          ),
        );
      }),
    );
  }

  private async find(context: IdempotencyContext): Promise<StoredResponse | undefined> {
    const rows: StoredResponse[] = await this.connections.dataSource.query(
      `SELECT request_hash, status_code, response FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
      [context.tenantId, context.key],
    );
    return rows[0];
  }

  /** Thrown, not returned: the exception filter sends it with its own status code. */
  private replay(stored: StoredResponse, context: IdempotencyContext, request: IdempotentRequest): Error {
    if (!sameRequest(stored.request_hash, request, context.requestHash)) {
      return new AppError('conflict', 'IDEMPOTENCY.KEY_REUSED', 'This Idempotency-Key was already used with a different request.');
    }
    return new ReplayedResponse(stored.status_code, stored.response);
  }
}
