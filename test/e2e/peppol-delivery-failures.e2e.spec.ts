import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';
import { Client } from '../support/http';
import { beVat } from '../support/identifiers';
import { AppProcess, eventually, startApp, startGateway } from '../support/stack';

const run = Date.now().toString(36);

/** A Belgian invoice to a buyer whose only identifier is `buyerVat` (the sandbox's failure injection picks the receiver). */
const invoice = (ID: string, buyerVat: string) => ({
  ID, DocumentType: '380', IssueDate: '2026-03-15',
  CustomerParty: { RegisteredName: 'Sandbox Buyer BV', address: { Street: 'Meir 1', ZipCode: '2000', City: 'Antwerpen', Country: 'BE' }, Identifiers: [{ Scheme: 'BE:VAT', ID: buyerVat }] },
  InvoiceLines: [{ Description: 'Consulting', PriceAmount: 100, InvoicedQuantity: 1, TaxType: { TaxRate: 21, TaxType: 'standard', TaxCountry: 'BE' } }],
  TotalIncludingVat: 121,
});

/**
 * #8: Peppol failure paths are visible failures, never `Scheduled` for good and never `Delivered`:
 * a negative Message Level Status (RE), a receiver no access point serves, and a receiving access
 * point that never answers (retried, then dead-lettered). Sandbox receivers: the delivery worker's
 * SANDBOX_RECEIVERS (valid Belgian VAT numbers no company holds).
 */
describe('#8 Peppol delivery failures over HTTP', () => {
  let dataSource: DataSource;
  let client: Client;
  let supplier: string;
  const apps: AppProcess[] = [];

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    const { apiKey } = await createTenant(dataSource, 'e2e delivery failures');
    const gateway = await startGateway();
    apps.push(gateway.app, startApp('delivery-worker'));
    client = new Client(gateway.url, apiKey);
    const onboarded = await client.post('/be/einvoice/onboard', {
      registered_name: 'Brussels Widgets NV', identifiers: [{ scheme: 'BE:VAT', id: beVat() }], city: 'Brussels', country: 'BE',
    });
    supplier = onboarded.body.data.supplier_uuid;
  });

  afterAll(async () => {
    for (const app of apps) await app.stop();
    await dataSource?.destroy();
  });

  async function failed(ID: string, buyerVat: string) {
    const submitted = await client.post('/be/einvoice/generate/invoice', invoice(ID, buyerVat), { supplier_uuid: supplier });
    expect(submitted.status).toBe(202);
    const id = submitted.body.data.DocumentID;
    const status = await eventually(`${ID} failed`, async () => {
      const answer = await client.get(`/be/einvoice/delivery-status/${id}`, { supplier_uuid: supplier });
      return answer.body.data.DeliveryStatus === 'Scheduled' ? undefined : answer;
    });
    const document = await client.get(`/be/einvoice/get-document/${id}`, { supplier_uuid: supplier });
    return { status: status.body.data, document: document.body.data };
  }

  it('a negative Message Level Status (RE) is a failure with its reason, not Delivered', async () => {
    const { status, document } = await failed(`RE-${run}`, 'BE0000000097');
    expect(status).toEqual({ DocumentID: expect.any(String), DeliveryStatus: 'Failed', DeliveryFailure: { code: 'PEPPOL.REJECTED_BY_RECEIVER', message: expect.any(String) } });
    expect(document.DeliveryFailure.code).toBe('PEPPOL.REJECTED_BY_RECEIVER');
  });

  it('a receiver no access point serves fails at once (not retried)', async () => {
    const { status } = await failed(`UNKNOWN-${run}`, 'BE0000000196');
    expect(status.DeliveryFailure.code).toBe('PEPPOL.RECEIVER_NOT_FOUND');
  });

  it('an access point that never answers: retried, dead-lettered, then Failed with the last error', async () => {
    const { status } = await failed(`DOWN-${run}`, 'BE0000000295');
    expect(status.DeliveryStatus).toBe('Failed');
    expect(status.DeliveryFailure).toEqual({ code: 'PEPPOL.ACCESS_POINT_UNAVAILABLE', message: expect.stringMatching(/^Not delivered after 5 attempt\(s\)/) });
  });
});
