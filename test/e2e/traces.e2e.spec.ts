import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { type LocalServer, listenLocally } from '../../libs/areas/src/shared/testing/local-server';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';

interface ExportedSpan {
  readonly service: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
}

/**
 * #17 traces through the apps: the gateway and the reporting worker export over OTLP/HTTP (JSON) to a
 * local collector; one document's journey — the caller's trace continued by the HTTP request, the outbox
 * relay's publish, the worker's handling and its call to the authority — is one trace.
 */
describe('#17 OpenTelemetry: one trace from the HTTP request to the authority call', () => {
  let dataSource: DataSource;
  let collector: LocalServer;
  const spans: ExportedSpan[] = [];
  let gateway: AppProcess;
  let worker: AppProcess;
  let client: Client;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    collector = await listenLocally((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        for (const rs of body.resourceSpans ?? []) {
          const service = rs.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue;
          for (const ss of rs.scopeSpans ?? []) {
            for (const s of ss.spans ?? []) {
              const attributes = Object.fromEntries((s.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]));
              spans.push({ service, traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId || undefined, name: s.name, kind: s.kind, attributes });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    const { apiKey } = await createTenant(dataSource, 'e2e traces');
    const started = await startGateway({ ...otel, AUTHORITY_WAIT_MS: '5000' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startApp('reporting-worker', testEnv(otel));
    // Its group joined before the first request: one sent before waits past AUTHORITY_WAIT_MS and is sent again,
    // a second document in the same trace, whose spans the test may then pair with the first's.
    await untilWorkersReady(started, 'reporting-worker');
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await collector?.stop();
    await dataSource?.destroy();
  });

  it('the caller\'s trace goes on through the gateway, the relay, the worker and the authority call, with the correlation id', async () => {
    const onboarded = await client.post('/toy/einvoice/onboard', { registered_name: 'Traced', tax_id: `TOY${String(Date.now() % 1e6).padStart(6, '0')}` });
    const supplier = onboarded.body.data.supplier_uuid;
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const correlationId = `trace-${traceId.slice(0, 8)}`;
    const answer = await eventually('the toy authority answers', async () => {
      const a = await client.post('/toy/einvoice/documents', { ID: `TRACED-${Date.now()}`, IssueDate: '2026-11-25', Total: 10 }, { supplier_uuid: supplier, traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': correlationId });
      return a.status === 200 ? a : undefined;
    });
    expect(answer.body.data.state).toBe('reported');

    const trace = await eventually('the spans of the trace exported', async () => {
      const mine = spans.filter((s) => s.traceId === traceId);
      // A parent span ends after its children, so it may come in a later export batch than they do: wait for every
      // span the test looks at, not only the innermost.
      const expected = ['toy submit', 'handle AuthorityReportRequested', 'publish AuthorityReportRequested', 'POST /toy/einvoice/documents'];
      return expected.every((name) => mine.some((s) => s.name === name)) ? mine : undefined;
    }, 30_000);
    const named = (name: string) => trace.find((s) => s.name === name);
    const request = trace.find((s) => s.name === 'POST /toy/einvoice/documents' && s.parentSpanId === callerSpan);
    // #47: the request span names the request as its answer's x-request-id does.
    expect(request).toMatchObject({ service: 'einvoice-gateway', kind: 2, attributes: expect.objectContaining({ 'einvoice.correlation_id': correlationId }) });
    expect(answer.headers.get('x-request-id')).toBe(correlationId);
    const publish = named('publish AuthorityReportRequested');
    expect(publish).toMatchObject({ service: 'einvoice-gateway', parentSpanId: request!.spanId, kind: 4 });
    const handle = trace.find((s) => s.name === 'handle AuthorityReportRequested' && s.service === 'einvoice-reporting-worker');
    expect(handle).toMatchObject({ parentSpanId: publish!.spanId, kind: 5, attributes: expect.objectContaining({ 'einvoice.correlation_id': correlationId }) });
    expect(named('toy submit')).toMatchObject({ service: 'einvoice-reporting-worker', parentSpanId: handle!.spanId, kind: 3 });
  });
});
