import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { freshCuit } from '../../libs/areas/src/afip/testing/cuits';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, freePort, startApp, startGateway, testEnv } from '../support/stack';

/** The sum of a metric's samples whose labels include `labels` (Prometheus text exposition format). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => present[k] === v)) total += Number(match[3]);
  }
  return total;
}

const today = () => new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');

/**
 * #17 metrics: the gateway's `/metrics` and a worker's metrics port, scraped before and after one
 * voucher goes through (gateway → reporting worker's batch sweep → the sandbox authority) and a toy
 * document (gateway → Kafka → the worker's handler → the toy authority): the counters move.
 */
describe('#17 Prometheus metrics from the gateway and a worker', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let worker: AppProcess;
  let client: Client;
  // The gateway's /metrics is on its operator port, not the API's (#47).
  let operatorUrl: string;
  let workerMetrics: string;
  const cuit = freshCuit();

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e metrics');
    const started = await startGateway({ AUTHORITY_WAIT_MS: '20000' });
    gateway = started.app;
    operatorUrl = started.operatorUrl;
    client = new Client(started.url, apiKey);
    const port = await freePort();
    workerMetrics = `http://127.0.0.1:${port}/metrics`;
    worker = startApp('reporting-worker', testEnv({ METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1', AUTHORITY_BATCH_SWEEP_MS: '100' }));
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const scrape = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  it('counts requests by route and status, documents by state, and the worker\'s handler and authority calls', async () => {
    const workerBefore = await eventually('the worker serves its metrics', async () => fetch(workerMetrics).then((r) => (r.ok ? r.text() : undefined), () => undefined));
    const before = await scrape(`${operatorUrl}/metrics`);
    const created = { method: 'POST', route: '/ar/einvoice/create-voucher', status: '200' };

    expect((await client.post('/ar/einvoice/onboard', { cuit, legal_name: 'Metricas SA' })).status).toBe(201);
    const answer = await client.post('/ar/einvoice/create-voucher', {
      CantReg: 1, PtoVta: 7, CbteTipo: 6, Concepto: 1, DocTipo: 99, DocNro: 0, CbteDesde: 1, CbteHasta: 1, CbteFch: today(),
      ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
    }, { cuit });
    expect(answer.body.Resultado).toBe('A');
    expect((await client.get('/ar/einvoice/voucher-types', { cuit: '20111111113' })).status).toBe(400);
    // The voucher (a batched area) went through the worker's batch sweep, not its Kafka handler (its
    // request is not published); a document of an unbatched area, the test-only toy, goes through the handler.
    const toy = await client.post('/toy/einvoice/onboard', { registered_name: 'Metrics Toy', tax_id: `TOY${String(Date.now() % 1e6).padStart(6, '0')}` });
    expect(toy.status).toBe(201);
    await eventually('a toy document reported through the worker', async () => {
      const reported = await client.post('/toy/einvoice/documents', { ID: `M-${Date.now()}`, IssueDate: '2026-11-24', Total: 121.5 }, { supplier_uuid: toy.body.data.supplier_uuid });
      return reported.status === 200 ? reported : undefined;
    });

    const after = await scrape(`${operatorUrl}/metrics`);
    expect(sample(after, 'einvoice_http_requests_total', created) - sample(before, 'einvoice_http_requests_total', created)).toBe(1);
    expect(sample(after, 'einvoice_http_requests_total', { route: '/ar/einvoice/:catalog', status: '400' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'einvoice_http_request_duration_seconds_count', created)).toBeGreaterThanOrEqual(1);
    // At least ours: the gauge counts the whole database's documents, and this test's worker also reports what
    // an earlier test's left waiting for a resend (afip.e2e ran before it in one CI order: +2).
    expect(sample(after, 'einvoice_documents', { area: 'ar', state: 'reported' }) - sample(before, 'einvoice_documents', { area: 'ar', state: 'reported' })).toBeGreaterThanOrEqual(1);
    expect(after).toMatch(/^einvoice_outbox_backlog\{app="gateway"\} \d+$/m);
    expect(after).toMatch(/^# TYPE einvoice_authority_reports_awaiting_resend gauge$/m);
    expect(after).toMatch(/^einvoice_outbox_oldest_pending_age_seconds\{app="gateway"\} [\d.e+-]+$/m);
    expect(after).toMatch(/^einvoice_outbox_parked_rows\{app="gateway"\} \d+$/m);
    expect(after).toMatch(/^einvoice_webhook_subscriptions_disabled\{app="gateway"\} \d+$/m);
    expect(after).toMatch(/^einvoice_kafka_consumer_lag\{group="[^"]+\.reporting-worker",topic="[^"]+",partition="\d+",app="gateway"\} \d+$/m);
    expect(after).toMatch(/^einvoice_bullmq_queue_jobs\{queue="[^"]+\.webhooks",state="waiting",app="gateway"\} \d+$/m);
    expect(after).toMatch(/^einvoice_process_cpu_seconds_total\{app="gateway"\}/m);

    const workerAfter = await scrape(workerMetrics);
    const submitted = { app: 'reporting-worker', area: 'ar', operation: 'submitBatch', outcome: 'ok' };
    expect(sample(workerAfter, 'einvoice_authority_calls_total', submitted) - sample(workerBefore, 'einvoice_authority_calls_total', submitted)).toBeGreaterThanOrEqual(1);
    expect(sample(workerAfter, 'einvoice_authority_call_duration_seconds_count', submitted)).toBeGreaterThanOrEqual(1);
    const handled = { event_type: 'AuthorityReportRequested', outcome: 'ok' };
    expect(sample(workerAfter, 'einvoice_event_handler_duration_seconds_count', handled) - sample(workerBefore, 'einvoice_event_handler_duration_seconds_count', handled)).toBeGreaterThanOrEqual(1);
    // How long the event waited between its publish and its handler, a non-negative time.
    const waited = { event_type: 'AuthorityReportRequested' };
    expect(sample(workerAfter, 'einvoice_event_wait_seconds_count', waited) - sample(workerBefore, 'einvoice_event_wait_seconds_count', waited)).toBeGreaterThanOrEqual(1);
    expect(sample(workerAfter, 'einvoice_event_wait_seconds_sum', waited)).toBeGreaterThanOrEqual(0);
  });
});
