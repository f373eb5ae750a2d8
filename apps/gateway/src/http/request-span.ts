/**
 * The gateway's span per HTTP request (the root of a document's trace, or a child of the caller's
 * `traceparent`), started when the request arrives and ended with its answer; the events the request
 * appends carry it (eventMetadata). Nothing is recorded when traces are off.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SpanKind, contextOf, startSpan, traceparentOf, tracingOn } from '@einvoice/domain/infrastructure';
import type { Span } from '@opentelemetry/api';
import { correlationIdOf } from './request-id';

const spans = new WeakMap<IncomingMessage, Span>();

export function startRequestSpan(request: FastifyRequest): void {
  // Traces off: no span, not even a non-recording one (its attributes and context were ~1% of a request).
  if (!tracingOn()) return;
  const traceparent = request.headers.traceparent;
  const span = startSpan(`${request.method} ${request.routeOptions?.url ?? 'unmatched'}`, {
    kind: SpanKind.SERVER,
    parent: contextOf(typeof traceparent === 'string' ? traceparent : undefined),
    attributes: { 'http.request.method': request.method, 'http.route': request.routeOptions?.url ?? 'unmatched', 'url.path': request.url.split('?')[0] },
  });
  spans.set(request.raw, span);
}

export function endRequestSpan(request: FastifyRequest, reply: FastifyReply): void {
  const span = spans.get(request.raw);
  if (!span) return;
  span.setAttribute('http.response.status_code', reply.statusCode);
  // The id the answer's x-request-id, the error body and the log lines carry (http/request-id.ts).
  span.setAttribute('einvoice.correlation_id', correlationIdOf(request));
  span.end();
  spans.delete(request.raw);
}

/** The request's trace id (for its log lines), when traces are on. */
export function requestTraceId(raw: IncomingMessage): string | undefined {
  const span = spans.get(raw);
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

/** The request's traceparent (for its events' metadata), when traces are on. */
export function requestTraceparent(raw: IncomingMessage): string | undefined {
  const span = spans.get(raw);
  return span && traceparentOf(span);
}
