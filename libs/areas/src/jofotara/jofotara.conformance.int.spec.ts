// Every kind of JoFotara document the area renders, against the UBL 2.1 XSD, and judged by the portal's
// own checks (checks.ts: totals, rates, types) as the sandbox and the fake judge what they are sent.
import type { SupplierProfile } from '@einvoice/domain';
import { validateUblXsd } from '../conformance/official-validators';
import { checkInvoiceXml } from './checks';
import { jofotaraDocuments } from './codec';

jest.setTimeout(60_000);

const supplier = (invoiceClass: string): SupplierProfile => ({ registeredName: 'شركة الاختبار', identifiers: [{ scheme: 'JO:TIN', id: '12345678' }], country: 'JO', areaDetails: { incomeSource: '1234567', invoiceClass } });
const item = (extra: Record<string, unknown> = {}) => ({ description: 'Item', quantity: 3, tax_exclusive_price: 12.345, tax_percentage: 0.16, tax_category: 'Standard', ...extra });
const invoice = (extra: Record<string, unknown> = {}) => ({ invoice_ref_number: 'INV-1', issue_date: '2026-11-25', issue_time: '10-30-00', buyer_details: { buyer_tin: '87654321', buyer_name: 'Buyer', city_code: 'JO-AM', postal_code: '11118', phone: '+962790000000' }, lineitems: [item()], ...extra });

async function rendered(body: unknown, invoiceClass = 'general_sales') {
  const s = supplier(invoiceClass);
  const parsed = jofotaraDocuments.parse(body, s);
  const linked = await jofotaraDocuments.chain!.link(parsed, s, { documentId: '2523149b-cb40-4b32-9004-debca57b80ee', at: new Date(), previous: { icv: 41 } });
  return linked;
}

const cases: Array<[string, Record<string, unknown>, string]> = [
  ['cash general sales, every category, discounts', invoice({ lineitems: [item({ discounts: [{ amount: 1.5, reason: 'promo' }, { amount: 0.25 }] }), item({ tax_category: 'ZeroTax', tax_percentage: 0 }), item({ tax_category: 'Exempted', tax_percentage: 0 }), item({ tax_percentage: 0.01 })] }), 'general_sales'],
  ['receivable general sales with a note', invoice({ payment_method: 'receivable', note: 'Net 30' }), 'general_sales'],
  ['income (no tax elements)', invoice({ lineitems: [item({ tax_category: 'Exempted', tax_percentage: 0 })] }), 'income'],
  ['special sales with its special tax', invoice({ lineitems: [item({ special_tax_amount: 4.5 })] }), 'special_sales'],
  ['an anonymous-ish buyer by national number', invoice({ buyer_details: { buyer_nin: '9876543210' } }), 'general_sales'],
];

describe('JoFotara UBL', () => {
  it.each(cases)('%s: passes the UBL 2.1 XSD and the portal\'s checks', async (_name, body, invoiceClass) => {
    const linked = await rendered(body, invoiceClass);
    const xml = linked.document.bytes;
    const xsd = await validateUblXsd(xml);
    if (!xsd.valid) console.log(xsd.errors, xml);
    expect(xsd.errors).toEqual([]);
    expect(checkInvoiceXml(xml).errors).toEqual([]);
    expect(xml).toContain('<cbc:UUID>42</cbc:UUID>');
    expect(xml).toContain('currencyID="JO"');
  });

  it('income invoices carry no tax at all; tampered totals are found', async () => {
    const income = (await rendered(cases[2][1], 'income')).document.bytes;
    expect(income).not.toContain('TaxTotal');
    expect(income).toContain('<cbc:InvoiceTypeCode name="011">388</cbc:InvoiceTypeCode>');
    const xml = (await rendered(cases[0][1])).document.bytes.replace(/<cbc:PayableAmount currencyID="JO">[^<]*</, '<cbc:PayableAmount currencyID="JO">1.000<');
    expect(checkInvoiceXml(xml).errors.map((e) => e.EINV_CODE)).toEqual(['totalPayableAmount']);
  });

  it('an invoice number before the last one is refused at invoice_ref_number', async () => {
    const s = supplier('general_sales');
    await expect(jofotaraDocuments.chain!.link(jofotaraDocuments.parse(invoice({ invoice_ref_number: 'INV-9' }), s), s, { documentId: 'x', at: new Date(), previous: { icv: 3, lastInvoiceNumber: 'INV-10' } }))
      .rejects.toMatchObject({ issues: [expect.objectContaining({ path: 'invoice_ref_number', code: 'JOFOTARA.NUMBER_ORDER' })] });
  });
});
