import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { RestartableBroker } from '../support/broker';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { AppProcess, eventually, runCli, startApp, startGateway, testEnv } from '../support/stack';

const invoice = (ID: string, buyerVat: string) => ({
  ID,
  DocumentType: '380',
  IssueDate: '2026-03-15',
  CustomerParty: {
    RegisteredName: 'Buyer BV',
    address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' },
    Identifiers: [{ Scheme: 'BE:VAT', ID: buyerVat }],
  },
  InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
  TotalIncludingVat: 121,
});

async function onboardBelgian(client: Client, vat: string): Promise<string> {
  const answer = await client.post('/be/einvoice/onboard', { registered_name: `Supplier ${vat}`, identifiers: [{ scheme: 'BE:VAT', id: vat }], country: 'BE' });
  expect(answer.status).toBe(201);
  return answer.body.data.supplier_uuid;
}

describe('#2 delivery-worker killed mid-flight (kill -9) and restarted: nothing lost, nothing delivered twice', () => {
  let dataSource: DataSource;
  let gateway: AppProcess;
  let client: Client;
  const workers: AppProcess[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e crash');
    const started = await startGateway();
    gateway = started.app;
    client = new Client(started.url, apiKey);
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await gateway?.stop();
    await dataSource?.destroy();
  });

  it('redelivers what was in flight exactly once, to remote and to hosted receivers', async () => {
    const sellerVat = beVat();
    const seller = await onboardBelgian(client, sellerVat);
    const hostedVat = beVat();
    const hostedReceiver = await onboardBelgian(client, hostedVat);
    // A slow access point keeps deliveries in flight long enough to kill the worker among them; one
    // partition at a time keeps the others waiting behind them (at the default, every partition at
    // once, all eight would be done by the first transmission's answer).
    const slow = startApp('delivery-worker', testEnv({ SANDBOX_AP_LATENCY_MS: '1500', KAFKA_PARTITIONS_CONCURRENCY: '1' }));
    workers.push(slow);

    const ids: string[] = [];
    for (let i = 0; i < 8; i += 1) {
      const buyer = i % 2 === 0 ? beVat() : hostedVat;
      const answer = await client.post('/be/einvoice/generate/invoice', invoice(`CRASH-${Date.now()}-${i}`, buyer), { supplier_uuid: seller });
      expect(answer.status).toBe(202);
      ids.push(answer.body.data.DocumentID);
    }
    const delivered = async () =>
      Number((await dataSource.query(`SELECT count(*) AS n FROM documents WHERE id = ANY($1::uuid[]) AND delivery_status = 'Delivered'`, [ids]))[0].n);

    // Kill it once it has started working, before it has finished.
    await eventually('the first remote transmission', async () =>
      Number((await dataSource.query(`SELECT count(*) AS n FROM sandbox_ap_messages WHERE sender = $1`, [`iso6523-actorid-upis::9925:${sellerVat.toLowerCase()}`]))[0].n) > 0
        ? true
        : undefined,
    );
    await slow.crash();
    expect(await delivered()).toBeLessThan(ids.length);

    workers.push(startApp('delivery-worker'));
    await eventually('every document Delivered after the restart', async () => ((await delivered()) === ids.length ? true : undefined), 90_000);

    const perDocument = await dataSource.query(
      `SELECT d.id,
              (SELECT count(*) FROM events e WHERE e.stream_id = 'document-' || d.id AND e.type = 'DocumentDelivered')::int AS delivered,
              (SELECT count(*) FROM events e WHERE e.type = 'DocumentReceived' AND e.data->>'sourceDocumentId' = d.id::text)::int AS received,
              d.delivery->>'channel' AS channel
       FROM documents d WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
    for (const row of perDocument) {
      expect(row.delivered).toBe(1);
      expect(row.received).toBe(row.channel === 'local' ? 1 : 0);
    }
    expect(perDocument.filter((r: { channel: string }) => r.channel === 'local')).toHaveLength(4);
    const inbox = await dataSource.query(`SELECT count(*)::int AS n FROM documents WHERE supplier_id = $1 AND direction = 'incoming'`, [hostedReceiver]);
    expect(inbox[0].n).toBe(4);
  });
});

describe('#2 the gateway keeps accepting while Kafka is down, and the outbox drains when it returns', () => {
  let broker: RestartableBroker;
  let dataSource: DataSource;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    broker = await RestartableBroker.create();
    ({ dataSource } = await openTestDatabase());
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await broker?.destroy();
    await dataSource?.destroy();
  });

  it('accepts submissions with no broker at all, then delivers them once the broker is up', async () => {
    const env = { KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC_PREFIX: `down${Date.now().toString(36)}` };
    const { apiKey } = await createTenant(dataSource, 'e2e kafka down');
    const started = await startGateway(env);
    apps.push(started.app);
    const client = new Client(started.url, apiKey);
    const operator = new Client(started.operatorUrl);
    const health = await operator.get('/health');
    expect(health.body.checks.kafka.status).toBe('down');

    const seller = await onboardBelgian(client, beVat());
    const answer = await client.post('/be/einvoice/generate/invoice', invoice(`DOWN-${Date.now()}`, beVat()), { supplier_uuid: seller });
    expect(answer.status).toBe(202);
    expect((await operator.get('/health')).body.outbox.pending).toBeGreaterThan(0);

    await broker.start();
    expect(runCli(['topics'], testEnv(env)).status).toBe(0);
    apps.push(startApp('delivery-worker', testEnv(env)));
    const documentId = answer.body.data.DocumentID;
    await eventually(
      'Delivered after Kafka came back',
      async () => {
        const status = await client.get(`/be/einvoice/delivery-status/${documentId}`, { supplier_uuid: seller });
        return status.body.data.DeliveryStatus === 'Delivered' ? true : undefined;
      },
      120_000,
    );
  });
});
