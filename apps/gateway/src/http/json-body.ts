import { AppError } from '@einvoice/domain';
import { ImpreciseNumber } from '@einvoice/areas';
import type { FastifyInstance } from 'fastify';
import { isSafeNumber, parse } from 'lossless-json';
import { checkJsonDepth, checkJsonValue } from './json-guards';

export { ImpreciseNumber };

/**
 * Parses JSON bodies so that amounts stay exact: every number whose digits a double holds
 * exactly becomes a number (so `String(n)` gives back the digits sent, and decimal.js works on
 * those), and any other number is kept as ImpreciseNumber, which fails validation instead of
 * being silently rounded. Duplicate keys and malformed JSON are a 400, and so is what no request
 * may carry (json-guards.ts: nesting past MAX_JSON_DEPTH, prototype keys, NUL, lone surrogates).
 */
export function parseExactJson(text: string): unknown {
  const facts = checkJsonDepth(text);
  // Issue 11: lossless-json parses in JavaScript (~100 µs a BE invoice, 3% of the gateway's CPU); a body whose
  // numbers a double holds as written and whose keys come once each is what JSON.parse makes of it.
  const value = facts.plainNumbers ? parsedIfPlain(text, facts.members) : undefined;
  if (value !== undefined) {
    checkJsonValue(value);
    return value;
  }
  return parseLossless(text);
}

/** JSON.parse's value when it has every member the text has (none was a duplicate); undefined if not, or not JSON. */
function parsedIfPlain(text: string, members: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // lossless-json says what is wrong
  }
  return membersOf(value) === members ? value : undefined;
}

function membersOf(value: unknown): number {
  if (Array.isArray(value)) {
    let n = 0;
    for (const item of value) n += membersOf(item);
    return n;
  }
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  for (const key in value) n += 1 + membersOf((value as Record<string, unknown>)[key]);
  return n;
}

function parseLossless(text: string): unknown {
  let value: unknown;
  try {
    value = parse(text, undefined, (value: string) => (isSafeNumber(value) ? Number(value) : new ImpreciseNumber(value)));
  } catch (error) {
    throw new AppError('validation', 'REQUEST.MALFORMED_JSON', `The body is not valid JSON: ${(error as Error).message}`, {
      issues: [{ path: '', code: 'REQUEST.MALFORMED_JSON', message: `The body is not valid JSON: ${(error as Error).message}`, severity: 'error' }],
    });
  }
  checkJsonValue(value);
  return value;
}

/**
 * @param bodyLimit the largest body any route accepts
 * @param limitOf the largest body the request's path accepts (a chunked body has no Content-Length
 *   for the onRequest check, so its length is checked here)
 */
export function registerExactJsonParser(fastify: FastifyInstance, bodyLimit: number, limitOf: (url: string) => number = () => bodyLimit): void {
  // JSON only: any other media type (text/plain included) is a 415.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (typeof body === 'string' && Buffer.byteLength(body) > limitOf(request.url)) {
      done(new AppError('too_large', 'REQUEST.TOO_LARGE', 'The request body is larger than the gateway accepts.'), undefined);
      return;
    }
    if (typeof body !== 'string' || body.trim() === '') {
      done(new AppError('validation', 'REQUEST.EMPTY_BODY', 'The request body is empty; send a JSON object.'), undefined);
      return;
    }
    try {
      done(null, parseExactJson(body));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
