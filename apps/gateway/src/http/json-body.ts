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
  checkJsonDepth(text);
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
