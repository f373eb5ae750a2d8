// Issue 45 "Publishing does not depend on the gateway": every app that writes events runs an outbox relay,
// one of them publishes at a time (a gateway's first), so the events a worker decides reach Kafka and
// their consumers while no gateway runs, and a relay killed while it leads is replaced by another app's.
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createKafka, ensureTopics, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { loadGatewayConfig } from '../../apps/gateway/src/config';
import { WorkerReadinessProbe } from '../../apps/gateway/src/health/worker-readiness';
import { openTestDatabase } from '../support/database';
import { intraCommunityInvoice } from '../support/fixtures';
import { Client } from '../support/http';
import { beVat, deVat } from '../support/identifiers';
import { type AppName, AppProcess, eventually, freePort, startApp, startGateway, testEnv } from '../support/stack';
import { WebhookReceiver, webhookTestEnv } from '../support/webhook-receiver';

const prefix = `gnogw${Date.now().toString(36)}`;
const env = (extra: Record<string, string> = {}) => testEnv({ ...webhookTestEnv, KAFKA_TOPIC_PREFIX: prefix, ...extra });

describe('#45 the outbox is published without a gateway: a worker\'s relay takes over, and another app\'s when it is killed', () => {
  let dataSource: DataSource;
  let client: Client;
  let gateway: AppProcess;
  const workers: AppProcess[] = [];
  let endpoint: WebhookReceiver;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    await ensureTopics(createKafka({ ...loadInfrastructureConfig(), kafkaClientId: 'e2e-outbox-without-gateway' }), prefix);
    const { apiKey } = await createTenant(dataSource, 'e2e outbox without gateway');
    endpoint = await new WebhookReceiver().start();
    // A worker starts beside the gateway: the gateway's relay leads all the same.
    workers.push(startApp('reporting-worker', env()));
    const started = await startGateway({ ...webhookTestEnv, KAFKA_TOPIC_PREFIX: prefix });
    gateway = started.app;
    client = new Client(started.url, apiKey);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway, ...workers].map((app) => app?.stop()));
    await endpoint?.close();
    await dataSource?.destroy();
  });

  /** The app whose relay's session holds this stack's lock (relay-lease.ts), by its sessions' `application_name`. */
  const leaders = async (): Promise<string> => {
    const rows: Array<{ name: string }> = await dataSource.query(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a USING (pid)
       WHERE l.locktype = 'advisory' AND l.granted AND l.classid = 7312001 AND l.objid::bigint = (hashtext($1)::bigint & 4294967295)`,
      [prefix],
    );
    return rows.map((r) => r.name.replace(/^einvoice-(.*)-outbox-relay$/, '$1')).join();
  };
  const until = (app: AppName) => eventually(`${app}'s relay to lead`, async () => ((await leaders()) === app ? true : undefined));
  const pending = async () => Number((await dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE processed_at IS NULL AND topic LIKE $1`, [`${prefix}.%`]))[0].n);
  /** The relay's own word for it, in the app's metrics (`einvoice_outbox_relay_leading`). */
  const leadsByMetrics = async (metricsPort: number) =>
    /^einvoice_outbox_relay_leading\{app="[a-z-]+"\} 1$/m.test(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());

  it('a document accepted before the gateway stops is delivered to a supplier hosted here and its webhook sent, the lead passing from the gateway to a worker and, on a SIGKILL, to another', async () => {
    await until('gateway');

    // A DE supplier hosted here, subscribed to DocumentReceived, and a BE supplier that invoices it.
    const vat = deVat();
    const receiver = await client.post('/de/einvoice/onboard', { registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id: vat }], street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' });
    expect(receiver.status).toBe(201);
    const subscribed = await client.post('/de/einvoice/webhooks', { url: endpoint.url, events: ['DocumentReceived'] }, { supplier_uuid: receiver.body.data.supplier_uuid });
    expect(subscribed.status).toBe(201);
    const seller = await client.post('/be/einvoice/onboard', { registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' });
    expect(seller.status).toBe(201);
    const ID = `BE-NO-GATEWAY-${randomBytes(4).toString('hex')}`;
    const submitted = await client.post(
      '/be/einvoice/generate/invoice',
      intraCommunityInvoice(ID, vat),
      { supplier_uuid: seller.body.data.supplier_uuid },
    );
    expect(submitted.status).toBe(202);
    // Barrier: the gateway's relay has published what the gateway decided; then the gateway stops.
    await eventually('the submission published', async () => ((await pending()) === 0 ? true : undefined));
    await gateway.stop();

    // The reporting worker, the only app left, takes the lead: its relay stood in while the gateway's ran.
    await until('reporting-worker');
    // The webhook dispatcher joins, its consumer group holding its partitions before the leader dies.
    const dispatcherMetrics = await freePort();
    const dispatcher = startApp('webhook-dispatcher', env({ METRICS_PORT: String(dispatcherMetrics), METRICS_HOST: '127.0.0.1' }));
    workers.push(dispatcher);
    const probe = new WorkerReadinessProbe({ ...loadGatewayConfig(), kafkaPrefix: prefix });
    try {
      // A worker's start can take a minute on a loaded host.
      await eventually('the dispatcher ready', async () => ((await probe.readiness()).find((w) => w.group === `${prefix}.webhook-dispatcher`)?.ready ? true : undefined), 120_000);
    } finally {
      await probe.onApplicationShutdown();
    }
    expect(await leaders()).toBe('reporting-worker');
    expect(await leadsByMetrics(dispatcherMetrics)).toBe(false);

    // The leader dies without a word: its session, and the lock with it, end; the dispatcher's relay takes over.
    await workers[0].crash();
    await until('webhook-dispatcher');
    expect(await leadsByMetrics(dispatcherMetrics)).toBe(true);

    // The delivery worker decides the delivery (DocumentReceived for the receiver, DocumentDelivered for the
    // seller), with no gateway running: the leading relay publishes it, and the dispatcher sends the webhook.
    workers.push(startApp('delivery-worker', env()));
    const [webhook] = await eventually('the webhook', async () => (endpoint.received.length > 0 ? endpoint.received : undefined), 120_000);
    const [received] = await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1 AND source_document_id = $2`, [receiver.body.data.supplier_uuid, submitted.body.data.DocumentID]);
    expect(JSON.parse(webhook.body)).toMatchObject({ Event: 'DocumentReceived', uuid: received.id, DocumentId: ID, Status: 'Delivered' });
    await eventually('the worker\'s events published', async () => ((await pending()) === 0 ? true : undefined));
    expect(await leaders()).toBe('webhook-dispatcher');
  }, 300_000);
});
