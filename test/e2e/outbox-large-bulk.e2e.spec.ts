// Issue G over HTTP: a 100-document MyInvois bulk with transport_mode: peppol is one event of
// several MB (Kafka's default limit is 1 MB); it must reach the reporting worker and every
// document must become valid.
import { randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { invoiceBody, line, sst } from '../../libs/areas/src/myinvois/fixtures/bodies';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { onboardMyInvoisSupplier } from '../support/myinvois';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36);

describe('#G a 100-document MyInvois bulk with PINT MY copies (an event over Kafka\'s 1 MB default) reaches valid: gateway + reporting-worker + delivery-worker', () => {
  let dataSource: DataSource;
  let client: Client;
  let supplier: string;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e large bulk');
    const gateway = await startGateway({ MYINVOIS_MODE: 'sandbox', MYINVOIS_WAIT_MS: '1000' });
    apps.push(gateway.app);
    apps.push(startApp('reporting-worker', testEnv({ MYINVOIS_MODE: 'sandbox', MYINVOIS_POLL_MS: '500', MYINVOIS_SANDBOX_VALIDATION_MS: '1000' })));
    apps.push(startApp('delivery-worker'));
    client = new Client(gateway.url, apiKey);
    supplier = await onboardMyInvoisSupplier(client, `client-${run}`);
  }, 120_000);

  afterAll(async () => {
    for (const app of apps.reverse()) await app.stop();
    await dataSource?.destroy();
  });

  it('accepts the bulk, relays its one large event, and MyInvois validates all 100 documents', async () => {
    // Ten lines of 300 random characters each: a few MB of event, and GZIP cannot hide it.
    const bulk = Array.from({ length: 100 }, (_, i) =>
      invoiceBody({ ID: `BIG-${run}-${i}`, InvoiceLines: Array.from({ length: 10 }, () => line(randomBytes(225).toString('base64'), 1, 10, [sst()])) }),
    );

    const answer = await client.post('/api/einvoice/generate/invoice/bulk', bulk, { supplier_uuid: supplier, transport_mode: 'peppol' });

    expect([200, 202]).toContain(answer.status);
    const submissionId: string = answer.body.data.submissionId;
    // One report per document, the bulk's documents as its batch: several MB through the outbox and Kafka in one request.
    const [{ bytes }] = await dataSource.query(`SELECT sum(octet_length(data::text)) AS bytes FROM events WHERE type = 'AuthorityReportRequested' AND data->>'batchKey' = $1`, [submissionId]);
    expect(Number(bytes)).toBeGreaterThan(2 * 1024 * 1024);
    await eventually('every document to be valid', async () => {
      const [{ valid }] = await dataSource.query(`SELECT count(*)::int AS valid FROM documents WHERE batch_key = $1 AND report_state = 'reported'`, [submissionId]);
      return valid === 100 ? true : undefined;
    }, 120_000);
    const states = await Promise.all(bulk.map(async (body) => (await client.get(`/api/einvoice/documents/${body.ID}`, { supplier_uuid: supplier })).body.data.state));
    expect(new Set(states)).toEqual(new Set(['valid']));
  });
});
