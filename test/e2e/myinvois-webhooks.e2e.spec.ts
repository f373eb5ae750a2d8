import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { invoiceBody } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { myInvoisDocuments, onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, eventually, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';
import { WebhookReceiver, signedCorrectly, webhookTestEnv } from '../support/webhook-receiver';

const run = Date.now().toString(36);
const id = (name: string) => `${name}-${run}`;
const portal = 'https://preprod.myinvois.hasil.gov.my';

describe('MyInvois lifecycle webhooks over HTTP (README "Webhooks"): /api/einvoice/webhooks, one signed webhook per document; sandbox mode', () => {
  let dataSource: DataSource;
  let client: Client;
  let supplier: string;
  const apps: AppProcess[] = [];
  const receivers: WebhookReceiver[] = [];

  const headers = () => ({ supplier_uuid: supplier, transport_mode: 'myinvois' });
  const documents = () => myInvoisDocuments(client, () => supplier);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const gateway = await startGateway({ ...webhookTestEnv, MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '8000' });
    client = new Client(gateway.url, (await createTenant(dataSource, 'e2e myinvois webhooks')).apiKey);
    apps.push(
      gateway.app,
      startApp('reporting-worker', testEnv({ ...webhookTestEnv, MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000' })),
      startApp('webhook-dispatcher', testEnv(webhookTestEnv)),
    );
    await untilWorkersReady(gateway, 'reporting-worker', 'webhook-dispatcher');
    supplier = await onboardMyInvoisSupplier(client, `hooks-${run}`);
  });

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await Promise.all(receivers.map((r) => r.close()));
    await dataSource?.destroy();
  });

  async function receiver(): Promise<WebhookReceiver> {
    const r = await new WebhookReceiver().start();
    receivers.push(r);
    return r;
  }

  async function subscribe(url: string, events: string[]): Promise<{ id: string; secret: string }> {
    const answer = await client.post('/api/einvoice/webhooks', { url, events }, headers());
    expect(answer.status).toBe(201);
    expect(answer.body.data).toMatchObject({ url, events, secret: expect.stringMatching(/^whsec_/) });
    return { id: answer.body.data.id, secret: answer.body.data.secret };
  }

  /** The id of the event that moved the document: the Webhook-Id of its webhook. */
  const eventIdOf = async (type: string, documentId: string): Promise<string> =>
    (await dataSource.query(`SELECT event_id FROM events WHERE type = $1 AND data->>'documentId' = $2`, [type, documentId]))[0].event_id;
  const bodies = (r: WebhookReceiver) => r.received.map((w) => JSON.parse(w.body));

  it('a bulk with one valid and one INVALID document: exactly one signed webhook per document with its body; a cancel sends MyInvoisCancelled to the subscription asking for it', async () => {
    const verdicts = await receiver();
    const cancellations = await receiver();
    const verdictHook = await subscribe(verdicts.url, ['MyInvoisValid', 'MyInvoisInvalid']);
    const cancelHook = await subscribe(cancellations.url, ['MyInvoisCancelled']);

    const bulk = await client.post('/api/einvoice/generate/invoice/bulk', [invoiceBody({ ID: id('HOOK-OK') }), invoiceBody({ ID: id('HOOK-INVALID') })], headers());
    expect(bulk.status).toBe(200);
    const valid = await documents().untilState(id('HOOK-OK'), 'valid');
    const invalid = await documents().untilState(id('HOOK-INVALID'), 'invalid');
    await eventually('two webhooks', async () => (verdicts.received.length >= 2 ? true : undefined));
    // Nothing else follows (no duplicate, no other event): the deliveries API says both are done.
    const delivered = await eventually('both delivered', async () => {
      const answer = await client.get(`/api/einvoice/webhooks/${verdictHook.id}/deliveries`, headers());
      const rows = answer.body.data as Array<{ status: string; event_type: string }>;
      return rows.length === 2 && rows.every((r) => r.status === 'delivered') ? rows : undefined;
    });
    expect(delivered.map((r) => r.event_type).sort()).toEqual(['MyInvoisInvalid', 'MyInvoisValid']);
    expect(verdicts.received).toHaveLength(2);
    expect(verdicts.received.every((r) => signedCorrectly(verdictHook.secret, r))).toBe(true);
    expect(verdicts.received.every((r) => !signedCorrectly(cancelHook.secret, r))).toBe(true);

    const byType = new Map(verdicts.received.map((r) => [JSON.parse(r.body).EventType, r]));
    const validHook = byType.get('MyInvoisValid')!;
    const invalidHook = byType.get('MyInvoisInvalid')!;
    expect(validHook.headers['webhook-id']).toBe(await eventIdOf('AuthorityReportValidated', valid.documentId));
    expect(invalidHook.headers['webhook-id']).toBe(await eventIdOf('AuthorityReportInvalidated', invalid.documentId));
    expect(JSON.parse(validHook.body)).toEqual({
      Event: 'DocumentValidated', EventType: 'MyInvoisValid', EventGroup: 'Invoice', uuid: valid.uuid, DocumentId: id('HOOK-OK'), Status: 'valid',
      GatewayDocumentId: valid.documentId, LongId: valid.longId, ValidationLink: `${portal}/${valid.uuid}/share/${valid.longId}`, Reason: null, Error: null,
      OccurredAt: valid.validatedAt,
    });
    expect(JSON.parse(invalidHook.body)).toEqual({
      Event: 'DocumentInvalidated', EventType: 'MyInvoisInvalid', EventGroup: 'Invoice', uuid: invalid.uuid, DocumentId: id('HOOK-INVALID'), Status: 'invalid',
      GatewayDocumentId: invalid.documentId, LongId: null, ValidationLink: null, Reason: invalid.error.message, Error: null, OccurredAt: expect.any(String),
    });
    expect(cancellations.received).toEqual([]);

    const cancelled = await client.post(`/api/einvoice/documents/${valid.documentId}/cancel`, { reason: 'Wrong buyer' }, headers());
    expect(cancelled.status).toBe(200);
    await eventually('the cancellation webhook', async () => (cancellations.received.length > 0 ? true : undefined));
    expect(bodies(cancellations)).toEqual([
      expect.objectContaining({ Event: 'DocumentCancelled', EventType: 'MyInvoisCancelled', uuid: valid.uuid, DocumentId: id('HOOK-OK'), Status: 'cancelled', LongId: valid.longId }),
    ]);
    expect(signedCorrectly(cancelHook.secret, cancellations.received[0])).toBe(true);
    expect(cancellations.received[0].headers['webhook-id']).toBe(await eventIdOf('AuthorityReportCancelled', valid.documentId));
    expect(verdicts.received).toHaveLength(2);
  });

  it('the Peppol areas\' operations under /api/einvoice/webhooks: unknown names are a 400 naming events[i]; list, ping, delete; another area\'s route is a 404', async () => {
    const refused = await client.post('/api/einvoice/webhooks', { url: 'https://erp.example.com/hooks', events: ['MyInvoisValid', 'MyInvoisSubmitted'] }, headers());
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((e: { path: string; code: string }) => `${e.path} ${e.code}`)).toEqual(['events[1] FIELD.INVALID_VALUE']);
    expect(refused.body.errors[0].message).toContain('MyInvoisRejectedByBuyer');

    const endpoint = await receiver();
    // PeppolReceived: a Malaysian supplier registered as a Peppol participant here receives over Peppol.
    const hook = await subscribe(endpoint.url, ['MyInvoisRejected', 'MyInvoisRejectedByBuyer', 'PeppolReceived']);
    const listed = await client.get('/api/einvoice/webhooks', headers());
    expect(listed.status).toBe(200);
    expect(listed.body.data).toContainEqual({
      id: hook.id, url: endpoint.url, events: ['MyInvoisRejected', 'MyInvoisRejectedByBuyer', 'PeppolReceived'], description: null, created_at: expect.any(String), status: 'active', disabled_reason: null,
    });
    const pinged = await client.post(`/api/einvoice/webhooks/${hook.id}/ping`, {}, headers());
    expect(pinged.body.data).toMatchObject({ acknowledged: true, status_code: 200 });
    expect(signedCorrectly(hook.secret, endpoint.received[0])).toBe(true);
    // A Malaysian supplier is not one of /de's.
    expect((await client.get('/de/einvoice/webhooks', headers())).status).toBe(404);
    const deleted = await client.request('DELETE', `/api/einvoice/webhooks/${hook.id}`, { headers: headers() });
    expect(deleted.body.data).toEqual({ id: hook.id, deleted: true });
    expect((await client.get('/api/einvoice/webhooks', headers())).body.data.map((h: { id: string }) => h.id)).not.toContain(hook.id);
  });
});
