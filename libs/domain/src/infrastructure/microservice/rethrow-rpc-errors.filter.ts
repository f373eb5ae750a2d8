import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { type Observable, throwError } from 'rxjs';

/**
 * Hands a handler's error back to the transport as it was thrown. Nest's default RPC filter
 * replaces it with `{status: 'error', message: 'Internal server error'}`, which would lose the
 * AppError's `code` and `retriable` that decide between a retry and the dead-letter topic
 * (consumer.ts) and that the dead-letter headers carry.
 */
@Catch()
export class RethrowRpcErrors implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
