// The recorder the infrastructure installs for the areas' authority requests: a counter and a histogram
// by area, request and outcome, and a client span per request.
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-node';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { recordedAuthorityRequest } from '../../authority-requests';
import { AppError } from '../../errors';
import { startTracing, stopTracing } from '../tracing';
import { metrics } from './metrics';

describe('authority requests, measured (recordedAuthorityRequest once the infrastructure is loaded)', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => startTracing('test', exporter));
  afterAll(() => stopTracing());

  const facts = (name: string) => ({ area: 'zz', method: 'GET', name, url: new URL(`https://authority.example:8443${name}?id=1`) });
  const counted = async (request: string, outcome: string) =>
    (await metrics.authorityRequests.get()).values.find((v) => v.labels.area === 'zz' && v.labels.request === request && v.labels.outcome === outcome)?.value ?? 0;
  const timedCount = async (request: string, outcome: string) =>
    (await metrics.authorityRequestDuration.get()).values.find((v) => v.metricName?.endsWith('_count') && v.labels.request === request && v.labels.outcome === outcome)?.value ?? 0;

  it('counts and times each answer under its outcome, in a client span with the status', async () => {
    const answer = await recordedAuthorityRequest(facts('/limited'), async () => ({ status: 429, outcome: 'rate_limited' as const, body: 'kept' }));
    await recordedAuthorityRequest(facts('/ok'), async () => ({ status: 200, outcome: 'ok' as const }));
    expect(answer.body).toBe('kept');
    expect([await counted('GET /limited', 'rate_limited'), await timedCount('GET /limited', 'rate_limited'), await counted('GET /ok', 'ok')]).toEqual([1, 1, 1]);
    const [limited, ok] = exporter.getFinishedSpans().slice(-2);
    expect(limited).toMatchObject({ name: 'GET /limited', kind: SpanKind.CLIENT, status: { code: SpanStatusCode.ERROR } });
    expect(limited.attributes).toMatchObject({ 'einvoice.area': 'zz', 'http.request.method': 'GET', 'server.address': 'authority.example', 'server.port': 8443, 'http.response.status_code': 429 });
    expect(ok).toMatchObject({ name: 'GET /ok', status: { code: SpanStatusCode.UNSET } });
  });

  it('a request that got no answer is counted by its error\'s kind and fails its span', async () => {
    const error = new AppError('unavailable', 'ZZ.TIMEOUT', 'no answer', { retriable: true });
    await expect(recordedAuthorityRequest(facts('/silent'), () => Promise.reject(error))).rejects.toBe(error);
    expect(await counted('GET /silent', 'unavailable')).toBe(1);
    expect(exporter.getFinishedSpans().at(-1)).toMatchObject({ name: 'GET /silent', status: { code: SpanStatusCode.ERROR, message: 'no answer' } });
  });
});
