import type { Socket } from 'node:net';
import { AppError } from '@einvoice/domain';
import { toHttpError } from './error-response';

/** Node's HTTP parser errors, answered before any route: status and the one error shape's code. */
function answerOf(code: string | undefined): { statusCode: number; reason: string; error: AppError } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { statusCode: 431, reason: 'Request Header Fields Too Large', error: new AppError('validation', 'REQUEST.HEADERS_TOO_LARGE', 'The request line and headers are larger than the gateway accepts (16 KiB).') };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { statusCode: 408, reason: 'Request Timeout', error: new AppError('validation', 'REQUEST.TIMEOUT', 'The request was not received in time.') };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { statusCode: 400, reason: 'Bad Request', error: new AppError('validation', 'REQUEST.INVALID_CONTENT_LENGTH', 'Content-Length is invalid, or sent with chunked transfer encoding.') };
    default:
      return { statusCode: 400, reason: 'Bad Request', error: new AppError('validation', 'REQUEST.MALFORMED_HTTP', `The request is not valid HTTP/1.1 (${code ?? 'parse error'}): a control character in a header, a space in the path...`) };
  }
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (control bytes in headers, raw
 * spaces in the path, a bad Content-Length, headers over the limit) is answered in the one error
 * shape instead of Fastify's own `{"error","message":"Client Error"}`, then the connection closes.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const { statusCode, reason, error: appError } = answerOf(error.code);
  const body = JSON.stringify(toHttpError(appError).body);
  socket.end(
    `HTTP/1.1 ${statusCode} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
