import type { DataSource } from 'typeorm';
import { validateUblXsd } from '../../libs/areas/src/conformance/official-validators';
import type { Client } from '../support/http';
import { ReportingStack } from '../support/reporting-stack';
import { eventually, testEnv } from '../support/stack';

const run = Date.now().toString(36).toUpperCase();
const id = (name: string) => `${name}-${run}`;
const workerEnv = testEnv({ AUTHORITY_POLL_SWEEP_MS: '100' });
const onboarding = (extra: Record<string, unknown> = {}) => ({
  supplier_name: 'شركة التجربة', supplier_tin: '12345678', default_income_source: '4419618', client_id: `device-${run}`, client_secret: 'secret-of-the-device', city_code: 'JO-AM', ...extra,
});
const item = (extra: Record<string, unknown> = {}) => ({ description: 'قلم', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard', ...extra });
const invoice = (number: string, extra: Record<string, unknown> = {}) => ({
  invoice_ref_number: number, issue_date: '2026-11-25', issue_time: '10-30-00',
  buyer_details: { buyer_name: 'مشتري', buyer_tin: '87654321', city_code: 'JO-IR', postal_code: '21110', phone: '+962790000000' },
  lineitems: [item()], ...extra,
});

/**
 * #14 Jordan over HTTP with the apps: onboarding checked with the portal, invoices cleared by the sandbox
 * JoFotara before the answer (its uuid and QR), refusals as 400 with JoFotara's codes, read-back and
 * the XML sent, credit notes, and a worker killed while JoFotara holds an invoice.
 */
describe('#14 Jordan: JoFotara invoices over HTTP', () => {
  const stack = new ReportingStack('jofotara', workerEnv);
  let dataSource: DataSource;
  let client: Client;
  let other: Client;
  let participant: string;
  const headers = () => ({ 'participant-id': participant });

  beforeAll(async () => {
    ({ dataSource, client, other } = await stack.start());
    const onboarded = await client.post('/jo/supplier/onboard', onboarding());
    expect(onboarded.status).toBe(201);
    expect(onboarded.body).toEqual({ status: 'success', message: expect.any(String), data: { supplier_name: 'شركة التجربة', participant_id: expect.any(String) } });
    participant = onboarded.body.data.participant_id;
  });

  afterAll(() => stack.stop());

  it('onboarding refuses credentials the portal refuses (400 at client_id, nothing stored) and never returns them', async () => {
    const refused = await client.post('/jo/supplier/onboard', onboarding({ client_id: 'bad', client_secret: 'bad', supplier_name: `refused-${run}` }));
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'client_id', code: 'JOFOTARA.403' })]);
    expect(await dataSource.query(`SELECT 1 FROM suppliers WHERE registered_name = $1`, [`refused-${run}`])).toEqual([]);
    const missing = await client.post('/jo/supplier/onboard', { ...onboarding(), default_income_source: undefined });
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'default_income_source' })]);
    const [sealed] = await dataSource.query(`SELECT string_agg(sealed, '') AS s FROM supplier_secrets WHERE supplier_id = $1`, [participant]);
    expect(sealed.s).not.toContain('secret-of-the-device');
  });

  it('a cash invoice with every category and discounts is cleared: 200 {uuid, qr_code}; read-back and the XML as sent', async () => {
    const body = invoice(id('INV-0001'), {
      lineitems: [item({ discounts: [{ amount: 1, reason: 'promo' }] }), item({ tax_category: 'ZeroTax', tax_percentage: 0 }), item({ tax_category: 'Exempted', tax_percentage: 0 })],
    });
    const answer = await client.post('/jo/einvoice/generate', body, headers());
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'success', message: { uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), qr_code: expect.any(String) } });
    const { uuid } = answer.body.message;
    const record = (await client.get(`/jo/einvoice/invoices/${uuid}`, headers())).body.data;
    expect(record).toMatchObject({
      uuid, kind: 'invoice', invoice_ref_number: id('INV-0001'), issue_time: '10:30:00', payment_method: 'cash', icv: expect.any(Number), jofotara_status: 'SUBMITTED',
      jofotara_number: expect.stringMatching(/^EIN\d{5}$/), qr_code: answer.body.message.qr_code,
      totals: { tax_exclusive_amount: '30.000', discount_total: '1.000', tax_total: '1.440', tax_inclusive_amount: '30.440', payable_amount: '30.440' },
    });
    const xml = await client.get(`/jo/einvoice/invoices/${uuid}/xml`, headers());
    expect(xml.headers.get('content-type')).toContain('application/xml');
    expect((await validateUblXsd(xml.body)).valid).toBe(true);
    expect(xml.body).toContain(`<cbc:UUID>${uuid}</cbc:UUID>`);
    expect(xml.body).toContain('<cbc:InvoiceTypeCode name="012">388</cbc:InvoiceTypeCode>');
  });

  it('a receivable invoice names its buyer; numbers go in sequence; a duplicate is 409', async () => {
    const noName = await client.post('/jo/einvoice/generate', invoice(id('INV-0002'), { payment_method: 'receivable', buyer_details: { buyer_nin: '9876543210' } }), headers());
    expect(noName.status).toBe(400);
    expect(noName.body.errors).toEqual([expect.objectContaining({ path: 'buyer_details.buyer_name' })]);
    const receivable = await client.post('/jo/einvoice/generate', invoice(id('INV-0002'), { payment_method: 'receivable' }), headers());
    expect(receivable.status).toBe(200);
    const xml = (await client.get(`/jo/einvoice/invoices/${receivable.body.message.uuid}/xml`, headers())).body;
    expect(xml).toContain('<cbc:InvoiceTypeCode name="022">388</cbc:InvoiceTypeCode>');
    const before = await client.post('/jo/einvoice/generate', invoice(id('INV-0000')), headers());
    expect(before.status).toBe(400);
    expect(before.body.errors).toEqual([expect.objectContaining({ path: 'invoice_ref_number', code: 'JOFOTARA.NUMBER_ORDER' })]);
    const again = await client.post('/jo/einvoice/generate', invoice(id('INV-0002')), headers());
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([expect.objectContaining({ path: 'invoice_ref_number', code: 'DOCUMENT.DUPLICATE_ID' })]);
  });

  it('every bad input of the seed\'s table is a 400 naming the field', async () => {
    const cases: Array<[string, Record<string, unknown>]> = [
      ['invoice_ref_number', { invoice_ref_number: 'X'.repeat(51) }],
      ['issue_date', { issue_date: '25-11-2026' }],
      ['issue_time', { issue_time: '10.30' }],
      ['buyer_details', { buyer_details: { buyer_name: 'Anonymous' } }],
      ['lineitems', { lineitems: [] }],
      ['lineitems[0].tax_percentage', { lineitems: [item({ tax_percentage: 0.15 })] }],
      ['lineitems[0].tax_category', { lineitems: [item({ tax_category: 'Reduced' })] }],
      ['lineitems[0].quantity', { lineitems: [item({ quantity: '4' })] }],
      ['lineitems[0].description', { lineitems: [item({ description: undefined })] }],
      ['lineitems[0].discounts', { lineitems: [item({ discounts: [{ amount: 100 }] })] }],
    ];
    for (const [path, change] of cases) {
      const answer = await client.post('/jo/einvoice/generate', { ...invoice(id('INV-0100')), ...change }, headers());
      expect([path, answer.status, answer.body.errors.map((e: { path: string }) => e.path)]).toEqual([path, 400, expect.arrayContaining([path])]);
    }
    const percentage = await client.post('/jo/einvoice/generate', invoice(id('INV-0100'), { lineitems: [item({ tax_percentage: 16 })] }), headers());
    expect(percentage.body.errors[0].message).toContain('looks like a percentage');
    expect((await client.post('/jo/einvoice/generate', invoice(id('INV-0100')), { 'participant-id': '00000000-0000-4000-8000-000000000000' })).status).toBe(404);
  });

  it('JoFotara\'s refusal is a 400 with its codes, and the number is free again; a portal fault is retried and answered', async () => {
    // Numbers go in sequence: the faulty one first, then the refused ones.
    const flaky = await client.post('/jo/einvoice/generate', invoice(`JOF-DOWN-${run}`), headers());
    expect([200, 202]).toContain(flaky.status);
    const uuid = flaky.status === 200 ? flaky.body.message.uuid : flaky.body.data.documentId;
    const record = await eventually('JoFotara takes it after its faults', async () => {
      const data = (await client.get(`/jo/einvoice/invoices/${uuid}`, headers())).body.data;
      return data.jofotara_status === 'SUBMITTED' ? data : undefined;
    });
    expect(record.qr_code).toEqual(expect.any(String));
    const refused = await client.post('/jo/einvoice/generate', invoice(`JOF-REFUSE-${run}`), headers());
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'sandboxRefusal', message: expect.stringContaining('Refused') })]);
    const retried = await client.post('/jo/einvoice/generate', invoice(`JOF-REFUSE-${run}`), headers());
    expect(retried.status).toBe(400); // not 409: a refused invoice was never issued
    expect(retried.body.errors[0].code).toBe('sandboxRefusal');
    const [calls] = await dataSource.query(`SELECT calls FROM jofotara_sandbox_calls c JOIN documents d ON d.report_id = c.report_id WHERE d.id = $1`, [uuid]);
    expect(calls.calls).toBe(3);
  });

  it('a credit note returns quantities of an invoice\'s lines, never more than sold', async () => {
    const sold = await client.post('/jo/einvoice/generate', invoice(`JOF-X-${run}`, { lineitems: [item({ quantity: 5, discounts: [{ amount: 2.5 }] }), item({ description: 'دفتر', quantity: 2 })] }), headers());
    const original = sold.body.message.uuid;
    const note = (number: string, returned: Array<{ line: number; quantity: number }>) =>
      client.post('/jo/einvoice/generate/credit-note', { credit_note_ref_number: number, original_uuid: original, reason: 'بضاعة مرتجعة', issue_date: '2026-11-26', issue_time: '09:00:00', returned_lines: returned }, headers());
    const first = await note(id('CN-1'), [{ line: 1, quantity: 2 }]);
    expect(first.status).toBe(200);
    const xml = (await client.get(`/jo/einvoice/invoices/${first.body.message.uuid}/xml`, headers())).body;
    expect(xml).toContain('<cbc:InvoiceTypeCode name="012">381</cbc:InvoiceTypeCode>');
    expect(xml).toContain(`<cbc:UUID>${original}</cbc:UUID>`);
    expect(xml).toContain('<cbc:InstructionNote>بضاعة مرتجعة</cbc:InstructionNote>');
    expect((await validateUblXsd(xml)).valid).toBe(true);
    // More than the line sold, at once (the service) or in all (JoFotara, here the sandbox).
    const tooMany = await note(id('CN-2'), [{ line: 2, quantity: 3 }]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ path: 'returned_lines[0].quantity' })]);
    const inAll = await note(id('CN-3'), [{ line: 1, quantity: 4 }]);
    expect(inAll.status).toBe(400);
    expect(inAll.body.errors).toEqual([expect.objectContaining({ code: 'returnedQuantity' })]);
    expect((await note(id('CN-4'), [{ line: 3, quantity: 1 }])).body.errors).toEqual([expect.objectContaining({ path: 'returned_lines[0].line' })]);
    const unknown = await client.post('/jo/einvoice/generate/credit-note', { credit_note_ref_number: id('CN-5'), original_uuid: '00000000-0000-4000-8000-000000000000', reason: 'x', issue_date: '2026-11-26', issue_time: '09:00:00', returned_lines: [{ line: 1, quantity: 1 }] }, headers());
    expect(unknown.status).toBe(404);
  });

  it('another tenant sees nothing (404)', async () => {
    const [row] = await dataSource.query(`SELECT id FROM documents WHERE supplier_id = $1 LIMIT 1`, [participant]);
    expect((await other.get(`/jo/einvoice/invoices/${row.id}`, headers())).status).toBe(404);
    expect((await other.post('/jo/einvoice/generate', invoice(id('INV-9000')), headers())).status).toBe(404);
  });

  it('a worker killed (kill -9) while JoFotara answers: the invoice is at JoFotara once, and the answer comes', async () => {
    // JoFotara answers 4 s after storing the invoice: the worker is killed in that window.
    const slow = await stack.replaceWorker({ ...workerEnv, JOFOTARA_SANDBOX_DELAY_MS: '4000' });
    const pending = client.post('/jo/einvoice/generate', invoice(`JOF-Y-${run}`), headers());
    await eventually('JoFotara holds it', async () => {
      const rows = await dataSource.query(`SELECT 1 FROM jofotara_sandbox_invoices WHERE invoice_id = $1`, [`JOF-Y-${run}`]);
      return rows.length ? true : undefined;
    });
    await slow.crash();
    await stack.replaceWorker();
    const answer = await pending;
    expect([200, 202]).toContain(answer.status);
    const uuid = answer.status === 200 ? answer.body.message.uuid : answer.body.data.documentId;
    await eventually('answered', async () => ((await client.get(`/jo/einvoice/invoices/${uuid}`, headers())).body.data.jofotara_status !== 'PENDING' ? true : undefined), 60_000);
    const record = (await client.get(`/jo/einvoice/invoices/${uuid}`, headers())).body.data;
    expect(record.jofotara_status).toMatch(/^(SUBMITTED|ALREADY_SUBMITTED)$/);
    expect(await dataSource.query(`SELECT count(*)::int AS n FROM jofotara_sandbox_invoices WHERE invoice_id = $1`, [`JOF-Y-${run}`])).toEqual([{ n: 1 }]);
  });
});
