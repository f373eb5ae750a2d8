import type { StoredDocument } from '../registry/printable';
import { jofotaraPrintable } from './printable';

/** Two rates and a zero-rated line, one line discounted: the breakdown groups them by category and rate. */
const fields = {
  invoice_ref_number: 'INV-7', issue_date: '2026-11-25', issue_time: '10:30:00', payment_method: 'cash',
  buyer_details: { buyer_name: 'Irbid Buyer', buyer_tin: '87654321', city_code: 'JO-IR' },
  lineitems: [
    { description: 'Pen', quantity: 4, tax_exclusive_price: 2.5, tax_percentage: 0.16, tax_category: 'Standard' },
    { description: 'Notebook', quantity: 3, tax_exclusive_price: 1.333, tax_percentage: 0.16, tax_category: 'Standard', discounts: [{ amount: 0.5 }] },
    { description: 'Bread', quantity: 2, tax_exclusive_price: 0.75, tax_percentage: 0.04, tax_category: 'Standard' },
    { description: 'Medicine', quantity: 1, tax_exclusive_price: 5, tax_percentage: 0, tax_category: 'ZeroTax' },
  ],
  totals: { tax_exclusive_amount: '20.499', discount_total: '0.500', tax_total: '2.220', tax_inclusive_amount: '22.219', payable_amount: '22.219' },
};
const stored = (invoiceClass: string): StoredDocument => ({
  id: 'x', number: 'INV-7', type: 'invoice', direction: 'outgoing', fields, receipt: null, reportState: 'pending', renderedSha256: null, xml: null,
  createdAt: '2026-11-25T10:00:00Z',
  supplier: { registeredName: 'Amman Stationery Co', identifiers: [{ scheme: 'JO:TIN', id: '12345678' }], country: 'JO', areaDetails: { incomeSource: '1', invoiceClass } },
});

describe('#49 a JoFotara invoice\'s tax breakdown', () => {
  it('has a row per category and rate, each the sum of its lines\' nets and taxes as JoFotara computes them (tax per line, 3 decimals)', () => {
    const view = jofotaraPrintable.build(stored('general_sales'));
    // 16 %: 10.000 + (3.999 − 0.500) = 13.499, tax 1.600 + 0.560; 4 %: 1.500, tax 0.060; zero-rated: 5.000.
    expect(view.taxes).toEqual([
      { category: 'Standard', rate: '16', taxable: '13.499', tax: '2.160' },
      { category: 'Standard', rate: '4', taxable: '1.500', tax: '0.060' },
      { category: 'ZeroTax', rate: '0', taxable: '5.000', tax: '0.000' },
    ]);
    // The rows add up to the tax total JoFotara was sent.
    expect(view.taxes.reduce((sum, row) => sum + Number(row.tax), 0).toFixed(3)).toBe(fields.totals.tax_total);
    expect(view.totals).toMatchObject({ currency: 'JOD', tax: '2.220', payable: '22.219' });
  });

  it('has no rows on an income invoice, which carries no tax', () => {
    expect(jofotaraPrintable.build(stored('income')).taxes).toEqual([]);
  });
});
