// The provisioned Grafana dashboard and the Prometheus configuration (infra/observability) against the
// metrics the code exports: a panel may only query a metric that exists.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { metricNames, startMetrics } from '@einvoice/domain/infrastructure';

const dir = path.join(__dirname, '..', '..', 'infra', 'observability');
const HISTOGRAM_SERIES = /_(bucket|count|sum)$/;

describe('the operator\'s dashboard', () => {
  const dashboard = JSON.parse(readFileSync(path.join(dir, 'grafana', 'dashboards', 'einvoice.json'), 'utf8'));
  const expressions: string[] = dashboard.panels.flatMap((p: { targets?: Array<{ expr: string }> }) => (p.targets ?? []).map((t) => t.expr));

  it('is a Grafana dashboard with a uid, panels and a query in each panel', () => {
    expect(dashboard).toMatchObject({ uid: 'einvoice-gateway', title: expect.any(String), schemaVersion: expect.any(Number) });
    const graphs = dashboard.panels.filter((p: { type: string }) => p.type !== 'row');
    expect(graphs.length).toBeGreaterThanOrEqual(15);
    for (const p of graphs) expect(p.targets.length).toBeGreaterThan(0);
    expect(new Set(dashboard.panels.map((p: { id: number }) => p.id)).size).toBe(dashboard.panels.length);
  });

  it('references only metrics that exist, and shows every metric the service defines', async () => {
    startMetrics('test');
    const exported = new Set(await metricNames());
    const used = new Set(expressions.flatMap((e) => e.match(/einvoice_[a-z0-9_]+/g) ?? []));
    const unknown = [...used].filter((name) => !exported.has(name) && !exported.has(name.replace(HISTOGRAM_SERIES, '')));
    expect(unknown).toEqual([]);
    const own = [...exported].filter((name) => !/^einvoice_(process|nodejs)_/.test(name));
    const shown = new Set([...used].map((name) => name.replace(HISTOGRAM_SERIES, '')));
    expect(own.filter((name) => !shown.has(name))).toEqual([]);
  });

  it('Prometheus scrapes the gateway and the three workers; Grafana is provisioned with it', () => {
    const prometheus = readFileSync(path.join(dir, 'prometheus.yml'), 'utf8');
    for (const target of ['gateway:9463', 'delivery-worker:9464', 'reporting-worker:9464', 'webhook-dispatcher:9464']) expect(prometheus).toContain(target);
    expect(readFileSync(path.join(dir, 'grafana', 'provisioning', 'datasources', 'prometheus.yml'), 'utf8')).toContain('uid: prometheus');
  });
});
