import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { isKsefNumber } from '../../libs/areas/src/ksef/ksef-number';
import { FakeKsef } from '../../libs/areas/src/ksef/testing/fake-ksef';
import { makeTestCertificates } from '../../libs/areas/src/shared/testing/certificates';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { AppProcess, eventually, startApp, startGateway, testEnv } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const TOKEN = `ksef-token-${run}`;
const onboarding = {
  registered_name: 'Sprzedawca Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }], street: 'ul. Prosta 1', city: 'Warszawa', postal_code: '00-001', country: 'PL', ksef_token: TOKEN,
};
const invoice = (ID: string) => ({
  ID,
  DocumentType: 'Invoice',
  IssueDate: '2026-11-25',
  CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
  InvoiceLines: [{ Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } }],
  TotalIncludingVat: 246,
});

/**
 * #13 live mode through the apps: the supplier's KSeF token, given at onboarding, is sealed and opened
 * by the reporting worker (KSEF_MODE=live) to sign in to a KSeF speaking the wire format; the invoice
 * goes encrypted in an online session and comes back Accepted with KSeF's number; the worker closes its
 * session when it stops.
 */
describe('#13 Poland in live mode: the KSeF 2.0 client through the apps', () => {
  let dataSource: DataSource;
  let fake: FakeKsef & { url: string };
  let gateway: AppProcess;
  let worker: AppProcess | undefined;
  let client: Client;
  let supplier: string;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    fake = await FakeKsef.start(makeTestCertificates().server);
    fake.grantToken('5260250274', TOKEN);
    const { apiKey } = await createTenant(dataSource, 'e2e ksef live');
    const started = await startGateway({ KSEF_MODE: 'live' });
    gateway = started.app;
    client = new Client(started.url, apiKey);
    worker = startApp('reporting-worker', testEnv({ KSEF_MODE: 'live', KSEF_URL: fake.url, AUTHORITY_POLL_SWEEP_MS: '100' }));
  });

  afterAll(async () => {
    await worker?.stop();
    await gateway?.stop();
    await fake?.stop();
    await dataSource?.destroy();
  });

  it('onboards with a KSeF token that is sealed, never returned; the invoice is signed in, encrypted, sent and Accepted with KSeF\'s number', async () => {
    const onboarded = await client.post('/pl/einvoice/onboard', onboarding);
    expect(onboarded.status).toBe(201);
    expect(JSON.stringify(onboarded.body)).not.toContain(TOKEN);
    supplier = onboarded.body.data.supplier_uuid;
    const [sealed] = await dataSource.query(`SELECT sealed FROM supplier_secrets WHERE supplier_id = $1 AND name = 'ksef.token'`, [supplier]);
    expect(sealed.sealed).not.toContain(TOKEN);

    const headers = { supplier_uuid: supplier, transport_mode: 'ksef' };
    const answer = await client.post('/pl/einvoice/generate/invoice', invoice(`FV/LIVE-${run}`), headers);
    expect(answer.status).toBe(202);
    const documentId = answer.body.data.DocumentID;
    const verdict = await eventually('KSeF accepts', async () => {
      const status = (await client.get(`/pl/einvoice/status/${documentId}`, headers)).body.data;
      return status.Status === 'Submitted' ? undefined : status;
    });
    expect(verdict).toMatchObject({ Status: 'Accepted' });
    expect(isKsefNumber(verdict.KsefNumber)).toBe(true);
    // What KSeF decrypted is the FA(3) the service keeps and shows.
    const xml = (await client.get(`/pl/einvoice/retrieve/${documentId}/xml`, headers)).body;
    expect(fake.sentInvoices().map((i) => i.xml)).toEqual([xml]);
    expect(fake.calls.filter((c) => c === 'POST /auth/ksef-token')).toHaveLength(1);

    await worker?.stop();
    worker = undefined;
    expect([...fake.sessions.values()].map((s) => s.open)).toEqual([false]);
  });
});
