import { randomBytes } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { DataSource } from 'typeorm';
import { SecretBox } from '@einvoice/domain';
import { createWebhookQueue, failingWebhookQueueName, loadInfrastructureConfig, webhookQueueName } from '@einvoice/domain/infrastructure';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { intraCommunityInvoice } from '../support/fixtures';
import { Client } from '../support/http';
import { beVat, deVat } from '../support/identifiers';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';
import { WebhookReceiver as Receiver, signedCorrectly, webhookTestEnv } from '../support/webhook-receiver';

describe('#3 webhooks over HTTP: subscriptions, signed DocumentReceived, retries, crash, ping', () => {
  let dataSource: DataSource;
  let client: Client;
  let dispatcher: AppProcess;
  /** The dispatcher's queue (same Redis and prefix as the apps), read for barriers: which jobs are left. */
  let queue: Queue;
  /** Its failing lane (#48, apps/webhook-dispatcher/README.md "Lanes"): where a failed attempt's retry waits. */
  let failingQueue: Queue;
  const apps: AppProcess[] = [];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e webhooks');
    const gateway = await startGateway(webhookTestEnv);
    dispatcher = startApp('webhook-dispatcher', testEnv(webhookTestEnv));
    apps.push(gateway.app, startApp('delivery-worker', testEnv(webhookTestEnv)));
    client = new Client(gateway.url, apiKey);
    const { redisUrl, kafkaPrefix } = loadInfrastructureConfig();
    queue = createWebhookQueue(redisUrl, webhookQueueName(kafkaPrefix));
    failingQueue = createWebhookQueue(redisUrl, failingWebhookQueueName(kafkaPrefix));
  });

  afterAll(async () => {
    await queue?.close();
    await failingQueue?.close();
    await Promise.all([...apps, dispatcher].map((app) => app?.stop()));
    await Promise.all(receivers.map((r) => r.close()));
    await dataSource?.destroy();
  });

  async function receiver(statuses: number[] = []): Promise<Receiver> {
    const r = await new Receiver(statuses).start();
    receivers.push(r);
    return r;
  }

  async function onboard(area: 'be' | 'de', id: string): Promise<string> {
    const body =
      area === 'be'
        ? { registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id }], street: 'Rue de la Loi 16', city: 'Brussels', country: 'BE' }
        : { registered_name: 'Berliner Teile GmbH', identifiers: [{ scheme: 'DE:VAT', id }], street: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE' };
    const answer = await client.post(`/${area}/einvoice/onboard`, body);
    expect(answer.status).toBe(201);
    return answer.body.data.supplier_uuid;
  }

  async function subscribe(supplier: string, url: string): Promise<{ id: string; secret: string }> {
    const answer = await client.post('/de/einvoice/webhooks', { url, events: ['DocumentReceived'] }, { supplier_uuid: supplier });
    expect(answer.status).toBe(201);
    return { id: answer.body.data.id, secret: answer.body.data.secret };
  }

  /** A DE supplier hosted here with a subscription, and a BE supplier that invoices it. */
  async function hostedReceiver(endpoint: Receiver) {
    const vat = deVat();
    const receiverSupplier = await onboard('de', vat);
    const subscription = await subscribe(receiverSupplier, endpoint.url);
    const seller = await onboard('be', beVat());
    const invoice = async () => {
      const ID = `BE-TO-DE-${Date.now()}-${randomBytes(3).toString('hex')}`;
      const submitted = await client.post(
        '/be/einvoice/generate/invoice',
        intraCommunityInvoice(ID, vat),
        { supplier_uuid: seller },
      );
      expect(submitted.status).toBe(202);
      return { ID, documentId: submitted.body.data.DocumentID as string };
    };
    return { receiverSupplier, subscription, invoice };
  }

  async function deliveries(supplier: string, subscriptionId: string) {
    const answer = await client.get(`/de/einvoice/webhooks/${subscriptionId}/deliveries`, { supplier_uuid: supplier });
    expect(answer.status).toBe(200);
    return answer.body.data as Array<{ id: string; status: string; attempts: Array<{ attempt: number; status_code: number | null }> }>;
  }

  it('a BE supplier invoices a DE supplier hosted here: its endpoint gets exactly one signed DocumentReceived with the seed body', async () => {
    const endpoint = await receiver();
    const { receiverSupplier, subscription, invoice } = await hostedReceiver(endpoint);
    const { ID, documentId } = await invoice();
    await eventually('the webhook', async () => (endpoint.received.length > 0 ? true : undefined));
    const [received] = await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1 AND source_document_id = $2`, [receiverSupplier, documentId]);
    expect(endpoint.received[0].body).toBe(
      `{"Event":"DocumentReceived","EventType":"PeppolReceived","EventGroup":"Invoice","uuid":"${received.id}","DocumentId":"${ID}","Status":"Delivered"}`,
    );
    expect(endpoint.received[0].headers['content-type']).toBe('application/json');
    expect(endpoint.received[0].headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(Math.abs(Number(endpoint.received[0].headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(signedCorrectly(subscription.secret, endpoint.received[0])).toBe(true);
    // Barrier: the dispatcher has recorded the delivery as done (one attempt), and its job is gone from the queue.
    const [delivery] = await eventually('the delivery recorded', async () => {
      const rows = await deliveries(receiverSupplier, subscription.id);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    await eventually('its job finished', async () => ((await queue.getJob(delivery.id)) === undefined ? true : undefined));
    expect(delivery).toMatchObject({ status: 'delivered', attempts: [{ attempt: 1, status_code: 200 }] });
    expect(endpoint.received).toHaveLength(1);
  });

  it('an endpoint answering 500 three times then 200 gets it four times under one Webhook-Id; the API shows four attempts', async () => {
    const endpoint = await receiver([500, 500, 500]);
    const { receiverSupplier, subscription, invoice } = await hostedReceiver(endpoint);
    await invoice();
    const [delivery] = await eventually('delivered', async () => {
      const rows = await deliveries(receiverSupplier, subscription.id);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(delivery.attempts.map((a) => a.status_code)).toEqual([500, 500, 500, 200]);
    expect(endpoint.received.map((r) => r.answeredWith)).toEqual([500, 500, 500, 200]);
    expect(new Set(endpoint.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(endpoint.received.every((r) => signedCorrectly(subscription.secret, r))).toBe(true);
  });

  it('the dispatcher killed (SIGKILL) while a delivery waits for its retry still delivers it, acknowledged once', async () => {
    // A dispatcher with a long enough backoff to be killed between the attempts.
    await dispatcher.stop();
    dispatcher = startApp('webhook-dispatcher', testEnv({ ...webhookTestEnv, WEBHOOK_BACKOFF_BASE_MS: '4000' }));
    const endpoint = await receiver([500]);
    const { receiverSupplier, subscription, invoice } = await hostedReceiver(endpoint);
    await invoice();
    const [first] = await eventually('the first attempt', async () => {
      const rows = await deliveries(receiverSupplier, subscription.id);
      return rows[0]?.attempts.length === 1 ? rows : undefined;
    });
    // Barrier: the job waits for its retry (BullMQ state `delayed`) when the dispatcher dies.
    await eventually('the retry scheduled', async () => ((await (await failingQueue.getJob(first.id))?.getState()) === 'delayed' ? true : undefined));
    await dispatcher.crash();
    expect(endpoint.received).toHaveLength(1);
    dispatcher = startApp('webhook-dispatcher', testEnv(webhookTestEnv));
    const [delivery] = await eventually('delivered after the restart', async () => {
      const rows = await deliveries(receiverSupplier, subscription.id);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    }, 90_000);
    expect(delivery.attempts.map((a) => a.status_code)).toEqual([500, 200]);
    // Barrier: no job of the delivery is left to send it again.
    await eventually('its job finished', async () => ((await queue.getJob(delivery.id)) === undefined && (await failingQueue.getJob(delivery.id)) === undefined ? true : undefined));
    expect(endpoint.received.filter((r) => r.answeredWith === 200)).toHaveLength(1);
  });

  it('registers, lists and deletes; the secret is shown once; another tenant sees a 404', async () => {
    const supplier = await onboard('de', deVat());
    const headers = { supplier_uuid: supplier, 'Idempotency-Key': `hook-${Date.now()}` };
    const created = await client.post('/de/einvoice/webhooks', { url: 'https://erp.example.com/hooks', events: ['DocumentReceived'], description: 'ERP' }, headers);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: expect.any(String), url: 'https://erp.example.com/hooks', events: ['DocumentReceived'], description: 'ERP' });
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = created.body.data.id;

    const replayed = await client.post('/de/einvoice/webhooks', { url: 'https://erp.example.com/hooks', events: ['DocumentReceived'], description: 'ERP' }, headers);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.data).toMatchObject({ id, secret: null });

    const listed = await client.get('/de/einvoice/webhooks', { supplier_uuid: supplier });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      { id, url: 'https://erp.example.com/hooks', events: ['DocumentReceived'], description: 'ERP', created_at: expect.any(String), status: 'active', disabled_reason: null },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const [stored] = await dataSource.query(`SELECT secret_sealed FROM webhook_subscriptions WHERE id = $1`, [id]);
    expect(stored.secret_sealed).not.toContain(created.body.data.secret.slice(6));
    const [kept] = await dataSource.query(`SELECT response::text AS response FROM idempotency_keys WHERE key = $1`, [headers['Idempotency-Key']]);
    expect(kept.response).not.toContain('whsec_');

    const { apiKey: otherKey } = await createTenant(dataSource, 'e2e webhooks other');
    const other = client.withKey(otherKey);
    expect((await other.get('/de/einvoice/webhooks', { supplier_uuid: supplier })).status).toBe(404);
    expect((await other.request('DELETE', `/de/einvoice/webhooks/${id}`, { headers: { supplier_uuid: supplier } })).status).toBe(404);
    expect((await client.get('/be/einvoice/webhooks', { supplier_uuid: supplier })).status).toBe(404);

    const deleted = await client.request('DELETE', `/de/einvoice/webhooks/${id}`, { headers: { supplier_uuid: supplier } });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id, deleted: true });
    expect((await client.request('DELETE', `/de/einvoice/webhooks/${id}`, { headers: { supplier_uuid: supplier } })).status).toBe(404);
    expect((await client.get('/de/einvoice/webhooks', { supplier_uuid: supplier })).body.data).toEqual([]);
  });

  it('refuses bad URLs and event lists with a 400 naming the field and the code', async () => {
    const supplier = await onboard('de', deVat());
    const refused = async (body: unknown) => {
      const answer = await client.post('/de/einvoice/webhooks', body, { supplier_uuid: supplier });
      expect(answer.status).toBe(400);
      return answer.body.errors.map((e: { path: string; code: string }) => `${e.path} ${e.code}`);
    };
    expect(await refused({ url: 'not a url', events: ['DocumentReceived'] })).toEqual(['url FIELD.INVALID_FORMAT']);
    expect(await refused({ url: 'http://erp.example.com/hooks', events: ['DocumentReceived'] })).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(await refused({ url: 'https://10.0.0.5/hooks', events: ['DocumentReceived'] })).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(await refused({ url: 'https://[fe80::1]/hooks', events: ['DocumentReceived'] })).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(await refused({ url: 'https://169.254.169.254/latest', events: ['DocumentReceived'] })).toEqual(['url WEBHOOK.URL_NOT_ALLOWED']);
    expect(await refused({ url: 'https://erp.example.com/hooks', events: ['DocumentReceived', 'DocumentSent'] })).toEqual(['events[1] FIELD.INVALID_VALUE']);
    // A Malaysian lifecycle event is not one of a Peppol area's.
    expect(await refused({ url: 'https://erp.example.com/hooks', events: ['MyInvoisValid'] })).toEqual(['events[0] FIELD.INVALID_VALUE']);
    expect(await refused({ url: 'https://erp.example.com/hooks', events: [] })).toEqual(['events FIELD.TOO_FEW']);
    expect(await refused({ events: ['DocumentReceived'] })).toEqual(['url FIELD.REQUIRED']);
    expect(await refused({ url: 42, events: 'DocumentReceived' })).toEqual(['url FIELD.INVALID_TYPE', 'events FIELD.INVALID_TYPE']);
    expect((await client.get('/de/einvoice/webhooks')).status).toBe(400);
  });

  it('#9 the same URL and events once per supplier (409), and at most WEBHOOK_MAX_PER_SUPPLIER subscriptions (409)', async () => {
    const supplier = await onboard('de', deVat());
    const register = (url: string, events: string[]) => client.post('/de/einvoice/webhooks', { url, events }, { supplier_uuid: supplier });
    expect((await register('https://erp.example.com/once', ['DocumentReceived', 'PeppolReceived'])).status).toBe(201);
    const again = await register('https://erp.example.com/once', ['PeppolReceived', 'DocumentReceived']);
    expect(again.status).toBe(409);
    expect(again.body.errors[0]).toMatchObject({ path: 'url', code: 'WEBHOOK.DUPLICATE' });
    expect((await register('https://erp.example.com/once', ['PeppolReceived'])).status).toBe(201);
    for (let n = 3; n <= 10; n += 1) expect((await register(`https://erp.example.com/hook-${n}`, ['PeppolReceived'])).status).toBe(201);
    const over = await register('https://erp.example.com/hook-11', ['PeppolReceived']);
    expect(over.status).toBe(409);
    expect(over.body.errors[0].code).toBe('WEBHOOK.LIMIT_REACHED');
    const count = await dataSource.query(`SELECT count(*)::int AS n FROM webhook_subscriptions WHERE supplier_id = $1 AND deleted_at IS NULL`, [supplier]);
    expect(count[0].n).toBe(10);
  });

  it('ping sends a signed {"Event":"Ping"} and answers with the attempt; unknown ids are a 404', async () => {
    const endpoint = await receiver([503]);
    const supplier = await onboard('de', deVat());
    const { id, secret } = await subscribe(supplier, endpoint.url);
    const failed = await client.post(`/de/einvoice/webhooks/${id}/ping`, {}, { supplier_uuid: supplier });
    expect(failed.status).toBe(200);
    expect(failed.body.data).toMatchObject({ acknowledged: false, status_code: 503 });
    const pinged = await client.post(`/de/einvoice/webhooks/${id}/ping`, {}, { supplier_uuid: supplier });
    expect(pinged.body.data).toMatchObject({ acknowledged: true, status_code: 200, error: null, duration_ms: expect.any(Number) });
    expect(JSON.parse(endpoint.received[1].body)).toMatchObject({ Event: 'Ping', uuid: id });
    expect(signedCorrectly(secret, endpoint.received[1])).toBe(true);
    expect((await client.post(`/de/einvoice/webhooks/00000000-0000-4000-8000-000000000000/ping`, {}, { supplier_uuid: supplier })).status).toBe(404);
    const notFailed = await client.post(`/de/einvoice/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/resend`, {}, { supplier_uuid: supplier });
    expect(notFailed.status).toBe(404);
    expect(notFailed.body.errors[0].code).toBe('WEBHOOK.DELIVERY_NOT_FOUND');
  });

  it('#44 a pre-#44 secret (base64url) keeps its key bytes: re-encoded in base64 (README), the package verifies', async () => {
    const endpoint = await receiver();
    const supplier = await onboard('de', deVat());
    const { id } = await subscribe(supplier, endpoint.url);
    // The secret stored then: base64url of the key, here with both characters base64 does not have.
    const issued = `whsec_${Buffer.concat([Buffer.from('fbff3e', 'hex'), randomBytes(29)]).toString('base64url')}`;
    expect(issued).toMatch(/^whsec_-_/);
    const sealed = SecretBox.fromKey(Buffer.from(webhookTestEnv.SECRETS_KEY, 'base64')).seal(issued);
    await dataSource.query(`UPDATE webhook_subscriptions SET secret_sealed = $2 WHERE id = $1`, [id, sealed]);
    const pinged = await client.post(`/de/einvoice/webhooks/${id}/ping`, {}, { supplier_uuid: supplier });
    expect(pinged.body.data).toMatchObject({ acknowledged: true, status_code: 200 });
    const reEncoded = 'whsec_' + Buffer.from(issued.slice(6), 'base64url').toString('base64');
    expect(signedCorrectly(reEncoded, endpoint.received[0])).toBe(true);
  });

  it('a delivery refused on every attempt is failed (dead-lettered); re-sent through the API, it is delivered', async () => {
    const endpoint = await receiver(new Array(Number(webhookTestEnv.WEBHOOK_ATTEMPTS)).fill(500));
    const { receiverSupplier, subscription, invoice } = await hostedReceiver(endpoint);
    await invoice();
    const [failed] = await eventually('failed', async () => {
      const rows = await deliveries(receiverSupplier, subscription.id);
      return rows[0]?.status === 'failed' ? rows : undefined;
    });
    expect(failed.attempts).toHaveLength(Number(webhookTestEnv.WEBHOOK_ATTEMPTS));
    // #9: nothing was delivered to it during the whole retry window: the subscription is disabled, visibly.
    const listed = await client.get('/de/einvoice/webhooks', { supplier_uuid: receiverSupplier });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: subscription.id, status: 'disabled', disabled_reason: expect.stringContaining(failed.id) })]);
    // A ping its endpoint answers 2xx enables it again.
    expect((await client.post(`/de/einvoice/webhooks/${subscription.id}/ping`, {}, { supplier_uuid: receiverSupplier })).body.data.acknowledged).toBe(true);
    expect((await client.get('/de/einvoice/webhooks', { supplier_uuid: receiverSupplier })).body.data[0].status).toBe('active');
    const path = `/de/einvoice/webhooks/${subscription.id}/deliveries/${failed.id}/resend`;
    const resent = await client.post(path, {}, { supplier_uuid: receiverSupplier });
    expect(resent.status).toBe(202);
    expect(resent.body.data).toEqual({ id: failed.id, status: 'pending' });
    const [delivered] = await eventually('delivered after re-send', async () => {
      const rows = await deliveries(receiverSupplier, subscription.id);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(delivered.attempts.at(-1)?.status_code).toBe(200);
    const again = await client.post(path, {}, { supplier_uuid: receiverSupplier });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].code).toBe('WEBHOOK.DELIVERY_NOT_FAILED');
  });
});
