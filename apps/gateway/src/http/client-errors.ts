import type { Socket } from 'node:net';
import { AppError } from '@einvoice/domain';
import { toHttpError } from './error-response';
import { requestIdFrom } from './request-id';

/** An answer written straight onto a socket: the HTTP status, its reason phrase and the one error shape's error. */
interface SocketAnswer {
  readonly statusCode: number;
  readonly reason: string;
  readonly error: AppError;
}

/** Node's HTTP parser errors and its request timeout, answered before any route. */
function answerOf(code: string | undefined, requestTimeoutMs: number): SocketAnswer {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { statusCode: 431, reason: 'Request Header Fields Too Large', error: new AppError('validation', 'REQUEST.HEADERS_TOO_LARGE', 'The request line and headers are larger than the gateway accepts (16 KiB).') };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        statusCode: 408,
        reason: 'Request Timeout',
        error: new AppError('validation', 'REQUEST.TIMEOUT', `The request did not arrive whole within ${requestTimeoutMs} ms (HTTP_REQUEST_TIMEOUT_MS): send its headers and its whole body (a chunked body ends with a zero-length chunk) within that time.`),
      };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { statusCode: 400, reason: 'Bad Request', error: new AppError('validation', 'REQUEST.INVALID_CONTENT_LENGTH', 'Content-Length is invalid, or sent with chunked transfer encoding.') };
    default:
      return { statusCode: 400, reason: 'Bad Request', error: new AppError('validation', 'REQUEST.MALFORMED_HTTP', `The request is not valid HTTP/1.1 (${code ?? 'parse error'}): a control character in a header, a space in the path...`) };
  }
}

/**
 * The HTTP message of an answer: the one error shape, its `status` named after the HTTP status
 * (`request_timeout`), with a new request id (what the parser refused has no header to trust).
 */
function messageOf({ statusCode, reason, error }: SocketAnswer): string {
  const requestId = requestIdFrom(undefined);
  const { body } = toHttpError(error, requestId);
  const text = JSON.stringify({ ...body, status: reason.toLowerCase().replace(/ /g, '_') });
  const headers = `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}`;
  return `HTTP/1.1 ${statusCode} ${reason}\r\n${headers}\r\nConnection: close\r\n\r\n${text}`;
}

/**
 * Fastify's `clientErrorHandler` (Node's 'clientError'): what Node's HTTP parser refuses (control bytes
 * in headers, raw spaces in the path, a bad Content-Length, headers over the limit) and requests that
 * did not arrive whole within `requestTimeoutMs` (Node's `server.requestTimeout`, http/request-timeout.ts)
 * are answered in the one error shape instead of Fastify's own `{"error","message":"Client Error"}`,
 * then the connection closes.
 */
export function clientErrorHandler(requestTimeoutMs: number): (error: Error & { code?: string }, socket: Socket) => void {
  return (error, socket) => {
    if (!socket.writable) return void socket.destroy();
    const timedOut = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    // A timed-out request may have a route waiting for the rest of its body: the socket is destroyed
    // once the answer is flushed, which ends that wait (its body stream errors). The client sent all it
    // had long ago, so nothing unread turns the close into a reset that would lose the answer.
    socket.end(messageOf(answerOf(error.code, requestTimeoutMs)), timedOut ? () => socket.destroy() : undefined);
  };
}

/**
 * The HTTP server's 'connect' listener: `CONNECT host:port` (an authority-form target) asks for a tunnel,
 * and this gateway is no proxy. Node would close the connection without a word; a 400 in the one error shape.
 */
export function refuseTunnel(_request: unknown, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const error = new AppError('validation', 'REQUEST.BAD_URL', 'CONNECT asks for a tunnel, and this gateway is not a proxy: send requests to its paths.');
  socket.end(messageOf({ statusCode: 400, reason: 'Bad Request', error }), () => socket.destroy());
}
