// JoFotara's total rules, one by one (ISTD guide v1.4), the rate list, numbering order and the type names.
import { type JoLine, joTotals, typeName } from './invoice';
import { compareNumbers } from './rules';
import { jofotaraDocuments } from './codec';
import type { SupplierProfile } from '@einvoice/domain';

const line = (extra: Partial<JoLine> = {}): JoLine => ({ description: 'x', quantity: 2, unitPrice: 10.5, rate: 0.16, category: 'Standard', discount: 1, ...extra });
const supplier = (invoiceClass = 'general_sales'): SupplierProfile => ({ registeredName: 'S', identifiers: [{ scheme: 'JO:TIN', id: '12345678' }], country: 'JO', areaDetails: { incomeSource: '1234567', invoiceClass } });
const body = (extra: Record<string, unknown> = {}, item: Record<string, unknown> = {}) => ({
  invoice_ref_number: 'INV-1', issue_date: '2026-11-25', issue_time: '10-30-00', buyer_details: { buyer_tin: '87654321', buyer_name: 'B' },
  lineitems: [{ description: 'Item', quantity: 2, tax_exclusive_price: 10.5, tax_percentage: 0.16, tax_category: 'Standard', ...item }], ...extra,
});
const paths = (fn: () => unknown) => {
  try {
    fn();
    return [];
  } catch (error) {
    return (error as { issues: Array<{ path: string; message: string }> }).issues.map((i) => i.path);
  }
};

describe('JoFotara totals', () => {
  const t = joTotals([line(), line({ quantity: 1, unitPrice: 3, rate: 0, category: 'ZeroTax', discount: 0 })], 'general_sales');
  it('LineExtensionAmount = price × quantity − discount', () => expect(t.lines[0].net.toFixed(3)).toBe('20.000'));
  it('line tax = LineExtensionAmount × rate, rounded to the fils', () => expect(t.lines[0].tax.toFixed(3)).toBe('3.200'));
  it('line RoundingAmount = LineExtensionAmount + tax', () => expect(t.lines[0].rounding.toFixed(3)).toBe('23.200'));
  it('TaxExclusiveAmount = Σ price × quantity, before discounts', () => expect(t.taxExclusive.toFixed(3)).toBe('24.000'));
  it('AllowanceTotalAmount = Σ line discounts', () => expect(t.allowances.toFixed(3)).toBe('1.000'));
  it('TaxInclusiveAmount = PayableAmount = exclusive − discounts + taxes', () => {
    expect(t.taxInclusive.toFixed(3)).toBe('26.200');
    expect(t.payable.toFixed(3)).toBe('26.200');
  });
  it('income invoices carry no tax', () => expect(joTotals([line()], 'income').tax.toFixed(3)).toBe('0.000'));
  it('special sales add the special tax to the line and the document', () => {
    const s = joTotals([line({ specialTax: 2 })], 'special_sales');
    expect([s.lines[0].rounding.toFixed(3), s.taxInclusive.toFixed(3)]).toEqual(['25.200', '25.200']);
  });
  it('InvoiceTypeCode@name is payment then class', () => {
    expect([typeName('income', 'cash'), typeName('general_sales', 'cash'), typeName('special_sales', 'receivable')]).toEqual(['011', '012', '023']);
  });
});

describe('JoFotara invoice rules', () => {
  it('invoice numbers compare part by part, digits as numbers', () => {
    expect(compareNumbers('INV-9', 'INV-10')).toBe(-1);
    expect(compareNumbers('INV-10', 'INV-9')).toBe(1);
    expect(compareNumbers('A2', 'A2')).toBe(0);
  });
  it('a Standard line takes one of the general-sales rates; a percentage sent by mistake is named', () => {
    expect(paths(() => jofotaraDocuments.parse(body({}, { tax_percentage: 0.15 }), supplier()))).toEqual(['lineitems[0].tax_percentage']);
    let message = '';
    try {
      jofotaraDocuments.parse(body({}, { tax_percentage: 16 }), supplier());
    } catch (error) {
      message = (error as { issues: Array<{ message: string }> }).issues[0].message;
    }
    expect(message).toContain('looks like a percentage');
    expect(paths(() => jofotaraDocuments.parse(body({}, { tax_percentage: 0.16 }), supplier()))).toEqual([]);
  });
  it('ZeroTax and Exempted take 0; income suppliers charge no tax', () => {
    expect(paths(() => jofotaraDocuments.parse(body({}, { tax_category: 'ZeroTax' }), supplier()))).toEqual(['lineitems[0].tax_percentage']);
    expect(paths(() => jofotaraDocuments.parse(body(), supplier('income')))).toEqual(['lineitems[0].tax_category']);
  });
  it('one buyer identifier is required; a receivable invoice names its buyer', () => {
    expect(paths(() => jofotaraDocuments.parse(body({ buyer_details: { buyer_name: 'B' } }), supplier()))).toEqual(['buyer_details']);
    expect(paths(() => jofotaraDocuments.parse(body({ payment_method: 'receivable', buyer_details: { buyer_nin: '9' } }), supplier()))).toEqual(['buyer_details.buyer_name']);
    expect(paths(() => jofotaraDocuments.parse(body({ buyer_details: { buyer_pn: '9' } }), supplier()))).toEqual([]);
  });
  it('a cash invoice above 10,000 JOD names its buyer', () => {
    expect(paths(() => jofotaraDocuments.parse(body({ buyer_details: { buyer_nin: '9' } }, { tax_exclusive_price: 9000 }), supplier()))).toEqual(['buyer_details.buyer_name']);
  });
  it('issue_time in HH-MM-ss or HH:MM:ss; discounts no more than the line', () => {
    expect(paths(() => jofotaraDocuments.parse(body({ issue_time: '10.30.00' }), supplier()))).toEqual(['issue_time']);
    expect(paths(() => jofotaraDocuments.parse(body({ issue_time: '10:30:00' }), supplier()))).toEqual([]);
    expect(paths(() => jofotaraDocuments.parse(body({}, { discounts: [{ amount: 50, reason: 'x' }] }), supplier()))).toEqual(['lineitems[0].discounts']);
  });
});
