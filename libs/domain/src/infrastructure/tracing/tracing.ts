/**
 * OpenTelemetry traces (the official SDK) across the whole path of a document: the gateway's HTTP
 * request, the outbox relay's publish, each worker's handling, its calls to an authority or an access
 * point, and the webhook POST, as one trace. The W3C trace context travels in event metadata
 * (`traceparent`, next to the correlation id), in Kafka message headers and in webhook jobs.
 * Exported over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set (the SDK reads the OTEL_* variables);
 * otherwise nothing is recorded (the API's no-op tracer) and nothing is propagated.
 */
import { type Attributes, type Context, INVALID_SPAN_CONTEXT, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-node';

export { SpanKind, SpanStatusCode };

let provider: NodeTracerProvider | undefined;

/**
 * Starts tracing for this process, named `app` (`service.name` einvoice-<app>): spans go to `exporter`
 * (tests: an in-memory exporter, each span at once) or over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 * Returns whether spans are recorded.
 */
export function startTracing(app: string, exporter?: SpanExporter, env: NodeJS.ProcessEnv = process.env): boolean {
  if (provider) return true;
  if (!exporter && !env.OTEL_EXPORTER_OTLP_ENDPOINT) return false;
  provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': `einvoice-${app}`, 'service.namespace': 'einvoice' }),
    spanProcessors: [exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // The AsyncLocalStorage context manager and the W3C trace-context propagator.
  provider.register();
  return true;
}

/** Sends what is buffered and stops (at process shutdown). */
export async function stopTracing(): Promise<void> {
  await provider?.shutdown().catch(() => undefined);
  provider = undefined;
}

const tracer = () => trace.getTracer('einvoice');

/** Whether this process records spans (startTracing). */
export const tracingOn = (): boolean => provider !== undefined;

/**
 * What a span is when nothing is recorded: the API's own non-recording span. Handed out at once when
 * traces are off, as the API's no-op tracer would after its context lookups and propagation (~1% of
 * the gateway's CPU per request under the submission load, issue 11).
 */
const NOT_RECORDED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** The W3C `traceparent` of a span, or of the active one; undefined when nothing is traced. */
export function traceparentOf(span?: Span): string | undefined {
  if (!provider) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(span ? trace.setSpan(context.active(), span) : context.active(), carrier);
  return carrier.traceparent;
}

/** The context a `traceparent` names (from a header, event metadata or a job), or the root. */
export function contextOf(traceparent: string | undefined): Context {
  return traceparent ? propagation.extract(ROOT_CONTEXT, { traceparent }) : ROOT_CONTEXT;
}

/** Starts a span that is ended by the caller (the gateway's request span, ended when the answer is sent). */
export function startSpan(name: string, options: { readonly kind: SpanKind; readonly parent?: Context; readonly attributes?: Attributes }): Span {
  if (!provider) return NOT_RECORDED;
  return tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, options.parent ?? context.active());
}

/**
 * Runs `work` in a span, the active one meanwhile (spans and events started inside are its children):
 * a child of `parent` (a traceparent) when given, else of the active span. A throw marks it failed.
 */
export async function inSpan<T>(name: string, options: { readonly kind: SpanKind; readonly parent?: string; readonly attributes?: Attributes }, work: (span: Span) => Promise<T>): Promise<T> {
  if (!provider) return work(NOT_RECORDED);
  const parent = options.parent ? contextOf(options.parent) : context.active();
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}
