/**
 * One stack and one document per area, as each area's README example sends it (identifiers fresh per run): the
 * set-up the e2e tests that read every area's documents through `/v1/documents` share (the list and detail,
 * account-documents-areas.e2e.spec.ts; the printed views, document-views.e2e.spec.ts).
 */
import { randomInt } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from './database';
import { Client } from './http';
import { sgUen } from './identifiers';
import { AppProcess, startApp, startGateway, type StartedGateway, testEnv, untilWorkersReady } from './stack';

/** This run's tag: document numbers and device ids differ from every earlier run's. */
export const run = Date.now().toString(36).toUpperCase();
/** A document number unique to this run. */
export const id = (name: string): string => `${name}-${run}`;

export const sgSupplier = (uen: string) => ({ registered_name: 'Lion City Pte Ltd', identifiers: [{ scheme: 'SG:UEN', id: uen }], street: '1 Raffles Place', city: 'Singapore', postal_code: '048616', country: 'SG' });
/** 200 SGD + 9 % GST to a buyer hosted at another access point (the sandbox AP delivers it): 218 due. */
/** The Singapore invoices' buyer's UEN (one per run): the list's counterparty id (#50). */
export const sgBuyerUen = sgUen();
export const sgInvoice = (ID: string) => ({
  ID, DocumentType: 'Invoice', IssueDate: '2026-03-15',
  CustomerParty: { RegisteredName: 'Marina Buyer Pte Ltd', address: { Street: '10 Pasir Panjang Road', ZipCode: '117438', City: 'Singapore', Country: 'SG' }, Identifiers: [{ Scheme: 'SG:UEN', ID: sgBuyerUen }] },
  InvoiceLines: [{ Description: 'Cloud hosting', PriceAmount: 200, InvoicedQuantity: 1, TaxType: { TaxRate: 9, TaxType: 'standard', TaxCountry: 'SG' } }],
  TotalIncludingVat: 218,
});

export const aeTin = (): string => `1${String(randomInt(0, 1e9)).padStart(9, '0')}`;
export const aeParticipant = (tin: string, legal_name = 'Gulf Widgets LLC') => ({
  peppol_id: `0235:${tin}`, legal_name, trn: `${tin}00003`, legal_id: { id: `TL-${tin}`, scheme: 'TL', authority: 'Dubai Economy and Tourism' },
  street_address: 'Sheikh Zayed Road 1', city: 'Dubai', emirates_code: 'DXB', country_code: 'AE',
});
/** A tax invoice (380) in AED to a buyer served by another access point (delivered over Peppol, reported to the FTA): 1,050.00 due. */
export const aeInvoice = (document_identifier: string) => ({
  document_identifier, issue_date: '2026-07-01', document_type: '380', document_currency: 'AED', due_date: '2026-07-31', flags: {},
  receiving_party: { peppol_id: '0235:1345678901', legal_name: 'Abu Dhabi Buyer LLC', street_address: 'Khalifa Street 9', city: 'Abu Dhabi', emirates_code: 'AUH', country_code: 'AE', trn: '134567890123003' },
  payment_means: [{ type_code: '30', payment_account_id: 'AE070331234567890123456' }],
  lines: [{ item_name: 'Widget', quantity: '10', unit_code: 'H87', unit_price: '100.00', tax_category: 'S', tax_percentage: '5' }],
});

/** JoFotara's device is the supplier's: one per run. */
export const joSupplier = () => ({ supplier_name: 'Amman Stationery Co', supplier_tin: '12345678', default_income_source: '4419618', client_id: `device-${run}`, client_secret: 'secret-of-the-device', city_code: 'JO-AM' });
/** 4 pens at 2.500 JOD + 16 %: 11.600 due. */
export const joInvoice = (invoice_ref_number: string, buyer_name = 'Irbid Buyer') => ({
  invoice_ref_number, issue_date: '2026-11-25', issue_time: '10-30-00', buyer_details: { buyer_name, buyer_tin: '87654321', city_code: 'JO-IR' },
  lineitems: [{ description: 'Pen', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard' }],
});

/** A taxpayer with a TIN fresh per call. */
export const ngTaxpayer = () => ({
  party_name: 'Lagos Trading Ltd', tin: `${String(Date.now()).slice(-8)}-0001`, email: 'billing@lagostrading.example', password: 'portal-password-1', telephone: '+2348012345678',
  business_description: 'Wholesale of electronics', postal_address: { street_name: '12 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' },
});
/** 3 routers at 100 NGN + 7.5 % VAT: 322.50 due. */
export const ngInvoice = (document_identifier: string) => ({
  document_identifier, issue_date: '2026-11-25', due_date: '2026-12-25', issue_time: '17-59-04', invoice_type_code: '380', document_currency_code: 'NGN', tax_currency_code: 'NGN',
  accounting_customer_party: { party_name: 'Abuja Buyer Ltd', tin: '87654321-0001', email: 'ap@abujabuyer.example', postal_address: { street_name: '1 Garki', city_name: 'Abuja', postal_zone: '900001', country: 'NG' } },
  invoice_line: [{ hsn_code: 'CC-001', product_category: 'Electronics', invoiced_quantity: 3, line_extension_amount: 300, item: { name: 'Router', description: 'Wi-Fi router' }, price: { price_amount: 100, base_quantity: 1, price_unit: 'NGN per 1' } }],
  tax_total: [{ tax_amount: 22.5, tax_subtotal: [{ taxable_amount: 300, tax_amount: 22.5, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }],
});

/** Today in Argentina (UTC−3), AFIP's CbteFch. */
export const arToday = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
/** A Factura A without numbers: the gateway takes the sequence's next one (#44) and AFIP's sandbox gives its CAE. */
export const arVoucher = {
  CantReg: 1, PtoVta: 1, CbteTipo: 1, Concepto: 1, DocTipo: 80, DocNro: 30712345671, CbteFch: arToday.replace(/-/g, ''),
  ImpTotal: 121, ImpTotConc: 0, ImpNeto: 100, ImpOpEx: 0, ImpIVA: 21, ImpTrib: 0, MonId: 'PES', MonCotiz: 1, Iva: [{ Id: 5, BaseImp: 100, Importe: 21 }],
};

/** The stack every area's document goes through, two accounts on it, and the area routes' two steps. */
export interface AreasStack {
  readonly dataSource: DataSource;
  readonly gateway: StartedGateway;
  /** The account the documents are sent in, and another that must see none of them. */
  readonly client: Client;
  readonly other: Client;
  /** Onboards a supplier through its area's route (201): its id (`supplier_uuid` or `participant_id`). */
  onboard(pathname: string, body: Record<string, unknown>): Promise<string>;
  /** Sends a document through its area's route: the answer's body, accepted (202) or with the authority's verdict (200). */
  submitted(pathname: string, body: unknown, headers?: Record<string, string>): Promise<any>;
  stop(): Promise<void>;
}

/**
 * The gateway, the delivery and the reporting worker on the test database, with the sandboxes' sweeps fast, and two
 * new accounts named after `name`. `env` adds to the gateway's and the workers' environment (an area's mode, limits).
 * Resolves once the workers are ready: Jordan, Nigeria and Argentina answer with their authority's verdict, which
 * the reporting worker fetches.
 */
export async function startAreasStack(name: string, env: { gateway?: Record<string, string>; workers?: Record<string, string> } = {}): Promise<AreasStack> {
  const { dataSource } = await openTestDatabase();
  const { apiKey } = await createTenant(dataSource, `${name} ${run}`);
  const { apiKey: otherKey } = await createTenant(dataSource, `${name} other ${run}`);
  const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100', AUTHORITY_BATCH_SWEEP_MS: '100', UAE_SANDBOX_FTA_MLS_MS: '200', ...env.workers });
  const gateway = await startGateway({ AUTHORITY_WAIT_MS: '20000', ...env.gateway });
  const apps: AppProcess[] = [gateway.app, startApp('delivery-worker', workerEnv), startApp('reporting-worker', workerEnv)];
  const stop = async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await dataSource.destroy();
  };
  try {
    await untilWorkersReady(gateway, 'delivery-worker', 'reporting-worker');
  } catch (error) {
    await stop();
    throw error;
  }
  const client = new Client(gateway.url, apiKey);
  return {
    dataSource, gateway, client, other: new Client(gateway.url, otherKey), stop,
    async onboard(pathname, body) {
      const answer = await client.post(pathname, body);
      expect({ pathname, status: answer.status }).toEqual({ pathname, status: 201 });
      return (answer.body.data.supplier_uuid ?? answer.body.data.participant_id) as string;
    },
    async submitted(pathname, body, headers = {}) {
      const answer = await client.post(pathname, body, headers);
      if (![200, 202].includes(answer.status)) throw new Error(`${pathname} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
  };
}
