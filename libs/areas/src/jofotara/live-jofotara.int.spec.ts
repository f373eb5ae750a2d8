// The live JoFotara client against a local JoFotara speaking its wire format (testing/fake-jofotara.ts).
import type { SupplierProfile } from '@einvoice/domain';
import type { AuthorityReport } from '../registry/authority';
import { CLIENT_ID_SECRET, CLIENT_SECRET_SECRET, jofotaraDocuments } from './codec';
import { LiveJofotara } from './live-jofotara';
import { FakeJofotara } from './testing/fake-jofotara';

const supplier: SupplierProfile = { registeredName: 'S', identifiers: [{ scheme: 'JO:TIN', id: '12345678' }], country: 'JO', areaDetails: { incomeSource: '1234567', invoiceClass: 'general_sales' } };
const body = (number: string, rate = 0.16) => ({
  invoice_ref_number: number, issue_date: '2026-11-25', issue_time: '10:30:00', buyer_details: { buyer_tin: '87654321', buyer_name: 'B' },
  lineitems: [{ description: 'Item', quantity: 2, tax_exclusive_price: 10, tax_percentage: rate, tax_category: 'Standard' }],
});
async function report(number: string, uuid: string, rate?: number): Promise<AuthorityReport> {
  const linked = await jofotaraDocuments.chain!.link(jofotaraDocuments.parse(body(number, rate), supplier), supplier, { documentId: uuid, at: new Date() });
  return { reportId: uuid, tenantId: 't', supplierId: 'supplier', payload: {}, document: linked.document };
}

describe('the live JoFotara client against a wire-format JoFotara', () => {
  let fake: FakeJofotara & { url: string };
  let client: LiveJofotara;
  let credentials: { clientId: string; secret: string } | undefined;

  beforeEach(async () => {
    fake = await FakeJofotara.start();
    fake.linkDevice('device-1', 'secret-1');
    credentials = { clientId: 'device-1', secret: 'secret-1' };
    client = new LiveJofotara({ baseUrl: fake.url, credentialsOf: async () => credentials, timeoutMs: 5_000 });
  });
  afterEach(() => fake.stop());

  it('sends the invoice base64 with the device\'s headers and reads SUBMITTED, then ALREADY_SUBMITTED on a resend', async () => {
    const r = await report('INV-1', '11111111-1111-4111-8111-111111111111');
    const first = await client.submit(r);
    expect(first).toMatchObject({ kind: 'accepted', final: true, receipt: { status: 'SUBMITTED', uuid: '11111111-1111-4111-8111-111111111111', number: 'EIN00001', qr: expect.any(String), signedInvoice: expect.any(String) } });
    expect(fake.received[0]).toEqual({ clientId: 'device-1', xml: r.document.bytes });
    expect(await client.submit(r)).toMatchObject({ kind: 'accepted', receipt: { status: 'ALREADY_SUBMITTED', number: 'EIN00001' } });
    expect(fake.store.invoices).toHaveLength(1);
  });

  it('a lost answer: the resend is ALREADY_SUBMITTED (nothing twice)', async () => {
    const r = await report('INV-2', '22222222-2222-4222-8222-222222222222');
    fake.loseNextAnswer();
    await expect(client.submit(r)).rejects.toMatchObject({ code: 'JOFOTARA.UNAVAILABLE', retriable: true });
    expect(await client.recover()).toBeUndefined();
    expect(await client.submit(r)).toMatchObject({ kind: 'accepted', receipt: { status: 'ALREADY_SUBMITTED' } });
    expect(fake.store.invoices).toHaveLength(1);
  });

  it('NOT_SUBMITTED is a rejection with every error; 5xx is retriable; 403 is final', async () => {
    const bad = await report('INV-3', '33333333-3333-4333-8333-333333333333');
    const tampered = { ...bad, document: { ...bad.document, bytes: bad.document.bytes.replace(/<cbc:PayableAmount currencyID="JO">[^<]*</, '<cbc:PayableAmount currencyID="JO">1.000<') } };
    expect(await client.submit(tampered)).toMatchObject({ kind: 'rejected', error: { code: 'NOT_SUBMITTED', details: [{ code: 'totalPayableAmount' }] } });
    fake.failNext(503);
    await expect(client.submit(bad)).rejects.toMatchObject({ retriable: true });
    credentials = { clientId: 'device-1', secret: 'wrong' };
    await expect(client.submit(bad)).rejects.toMatchObject({ code: 'JOFOTARA.403', retriable: false });
  });

  it('checks credentials without issuing anything: 403 is a refusal at client_id', async () => {
    expect(await client.verifyCredentials({ [CLIENT_ID_SECRET]: 'device-1', [CLIENT_SECRET_SECRET]: 'secret-1' })).toEqual({});
    expect(await client.verifyCredentials({ [CLIENT_ID_SECRET]: 'device-1', [CLIENT_SECRET_SECRET]: 'nope' })).toMatchObject({ refused: { code: 'JOFOTARA.403', path: 'client_id' } });
    expect(fake.store.invoices).toHaveLength(0);
  });
});
