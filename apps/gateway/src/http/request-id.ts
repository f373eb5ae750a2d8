/**
 * The request id (docs/account-api.md "Request ids"): the client's `x-request-id` when it is well
 * formed, else a new UUID; one per request. Every answer carries it in the same header, every error
 * body as `request_id`, every log line of the request as `correlationId` (the id its events carry),
 * and the request's span as an attribute.
 */
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** 1–200 characters a log line, a header and a URL can carry unescaped. */
const WELL_FORMED = /^[A-Za-z0-9._:-]{1,200}$/;

/**
 * The id of a request that sent `sent` as its `x-request-id`. A malformed one (too long, a space, a
 * repeated header Node joined with `, `) is replaced, not refused: an id is never a reason to fail.
 */
export function requestIdFrom(sent: string | string[] | undefined, generate: () => string = randomUUID): string {
  return typeof sent === 'string' && WELL_FORMED.test(sent) ? sent : generate();
}

const ids = new WeakMap<object, string>();

/** The request's id, decided once per request (keyed by Node's request, which Fastify's wraps). */
export function correlationIdOf(request: { readonly raw: object; readonly headers: Record<string, string | string[] | undefined> }): string {
  let id = ids.get(request.raw);
  if (!id) {
    id = requestIdFrom(request.headers[REQUEST_ID_HEADER]);
    ids.set(request.raw, id);
  }
  return id;
}
