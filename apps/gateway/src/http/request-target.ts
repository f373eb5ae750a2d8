import { AppError } from '@einvoice/domain';

/** The longest path parameter the router matches (SMP document type ids run to ~150 characters; find-my-way's default is 100). */
export const MAX_PARAM_LENGTH = 500;

/** `http://host` or `https://host:port` at the start of an absolute-form request target. */
const ABSOLUTE_FORM_AUTHORITY = /^https?:\/\/[^/?#]*/i;

/**
 * Fastify's `rewriteUrl`: an absolute-form request target (`GET http://host/path?q`), which RFC 9112
 * §3.2.2 obliges a server to accept, becomes the origin-form the routes and every check after routing
 * read (`/path?q`). Anything else is left as sent: an origin-form target at the cost of one comparison,
 * other forms for `requestTargetError` to refuse.
 */
export function originFormOf(url: string): string {
  if (url.charCodeAt(0) === 47 /* '/' */) return url;
  const authority = ABSOLUTE_FORM_AUTHORITY.exec(url);
  if (!authority) return url;
  const rest = url.slice(authority[0].length);
  return rest.charCodeAt(0) === 47 ? rest : `/${rest}`;
}

/**
 * Why a request target (after `originFormOf`) names no resource of this gateway, or nothing when it
 * is a path. The router itself takes `#` as the end of the path and anything else as an unknown
 * route, so this runs first, before any route sees the URL (RFC 9112 §3.2: a request target is a path
 * and a query, never a fragment; the asterisk-form is for `OPTIONS *` to a proxy).
 */
export function requestTargetError(url: string): AppError | undefined {
  if (url.charCodeAt(0) !== 47) {
    return new AppError('validation', 'REQUEST.BAD_URL', 'The request target must be a path starting with "/" (or an http(s):// URL).');
  }
  if (url.includes('#')) {
    return new AppError('validation', 'REQUEST.BAD_URL', 'The request target holds a fragment (#...): send the path and query only, or encode "#" as %23.');
  }
  return undefined;
}

