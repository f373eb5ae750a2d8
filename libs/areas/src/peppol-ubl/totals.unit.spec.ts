import { profiles } from './profiles';
import type { InvoiceBody } from './schema';
import { computeTotals } from './totals';

const lines = (price: number) =>
  ({ InvoiceLines: [{ Description: 'Consulting', PriceAmount: price, InvoicedQuantity: 2, TaxType: { TaxType: 'standard', TaxRate: 21, TaxCountry: 'BE' } }] }) as unknown as Pick<InvoiceBody, 'InvoiceLines'>;

describe('#11 a document\'s totals are computed once for the rules and the renderer', () => {
  it('the same lines in the same area give the same totals, computed once', () => {
    const dto = lines(100);
    const first = computeTotals(profiles.be, dto);
    expect(first.totalIncludingVat.toString()).toBe('242');
    expect(computeTotals(profiles.be, dto)).toBe(first);
  });

  it('other lines, or the same lines in another area, are computed anew', () => {
    const dto = lines(100);
    const be = computeTotals(profiles.be, dto);
    expect(computeTotals(profiles.be, lines(100))).not.toBe(be);
    expect(computeTotals(profiles.be, lines(50)).totalIncludingVat.toString()).toBe('121');
    expect(computeTotals(profiles.de, dto)).not.toBe(be);
  });
});
