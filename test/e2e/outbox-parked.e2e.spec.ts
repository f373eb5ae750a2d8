// Issue G over HTTP and the CLI: an event the broker refuses is parked, not retried forever in
// front of everyone else's; GET /health (operator port) shows it; `topics` raises the limit and `outbox release`
// puts it back in line.
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { AppProcess, eventually, runCli, startGateway, testEnv } from '../support/stack';

const prefix = `gparked${Date.now().toString(36)}`;
const env = (extra: Record<string, string> = {}) => testEnv({ KAFKA_TOPIC_PREFIX: prefix, ...extra });

const seller = () => ({ registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
const buyer = { RegisteredName: 'Antwerp Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: beVat() }] };
/** 100 lines of random descriptions: about 60 KB of event, too much for topics limited to 20 KB even after GZIP. */
const bigInvoice = (ID: string) => ({
  ID, DocumentType: '380', IssueDate: '2026-03-15', CustomerParty: buyer,
  InvoiceLines: Array.from({ length: 100 }, () => ({ Description: randomBytes(150).toString('base64'), PriceAmount: 1, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } })),
  TotalIncludingVat: 121,
});

describe('#G a parked outbox row: visible in GET /health, other streams go on, released by the CLI (gateway + CLI)', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  // The gateway's operator endpoints (detailed /health, /metrics): not on the API port (#47).
  let operator: Client;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    // Topics made with a 20 KB limit: an ordinary large invoice stands in for any event the broker refuses.
    expect(runCli(['topics'], env({ KAFKA_MAX_MESSAGE_BYTES: '20000' })).status).toBe(0);
    const { apiKey } = await createTenant(dataSource, 'e2e parked');
    const started = await startGateway({ KAFKA_TOPIC_PREFIX: prefix });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    operator = new Client(started.operatorUrl);
  }, 120_000);

  afterAll(async () => {
    await gateway?.stop();
    await dataSource?.destroy();
  });

  const health = async () => (await operator.get('/health')).body;

  it('parks the refused event, keeps relaying other streams, reports it, and publishes it once released', async () => {
    const onboarded = await client.post('/be/einvoice/onboard', seller());
    expect(onboarded.status).toBe(201);
    const supplier = onboarded.body.data.supplier_uuid;
    const submitted = await client.post('/be/einvoice/generate/invoice', bigInvoice(`BIG-${prefix}`), { supplier_uuid: supplier, transport_mode: 'peppol' });
    expect(submitted.status).toBe(202);

    const parked = await eventually('the invoice event to be parked', async () => {
      const body = await health();
      return body.outbox.parked > 0 ? body : undefined;
    });
    expect(parked).toMatchObject({
      status: 'degraded',
      checks: { postgres: { status: 'up' }, kafka: { status: 'up' } },
      outbox: { parked: 1, parkedRows: [{ type: 'DocumentSubmitted', topic: `${prefix}.documents`, error: expect.stringMatching(/max message size/) }] },
    });
    // The gauge the EinvoiceOutboxRowsParked alert watches (infra/observability/alerts.yml).
    const metrics: string = (await operator.get('/metrics')).body;
    expect(Number(/^einvoice_outbox_parked_rows\{app="gateway"\} (\d+)$/m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    // Another stream's event after it is published: the relay is not stuck.
    expect((await client.post('/be/einvoice/onboard', seller())).status).toBe(201);
    await eventually('the later supplier event to be published', async () => ((await health()).outbox.pending === 0 ? true : undefined));

    const listed = runCli(['outbox', 'parked'], env());
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout.trim())).toMatchObject({ id: parked.outbox.parkedRows[0].id, type: 'DocumentSubmitted' });
    const topics = runCli(['topics'], env());
    expect(topics.stderr).toContain('raised max.message.bytes to 33554432 on');
    for (const topic of ['documents', 'received', 'reports', 'suppliers', 'participants', 'dead-letter']) expect(topics.stderr).toContain(`${prefix}.${topic}`);
    expect(runCli(['outbox', 'release', 'x'], env()).status).not.toBe(0);
    const released = runCli(['outbox', 'release', parked.outbox.parkedRows[0].id], env());
    expect(released.stderr).toContain(`released outbox rows ${parked.outbox.parkedRows[0].id}`);

    await eventually('the released row to be published', async () => {
      const body = await health();
      return body.outbox.parked === 0 && body.outbox.pending === 0 ? body : undefined;
    });
    const [row] = await dataSource.query(`SELECT processed_at IS NOT NULL AS published FROM outbox WHERE id = $1`, [parked.outbox.parkedRows[0].id]);
    expect(row.published).toBe(true);
    const after = await health();
    expect(after).toMatchObject({ checks: { postgres: { status: 'up' }, redis: { status: 'up' }, kafka: { status: 'up' } }, outbox: { parked: 0 } });
    // No worker runs in this test: the stack is degraded by them alone (#9: /health reports their readiness).
    expect(after.workers.every((w: { ready: boolean }) => !w.ready)).toBe(true);
    expect(after.status).toBe('degraded');
  });
});
