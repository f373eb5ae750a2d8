import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { Client } from '../support/http';
import { ReportingStack } from '../support/reporting-stack';
import { eventually, testEnv } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const id = (name: string) => `${name}-${run}`;
const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100' });
const tin = `${String(Date.now()).slice(-8)}-0001`;
const onboarding = (extra: Record<string, unknown> = {}) => ({
  party_name: 'Lagos Trading Ltd', tin, email: 'billing@lagostrading.example', password: 'portal-password-1', telephone: '+2348012345678',
  business_description: 'Wholesale of electronics', postal_address: { street_name: '12 Marina', city_name: 'Lagos', postal_zone: '101001', country: 'NG' }, ...extra,
});
const line = (extra: Record<string, unknown> = {}) => ({
  hsn_code: 'CC-001', product_category: 'Electronics', discount_rate: 0, discount_amount: 50, fee_rate: 0, fee_amount: 10, invoiced_quantity: 3,
  line_extension_amount: 260, item: { name: 'Router', description: 'Wi-Fi router' }, price: { price_amount: 100, base_quantity: 1, price_unit: 'NGN per 1' }, ...extra,
});
const invoice = (documentIdentifier: string, extra: Record<string, unknown> = {}) => ({
  document_identifier: documentIdentifier, issue_date: '2026-11-25', due_date: '2026-12-25', issue_time: '17-59-04', invoice_type_code: '380',
  document_currency_code: 'NGN', tax_currency_code: 'NGN', buyer_reference: 'PO-77',
  accounting_customer_party: { party_name: 'Abuja Buyer Ltd', tin: '87654321-0001', email: 'ap@abujabuyer.example', telephone: '+2348098765432', postal_address: { street_name: '1 Garki', city_name: 'Abuja', postal_zone: '900001', country: 'NG' } },
  invoice_line: [line()],
  tax_total: [{ tax_amount: 19.5, tax_subtotal: [{ taxable_amount: 260, tax_amount: 19.5, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }],
  ...extra,
});

/**
 * #15 Nigeria over HTTP with the apps: the taxpayer logs in to (the sandbox) FIRS at onboarding; each
 * invoice's IRN and content are validated, signed by FIRS and stored before the answer, the seed's full
 * response; refusals at each step are 400s; a worker killed after FIRS signed never signs twice.
 */
describe('#15 Nigeria: FIRS invoices over HTTP', () => {
  const stack = new ReportingStack('firs', workerEnv);
  let dataSource: DataSource;
  let client: Client;
  let other: Client;
  let participant: string;
  const headers = () => ({ 'participant-id': participant });

  beforeAll(async () => {
    ({ dataSource, client, other } = await stack.start());
    const onboarded = await client.post('/api/auth/taxpayer/login', onboarding());
    expect(onboarded.status).toBe(201);
    expect(onboarded.body).toEqual({ status: 'success', message: expect.any(String), data: { supplier_name: 'Lagos Trading Ltd', participant_id: expect.any(String) } });
    participant = onboarded.body.data.participant_id;
  });

  afterAll(() => stack.stop());

  it('onboarding: a refused login is a 400 at password with nothing stored; each bad field is named; the password is never returned nor stored in clear', async () => {
    const refused = await client.post('/api/auth/taxpayer/login', onboarding({ password: 'bad', party_name: `refused-${run}` }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'password', code: 'FIRS.LOGIN_REFUSED' })]);
    expect(await dataSource.query(`SELECT 1 FROM suppliers WHERE registered_name = $1`, [`refused-${run}`])).toEqual([]);
    for (const [field, change] of [
      ['telephone', { telephone: '08012345678' }], ['email', { email: 'not-an-address' }], ['tin', { tin: undefined }],
      ['business_description', { business_description: undefined }], ['postal_address.country', { postal_address: { country: 'NGA' } }], ['password', { password: undefined }],
    ] as const) {
      const answer = await client.post('/api/auth/taxpayer/login', onboarding(change));
      expect([field, answer.status, answer.body.errors.map((e: { path: string }) => e.path)]).toEqual([field, 400, [field]]);
    }
    const [sealed] = await dataSource.query(`SELECT string_agg(sealed, '') AS s FROM supplier_secrets WHERE supplier_id = $1`, [participant]);
    expect(sealed.s).not.toContain('portal-password-1');
  });

  it('generate: the IRN validated, the invoice validated and signed by FIRS, stored; the full response field by field', async () => {
    const answer = await client.post('/api/invoice/generate', invoice(id('INV/0001')), headers());
    expect(answer.status).toBe(200);
    const { data } = answer.body;
    expect(answer.body.status).toBe('submitted');
    expect(data.irn).toMatch(new RegExp(`^INV0001${run}-[0-9A-F]{8}-20261125$`));
    expect(data.authority_response).toEqual({ code: 201, data: { ok: true } });
    expect(data.steps_completed).toEqual(['irn_validation', 'invoice_validation', 'invoice_signing', 'database_storage']);
    expect(data.message).toEqual(expect.any(String));
    expect(Date.parse(data.timestamp)).toBeGreaterThan(0);
    expect(data.invoice).toMatchObject({
      irn: data.irn, invoiceReference: id('INV/0001'), businessId: expect.stringMatching(/^[0-9a-f-]{36}$/), issueDate: '2026-11-25', dueDate: '2026-12-25', issueTime: '17:59:04',
      invoiceTypeCode: '380', paymentStatus: 'PENDING', documentCurrencyCode: 'NGN', taxCurrencyCode: 'NGN', buyerReference: 'PO-77', status: 'SIGNED',
      lineExtensionAmount: '260.00', taxExclusiveAmount: '260.00', taxInclusiveAmount: '279.50', payableAmount: '279.50',
      accountingSupplierParty: { party_name: 'Lagos Trading Ltd', tin }, accountingCustomerParty: { party_name: 'Abuja Buyer Ltd' },
      invoiceLines: [{ invoiceId: data.invoice.id, hsnCode: 'CC-001', productCategory: 'Electronics', discountAmount: '50.00', feeAmount: '10.00', invoicedQuantity: '3', lineExtensionAmount: '260.00', item: { name: 'Router' } }],
    });
    for (const key of ['id', 'note', 'taxPointDate', 'accountingCost', 'orderReference', 'actualDeliveryDate', 'paymentTermsNote', 'authorityResponse', 'createdAt', 'updatedAt']) expect(data.invoice).toHaveProperty(key);
    // The QR decrypts, with FIRS's private key, to {"irn": "<IRN>.<unix time>", "certificate": ...} (RSA PKCS#1 v1.5).
    const [keys] = await dataSource.query(`SELECT private_key, certificate FROM firs_sandbox_keys WHERE id = 1`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'firs-qr-'));
    writeFileSync(path.join(dir, 'key.pem'), keys.private_key);
    writeFileSync(path.join(dir, 'qr.bin'), Buffer.from(data.qr_code, 'base64'));
    const plain = JSON.parse(execFileSync('openssl', ['pkeyutl', '-decrypt', '-inkey', 'key.pem', '-in', 'qr.bin', '-pkeyopt', 'rsa_padding_mode:pkcs1'], { cwd: dir }).toString('utf8'));
    expect(plain).toEqual({ irn: expect.stringMatching(new RegExp(`^${data.irn}\\.\\d{10}$`)), certificate: keys.certificate });
    // Read back by IRN; FIRS holds it signed once.
    const back = await client.get(`/api/invoice/${data.irn}`, headers());
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ irn: data.irn, status: 'SIGNED', payableAmount: '279.50', qrCode: data.qr_code });
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM firs_sandbox_signed WHERE irn = $1`, [data.irn])).toEqual([{ n: 1 }]);
  });

  it('the payment status is updated at FIRS, then here; a bad value is a 400 at the field; an unknown IRN 404', async () => {
    const { data } = (await client.post('/api/invoice/generate', invoice(id('INV/0050')), headers())).body;
    const paid = await client.patch(`/api/invoice/${data.irn}/payment-status`, { payment_status: 'PAID', reference: 'TRF-001' }, headers());
    expect(paid.status).toBe(200);
    expect(paid.body.data).toMatchObject({ irn: data.irn, paymentStatus: 'PAID', paymentReference: 'TRF-001', status: 'SIGNED' });
    expect(await dataSource.query(`SELECT payment_status, reference FROM firs_sandbox_signed WHERE irn = $1`, [data.irn])).toEqual([{ payment_status: 'PAID', reference: 'TRF-001' }]);
    expect((await client.get(`/api/invoice/${data.irn}`, headers())).body.data.paymentStatus).toBe('PAID');
    const bad = await client.patch(`/api/invoice/${data.irn}/payment-status`, { payment_status: 'REJECTED' }, headers());
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ path: 'payment_status' })]);
    expect((await client.patch(`/api/invoice/NOPE-00000000-20261125/payment-status`, { payment_status: 'PAID' }, headers())).status).toBe(404);
  });

  it('lineitems is accepted as the alias of invoice_line; totals are derived when not sent and reconciled when sent', async () => {
    const { invoice_line: lines, ...rest } = invoice(id('INV/0002'));
    const alias = await client.post('/api/invoice/generate', { ...rest, lineitems: lines }, headers());
    expect(alias.status).toBe(200);
    const wrong = await client.post('/api/invoice/generate', invoice(id('INV/0003'), { legal_monetary_total: { line_extension_amount: 260, tax_exclusive_amount: 260, tax_inclusive_amount: 279.5, payable_amount: 300 } }), headers());
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ path: 'legal_monetary_total.payable_amount', message: expect.stringContaining('279.50') })]);
  });

  it('each bad input is a 400 naming the field; a duplicate is 409; another tenant sees nothing', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['invoice_type_code', { invoice_type_code: '999' }],
      ['payment_status', { payment_status: 'REJECTED' }],
      ['issue_time', { issue_time: '17.59' }],
      ['issue_date', { issue_date: '25/11/2026' }],
      ['due_date', { due_date: '2026-11-01' }],
      ['accounting_customer_party.tin', { accounting_customer_party: { ...invoice('x').accounting_customer_party, tin: undefined } }],
      ['accounting_customer_party.telephone', { accounting_customer_party: { ...invoice('x').accounting_customer_party, telephone: '0809' } }],
      ['invoice_line', { invoice_line: [] }],
      ['invoice_line[0].line_extension_amount', { invoice_line: [line({ line_extension_amount: 300 })] }],
      ['tax_total[0].tax_subtotal[0].tax_amount', { tax_total: [{ tax_amount: 20, tax_subtotal: [{ taxable_amount: 260, tax_amount: 20, tax_category: { id: 'STANDARD_VAT', percent: 7.5 } }] }] }],
      ['tax_total[0].tax_subtotal[0].tax_category.id', { tax_total: [{ tax_amount: 19.5, tax_subtotal: [{ taxable_amount: 260, tax_amount: 19.5, tax_category: { id: 'VAT', percent: 7.5 } }] }] }],
    ];
    for (const [field, change] of cases) {
      const answer = await client.post('/api/invoice/generate', invoice(id('INV/0100'), change), headers());
      expect([field, answer.status, answer.body.errors.map((e: { path: string }) => e.path)]).toEqual([field, 400, expect.arrayContaining([field])]);
    }
    const again = await client.post('/api/invoice/generate', invoice(id('INV/0001')), headers());
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([expect.objectContaining({ path: 'document_identifier', code: 'DOCUMENT.DUPLICATE_ID' })]);
    const [row] = await dataSource.query(`SELECT fields->>'irn' AS irn FROM documents WHERE supplier_id = $1 LIMIT 1`, [participant]);
    expect((await other.get(`/api/invoice/${row.irn}`, headers())).status).toBe(404);
  });

  it('a failure injected at each FIRS step: refusals are 400s with FIRS\'s message and the IRN is free again; an unavailable signing is retried and answered', async () => {
    for (const [prefix, code] of [['FIRS-REFUSE-IRN-', 'FIRS.IRN_VALIDATION_400'], ['FIRS-REFUSE-INVOICE-', 'FIRS.INVOICE_VALIDATION_400'], ['FIRS-REFUSE-SIGN-', 'FIRS.INVOICE_SIGNING_400']]) {
      const answer = await client.post('/api/invoice/generate', invoice(`${prefix}${run}`), headers());
      expect([prefix, answer.status, answer.body.errors]).toEqual([prefix, 400, [expect.objectContaining({ code, message: expect.stringContaining('sandbox') })]]);
      const retried = await client.post('/api/invoice/generate', invoice(`${prefix}${run}`), headers());
      expect([prefix, retried.status]).toEqual([prefix, 400]); // not 409: nothing was signed
    }
    const down = await client.post('/api/invoice/generate', invoice(`FIRS-DOWN-SIGN-${run}`), headers());
    expect([200, 202]).toContain(down.status);
    const irn = down.status === 200 ? down.body.data.irn : undefined;
    const record = await eventually('signed after FIRS came back', async () => {
      const rows = await dataSource.query(`SELECT fields->>'irn' AS irn FROM documents WHERE supplier_id = $1 AND document_number = $2`, [participant, `FIRS-DOWN-SIGN-${run}`]);
      const data = (await client.get(`/api/invoice/${irn ?? rows[0].irn}`, headers())).body.data;
      return data.status === 'SIGNED' ? data : undefined;
    });
    expect(await dataSource.query(`SELECT calls FROM firs_sandbox_calls WHERE irn = $1`, [record.irn])).toEqual([{ calls: 3 }]);
  });

  it('a worker killed (kill -9) after FIRS signed, before storing: FIRS signed once, stored once', async () => {
    const slow = await stack.replaceWorker({ ...workerEnv, FIRS_SANDBOX_DELAY_MS: '4000' });
    const pending = client.post('/api/invoice/generate', invoice(id('INV/0300')), headers());
    await eventually('FIRS signed it', async () => {
      const rows = await dataSource.query(`SELECT 1 FROM firs_sandbox_signed WHERE irn LIKE $1`, [`INV0300${run}-%`]);
      return rows.length ? true : undefined;
    });
    await slow.crash();
    await stack.replaceWorker();
    const answer = await pending;
    expect([200, 202]).toContain(answer.status);
    const [doc] = await dataSource.query(`SELECT fields->>'irn' AS irn FROM documents WHERE supplier_id = $1 AND document_number = $2`, [participant, id('INV/0300')]);
    await eventually('stored as signed', async () => ((await client.get(`/api/invoice/${doc.irn}`, headers())).body.data.status === 'SIGNED' ? true : undefined), 60_000);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM firs_sandbox_signed WHERE irn = $1`, [doc.irn])).toEqual([{ n: 1 }]);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM documents WHERE supplier_id = $1 AND document_number = $2`, [participant, id('INV/0300')])).toEqual([{ n: 1 }]);
  });
});
