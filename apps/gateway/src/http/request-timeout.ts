import type { ServerOptions } from 'node:http';

/** The default of `HTTP_REQUEST_TIMEOUT_MS`: a 30 MiB UAE body (the largest accepted) arrives within it at 1 MiB/s. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The Fastify options that answer a request not received whole within `limitMs` (headers and body:
 * a chunked body never finished, a Content-Length larger than what was sent) with a 408, instead of
 * holding the connection for ever (Fastify's `requestTimeout` defaults to 0, no limit). Node keeps the
 * deadline: one interval timer per server walks the connections whose request is still arriving, and
 * raises ERR_HTTP_REQUEST_TIMEOUT through 'clientError' (http/client-errors.ts answers it in the one
 * error shape). No timer per request; a request received whole is never timed out, however long its
 * handler takes, nor is an idle keep-alive connection between requests. 0: no limit (a proxy in front
 * enforces its own).
 */
export function requestTimeoutOptions(limitMs: number): { requestTimeout: number; http?: ServerOptions } {
  if (!Number.isInteger(limitMs) || limitMs < 0) {
    throw new Error(`HTTP_REQUEST_TIMEOUT_MS must be a whole number of milliseconds (0: no limit), not "${limitMs}".`);
  }
  if (limitMs === 0) return { requestTimeout: 0 };
  return {
    // Fastify sets `server.requestTimeout` from its own option, after creating the server.
    requestTimeout: limitMs,
    http: {
      requestTimeout: limitMs,
      // Node's default (60 s) would give a request whose headers never end longer than one whose body never does.
      headersTimeout: limitMs,
      // How often Node looks for requests past their deadline (its default, 30 s, would let a 10 s limit run to 40):
      // the 408 comes at most this late.
      connectionsCheckingInterval: Math.min(1000, limitMs),
    },
  };
}
