/**
 * #48 "every area's document, sent through its seed route, produces its events on /v1/events and on a matching
 * webhook": the same first documents, with one account-wide webhook endpoint registered through the client before
 * them; each area's events read back from `GET /v1/events?area=` and each one received, signed, by the endpoint
 * (verified by the official `standardwebhooks` package), with the same body.
 *
 * #47 "one e2e test per area sends its first document through that client": the TypeScript client
 * generated from the OpenAPI document (clients/typescript: openapi-typescript + openapi-fetch) sends each
 * area's README first document, its bodies the document's examples named `first` as they are (the
 * README's bodies with concrete values: test/unit/openapi-document.unit.spec.ts holds them equal). A
 * database of its own: the examples' literal identifiers may be other tests' too.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@einvoice/domain/infrastructure';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { gatewayClient } from '../../clients/typescript';
import { FIRST_DOCUMENTS, firstExamples, type OpenApiDocumentJson } from '../support/first-documents';
import { answerChecker } from '../support/openapi-answers';
import { ownDatabase, prepareOwnDatabase } from '../support/own-database';
import { readmeExamples } from '../support/readme-examples';
import { type AppProcess, startApp, startGateway, testEnv, untilWorkersReady } from '../support/stack';
import { eventually } from '../support/wait';
import { WebhookReceiver, signedCorrectly } from '../support/webhook-receiver';

const ROOT = path.resolve(__dirname, '..', '..');

describe('#47 the first document of every area, through the generated client', () => {
  const own = ownDatabase('client');
  const env = testEnv({ ...own.env, AUTHORITY_WAIT_MS: '20000', MYINVOIS_WAIT_MS: '8000' });
  const apps: AppProcess[] = [];
  let dataSource: DataSource;
  let api: ReturnType<typeof gatewayClient>;
  const receiver = new WebhookReceiver();
  let secret: string;
  const document = JSON.parse(readFileSync(path.join(ROOT, 'clients', 'typescript', 'openapi.json'), 'utf8')) as OpenApiDocumentJson;
  const first = firstExamples(document);
  const documented = answerChecker(document as unknown as Record<string, unknown>);

  beforeAll(async () => {
    await prepareOwnDatabase(env, 'the generated client\'s e2e');
    dataSource = createDataSource({ databaseUrl: own.databaseUrl, poolSize: 2, applicationName: 'einvoice-test-client' });
    await dataSource.initialize();
    const { apiKey } = await createTenant(dataSource, 'generated client');
    const gateway = await startGateway(env as Record<string, string>);
    apps.push(gateway.app);
    for (const worker of ['reporting-worker', 'delivery-worker', 'webhook-dispatcher'] as const) apps.push(startApp(worker, env));
    await untilWorkersReady(gateway, 'reporting-worker', 'delivery-worker', 'webhook-dispatcher');
    api = gatewayClient({ baseUrl: gateway.url, apiKey });
    await receiver.start();
    const { data, response } = await api.POST('/v1/webhooks', { body: { url: receiver.url, description: 'every event of the account' } });
    expect(response.status).toBe(201);
    secret = data!.data.secret!;
  }, 180_000);

  afterAll(async () => {
    await receiver.close();
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource?.destroy();
  });

  it('has a first document for each first-document block of the README', () => {
    const areas = readmeExamples(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).map(({ area }) => area);
    expect(Object.keys(FIRST_DOCUMENTS).sort()).toEqual([...areas].sort());
  });

  it.each(Object.keys(FIRST_DOCUMENTS))('%s: onboards, sends and reads back its first document, each answer a 2xx as documented', async (area) => {
    const sent = await FIRST_DOCUMENTS[area](api, first);
    expect(sent.map(({ operation, status }) => ({ operation, ok: status >= 200 && status < 300 }))).toEqual(sent.map(({ operation }) => ({ operation, ok: true })));
    // Each answer matches the schema the document gives for its status.
    expect(sent.flatMap(({ operation, status, answer }) => {
      const [method, route] = operation.split(' ');
      return documented(method, route, status, answer);
    })).toEqual([]);
  });

  // The areas whose first document is a document (the Peppol directory's is a participant).
  const DOCUMENT_AREAS = Object.keys(FIRST_DOCUMENTS).filter((area) => area !== 'peppol');

  it.each(DOCUMENT_AREAS)('%s: its first document\'s events on /v1/events (accepted, then reported or delivered), each one on the account webhook, signed', async (area) => {
    type Listed = { id: string; type: string; area: string; document_id: string };
    const events = await eventually(`${area}: accepted and a final event on /v1/events`, async () => {
      const { data, response } = await api.GET('/v1/events', { params: { query: { area } } });
      expect(response.status).toBe(200);
      const listed = (data!.data as Listed[]).filter((event) => event.area === area);
      const types = listed.map((event) => event.type);
      return types.includes('document.accepted') && types.some((type) => type === 'document.reported' || type === 'document.delivered') ? listed : undefined;
    }, 90_000);
    const received = await eventually(`${area}: every event received by the webhook`, async () => {
      const byId = new Map(receiver.received.map((hook) => [String(hook.headers['webhook-id']), hook]));
      return events.every((event) => byId.has(event.id)) ? byId : undefined;
    }, 60_000);
    for (const event of events) {
      const hook = received.get(event.id)!;
      expect(signedCorrectly(secret, hook)).toBe(true);
      expect(JSON.parse(hook.body)).toEqual(event);
    }
  });
});
