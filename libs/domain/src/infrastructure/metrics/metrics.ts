/**
 * Prometheus metrics (prom-client), one registry per process with the process's `app` label. Counters
 * and histograms move where things happen (HTTP requests, event handlers, dead-lettering, authority
 * calls, webhook deliveries, event-store conflicts); gauges of shared state (documents by state, the
 * outbox, consumer lag, queue depth) are read from PostgreSQL, Kafka and Redis when the gateway is
 * scraped (apps/gateway/src/health/metrics.controller.ts). Names and labels: README "Operating it".
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { type AuthorityRequestRecorder, recordAuthorityRequestsWith } from '../../authority-requests';
import { SpanKind, SpanStatusCode, inSpan } from '../tracing';

export const metricsRegistry = new Registry();

const registers = [metricsRegistry];
/** Seconds, from a millisecond to two minutes (authority calls and webhook receivers can be slow). */
const buckets = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const metrics = {
  httpRequests: new Counter({ name: 'einvoice_http_requests_total', help: 'HTTP requests answered, by method, route and status.', labelNames: ['method', 'route', 'status'], registers }),
  httpDuration: new Histogram({ name: 'einvoice_http_request_duration_seconds', help: 'HTTP request latency, by method, route and status.', labelNames: ['method', 'route', 'status'], buckets, registers }),
  handlerDuration: new Histogram({ name: 'einvoice_event_handler_duration_seconds', help: 'Event handler latency by consumer group, event type and outcome (ok, retried, failed).', labelNames: ['group', 'event_type', 'outcome'], buckets, registers }),
  eventWait: new Histogram({ name: 'einvoice_event_wait_seconds', help: 'Time from an event\'s publish (its Kafka message timestamp) to its handler starting, by consumer group and event type: fetch, queueing behind the messages fetched with it, and decoding.', labelNames: ['group', 'event_type'], buckets, registers }),
  handlerFailures: new Counter({ name: 'einvoice_event_handler_failures_total', help: 'Event handler tries that threw, by consumer group and event type.', labelNames: ['group', 'event_type'], registers }),
  deadLettered: new Counter({ name: 'einvoice_dead_lettered_total', help: 'Messages sent to the dead-letter topic, by consumer group and event type.', labelNames: ['group', 'event_type'], registers }),
  authorityCalls: new Counter({ name: 'einvoice_authority_calls_total', help: 'Calls to tax authorities by area, operation and outcome (ok, refused, unavailable, rate_limited, error).', labelNames: ['area', 'operation', 'outcome'], registers }),
  authorityDuration: new Histogram({ name: 'einvoice_authority_call_duration_seconds', help: 'Tax authority call latency by area, operation and outcome.', labelNames: ['area', 'operation', 'outcome'], buckets, registers }),
  authorityRequests: new Counter({ name: 'einvoice_authority_http_requests_total', help: 'HTTP requests of the live authority clients (the round trips of an authority call), by area, request (method and operation) and outcome (ok, refused, unavailable, rate_limited).', labelNames: ['area', 'request', 'outcome'], registers }),
  authorityRequestDuration: new Histogram({ name: 'einvoice_authority_http_request_duration_seconds', help: 'Latency of the live authority clients\' HTTP requests, by area, request and outcome.', labelNames: ['area', 'request', 'outcome'], buckets, registers }),
  webhookDeliveries: new Counter({ name: 'einvoice_webhook_deliveries_total', help: 'Webhook POSTs by outcome (delivered, failed, given_up) and attempt number.', labelNames: ['outcome', 'attempt'], registers }),
  appendConflicts: new Counter({ name: 'einvoice_event_append_conflicts_total', help: 'Event-store appends refused because the stream moved on (optimistic concurrency).', registers }),
  documents: new Gauge({ name: 'einvoice_documents', help: 'Documents by area and state (read model), read at scrape.', labelNames: ['area', 'state'], registers }),
  reportsAwaitingResend: new Gauge({ name: 'einvoice_authority_reports_awaiting_resend', help: 'Reports an authority turned away (429) waiting to be sent again after its Retry-After, by area; read at scrape.', labelNames: ['area'], registers }),
  outboxBacklog: new Gauge({ name: 'einvoice_outbox_backlog', help: 'Outbox rows not yet published to Kafka, read at scrape.', registers }),
  outboxOldestAge: new Gauge({ name: 'einvoice_outbox_oldest_pending_age_seconds', help: 'Age of the oldest outbox row not yet published (0 when none), read at scrape.', registers }),
  kafkajsPatchActive: new Gauge({ name: 'einvoice_kafkajs_patch_active', help: 'Each kafkajs patch (libs/domain/src/infrastructure/kafka/patches/README.md): 1 in force, 0 not (another kafkajs version runs its own code, or KAFKAJS_PATCHES switched it off).', labelNames: ['patch'], registers }),
  outboxRelayLeading: new Gauge({ name: 'einvoice_outbox_relay_leading', help: 'Whether this process\'s outbox relay publishes the stack\'s outbox (1: it holds the lead; one app of a stack at a time, a gateway\'s first) or not (0).', registers }),
  outboxParked: new Gauge({ name: 'einvoice_outbox_parked_rows', help: 'Outbox rows the broker refused, parked until an operator releases them (`outbox parked`, `outbox release`), read at scrape.', registers }),
  consumerLag: new Gauge({ name: 'einvoice_kafka_consumer_lag', help: 'Messages not yet committed by a consumer group, per topic and partition, read at scrape.', labelNames: ['group', 'topic', 'partition'], registers }),
  webhooksDisabled: new Gauge({ name: 'einvoice_webhook_subscriptions_disabled', help: 'Webhook subscriptions disabled after a delivery failed for its whole retry window (a 2xx ping enables one again), read at scrape.', registers }),
  queueJobs: new Gauge({ name: 'einvoice_bullmq_queue_jobs', help: 'BullMQ jobs by queue and state (waiting, delayed, active, failed), read at scrape.', labelNames: ['queue', 'state'], registers }),
};

let started = false;

/** Names this process `app` in every metric and adds Node's own (CPU, memory, event loop lag). Once per process. */
export function startMetrics(app: string): void {
  if (started) return;
  started = true;
  metricsRegistry.setDefaultLabels({ app });
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'einvoice_' });
}

/** Every metric name this service exports (the dashboard may only use these). */
export async function metricNames(): Promise<string[]> {
  return (await metricsRegistry.getMetricsAsJSON()).map((m) => m.name);
}

/** How a call ended, as the metrics name it: an AppError's kind says refused, unavailable or rate limited. */
export function outcomeOf(error: unknown): string {
  const kind = (error as { kind?: string } | undefined)?.kind;
  if (kind === 'rate_limited') return 'rate_limited';
  if (kind === 'unavailable') return 'unavailable';
  if (kind === 'validation' || kind === 'forbidden' || kind === 'conflict' || kind === 'not_found') return 'refused';
  return 'error';
}

/** Times `call` into a histogram and a counter with its outcome. */
export async function timed<T>(labels: Record<string, string>, call: () => Promise<T>, into: { readonly counter: Counter<string>; readonly histogram: Histogram<string> }, outcome: (result: T) => string = () => 'ok'): Promise<T> {
  const stop = into.histogram.startTimer();
  try {
    const result = await call();
    const o = outcome(result);
    stop({ ...labels, outcome: o });
    into.counter.inc({ ...labels, outcome: o });
    return result;
  } catch (error) {
    const o = outcomeOf(error);
    stop({ ...labels, outcome: o });
    into.counter.inc({ ...labels, outcome: o });
    throw error;
  }
}

/** The calls of an authority connector (registry/authority.ts) that reach the authority. */
const AUTHORITY_OPERATIONS: readonly string[] = ['submit', 'submitBatch', 'recover', 'poll', 'cancel', 'amend', 'read', 'verifyCredentials', 'buyerRejections'];

/**
 * An area's authority connector whose calls are counted and timed (`einvoice_authority_calls_total`,
 * `einvoice_authority_call_duration_seconds`): an answer that refuses (`kind: 'rejected' | 'refused'`)
 * is `refused`, a throw is named by its error's kind (outcomeOf).
 */
export function measuredConnector<T extends object>(area: string, connector: T, operations: readonly string[] = AUTHORITY_OPERATIONS): T {
  const into = { counter: metrics.authorityCalls, histogram: metrics.authorityDuration };
  const refused = (result: unknown) => {
    const kind = (result as { kind?: string } | undefined)?.kind;
    return kind === 'rejected' || kind === 'refused' || (result !== null && typeof result === 'object' && 'refused' in result) ? 'refused' : 'ok';
  };
  return new Proxy(connector, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || !operations.includes(property)) return value;
      return (...args: unknown[]) =>
        inSpan(`${area} ${property}`, { kind: SpanKind.CLIENT, attributes: { 'einvoice.area': area, 'einvoice.authority.operation': property } }, () =>
          timed({ area, operation: property }, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args), into, refused));
    },
  });
}

/**
 * One HTTP request of an authority's live client (recordedAuthorityRequest): counted and timed
 * (`einvoice_authority_http_requests_total`, `…_duration_seconds`) in a client span, the child of the
 * connector call's (measuredConnector) whose round trips it tells apart. An answer that is not 2xx marks
 * the span failed (OpenTelemetry's HTTP client convention).
 */
export const measuredAuthorityRequest: AuthorityRequestRecorder = (facts, send) => {
  const request = `${facts.method} ${facts.name}`;
  const attributes = { 'einvoice.area': facts.area, 'http.request.method': facts.method, 'server.address': facts.url.hostname, 'server.port': Number(facts.url.port) || (facts.url.protocol === 'https:' ? 443 : 80) };
  const into = { counter: metrics.authorityRequests, histogram: metrics.authorityRequestDuration };
  return inSpan(request, { kind: SpanKind.CLIENT, attributes }, (span) =>
    timed({ area: facts.area, request }, async () => {
      const answer = await send();
      span.setAttribute('http.response.status_code', answer.status);
      if (answer.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: `HTTP ${answer.status}` });
      return answer;
    }, into, (answer) => answer.outcome));
};

// Wherever the infrastructure runs (every app), the areas' authority requests are measured.
recordAuthorityRequestsWith(measuredAuthorityRequest);
