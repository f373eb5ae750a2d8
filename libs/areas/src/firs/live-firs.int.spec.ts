// The FIRS steps through the live transport against a local FIRS speaking the MBS wire format (testing/fake-firs.ts).
import { generateKeyPairSync } from 'node:crypto';
import type { SupplierProfile } from '@einvoice/domain';
import type { AuthorityReport } from '../registry/authority';
import { firsDocuments, firsOnboarding } from './codec';
import { FirsConnector, type FirsPayload } from './connector';
import { LiveFirsTransport } from './live-firs';
import { FakeFirs } from './testing/fake-firs';

const keys = (() => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
  return { publicKey: pair.publicKey, certificate: 'Y2VydGlmaWNhdGU=' };
})();
const body = (documentIdentifier: string, amount = 100) => ({
  document_identifier: documentIdentifier, issue_date: '2026-11-25', issue_time: '10:00:00', invoice_type_code: '380',
  accounting_customer_party: { party_name: 'B', tin: '87654321-0001', email: 'b@example.com', postal_address: { country: 'NG' } },
  invoice_line: [{ hsn_code: 'X', product_category: 'Y', invoiced_quantity: 1, line_extension_amount: amount, item: { name: 'Z' }, price: { price_amount: amount } }],
});

describe('FIRS through the live transport against a wire-format FIRS', () => {
  let fake: FakeFirs & { url: string };
  let connector: FirsConnector;
  let supplier: SupplierProfile;

  beforeEach(async () => {
    fake = await FakeFirs.start('api-key', 'api-secret');
    connector = new FirsConnector(new LiveFirsTransport({ baseUrl: fake.url, apiKey: 'api-key', apiSecret: 'api-secret', timeoutMs: 5_000 }), async () => keys);
    const profile = firsOnboarding.parse({ party_name: 'S', tin: '12345678-0001', email: 's@example.com', password: 'p', business_description: 'd', postal_address: { country: 'NG' } });
    const check = await connector.verifyCredentials({ 'firs.email': 's@example.com', 'firs.password': 'p' }, profile);
    if ('refused' in check) throw new Error('login refused');
    supplier = { ...profile, areaDetails: { ...profile.areaDetails, ...check.details } };
  });
  afterEach(() => fake.stop());

  function report(documentIdentifier: string, amount?: number): AuthorityReport<FirsPayload> {
    const parsed = firsDocuments.parse(body(documentIdentifier, amount), supplier);
    return { reportId: documentIdentifier, tenantId: 't', supplierId: 's', payload: parsed.payload as unknown as FirsPayload, document: firsDocuments.render(parsed, supplier, 'doc') };
  }

  it('validates the IRN, validates and signs the invoice, with the service\'s x-api-key and x-api-secret', async () => {
    const outcome = await connector.submit(report('INV-1'));
    expect(outcome).toMatchObject({ kind: 'accepted', final: true, receipt: { irn: expect.stringMatching(/^INV1-[0-9A-F]{8}-20261125$/), qr: expect.any(String), authorityResponse: { code: 201, data: { ok: true } } } });
    expect(fake.calls).toEqual(['POST utilities/authenticate', 'POST invoice/irn/validate', 'POST invoice/validate', 'POST invoice/sign']);
  });

  it('a lost signing answer: confirm finds it signed, and it is never signed twice', async () => {
    const r = report('INV-2');
    fake.loseNextAnswer('invoice/sign');
    await expect(connector.submit(r)).rejects.toMatchObject({ retriable: true });
    expect(await connector.recover(r)).toMatchObject({ kind: 'accepted', final: true, receipt: { irn: r.payload.irn } });
    expect(await connector.submit(r)).toMatchObject({ kind: 'rejected', error: { code: 'FIRS.IRN_VALIDATION_400' } });
    expect(fake.store.signatures.size).toBe(1);
    expect(await connector.recover(report('INV-NEVER'))).toBeUndefined();
  });

  it('refusals name their step; 5xx and bad API credentials are retriable / refused', async () => {
    fake.failNext('invoice/validate', 400);
    expect(await connector.submit(report('INV-3'))).toMatchObject({ kind: 'rejected', error: { code: 'FIRS.INVOICE_VALIDATION_400' } });
    fake.failNext('invoice/sign', 503);
    await expect(connector.submit(report('INV-4'))).rejects.toMatchObject({ code: 'FIRS.UNAVAILABLE', retriable: true });
    expect(await connector.submit(report('INV-4'))).toMatchObject({ kind: 'accepted' });
    const wrong = new FirsConnector(new LiveFirsTransport({ baseUrl: fake.url, apiKey: 'api-key', apiSecret: 'wrong' }), async () => keys);
    expect(await wrong.verifyCredentials({ 'firs.email': 's@example.com', 'firs.password': 'p' }, supplier)).toMatchObject({ refused: { path: 'password' } });
  });
});
