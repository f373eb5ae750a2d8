/** Rounding points and the InvoiceTotal rule (README "Rounding", "InvoiceTotal"). */
import { myInvoisArea as my } from './area';
import { invoiceBody, line, sst, supplier } from './fixtures/bodies';
import { codes, issuesOf } from './fixtures/issues';
import { computeTotals, invoiceTotalTolerance } from './totals';

const totalsOf = (over: Record<string, unknown>) => computeTotals(my.parseDocument('invoice', invoiceBody(over), supplier).body);

describe('totals', () => {
  it('given 3 × 3.335 at 6 %, when computed, then the subtotal rounds half-up to 10.01 and the tax to 0.60', () => {
    const t = totalsOf({ InvoiceLines: [line('a', 3, 3.335, [sst()])] });
    expect(t.lines[0].subtotal.toFixed(2)).toBe('10.01');
    expect(t.lines[0].tax.toFixed(2)).toBe('0.60');
    expect(t.payable.toFixed(2)).toBe('10.61');
  });
  it('given three lines each with a half cent of tax, when computed, then each line rounds up and the document sums them unrounded', () => {
    // 0.25 × 0.06 = 0.015 → 0.02 per line; a document-level rounding would give 0.75 × 0.06 = 0.045 → 0.05.
    const t = totalsOf({ InvoiceLines: [0, 1, 2].map(() => line('a', 1, 0.25, [sst()])) });
    expect(t.taxTotal.toFixed(2)).toBe('0.06');
    expect(t.taxTypes[0].tax.toFixed(2)).toBe('0.06');
  });
  it('given line and document discounts and charges, when computed, then every total follows UBL', () => {
    const t = totalsOf({
      InvoiceLines: [line('a', 2, 100, [sst(0.1)], { Discounts: [{ Amount: 20, Reason: 'Promo' }], Charges: [{ Amount: 5 }] })],
      Discounts: [{ Amount: 10 }], Charges: [{ Amount: 3 }], Prepayments: [{ Amount: 50 }],
    });
    expect(t.lines[0].net.toFixed(2)).toBe('185.00');
    expect(t.lines[0].tax.toFixed(2)).toBe('18.50');
    expect([t.lineTotal, t.allowanceTotal, t.chargeTotal, t.taxExclusive, t.taxInclusive, t.prepaid, t.payable].map((d) => d.toFixed(2)))
      .toEqual(['185.00', '10.00', '3.00', '178.00', '196.50', '50.00', '146.50']);
  });
  it('given per-unit and rate taxes on one line, when computed, then both add up', () => {
    const t = totalsOf({ InvoiceLines: [line('Room', 2, 150, [sst(0.08), { TaxType: '03', TaxBaseUnit: 2, TaxPerUnit: 10 }])] });
    expect(t.lines[0].tax.toFixed(2)).toBe('44.00');
    expect(t.taxTypes.map((g) => `${g.taxType}:${g.tax.toFixed(2)}`)).toEqual(['02:24.00', '03:20.00']);
  });
});

describe('InvoiceTotal', () => {
  const lines = { InvoiceLines: [line('a', 1, 10.005, [sst()]), line('b', 1, 10.005, [sst()])] };
  it('given no InvoiceTotal, when computed, then no rounding amount', () => {
    expect(totalsOf(lines).rounding.isZero()).toBe(true);
  });
  it('given an InvoiceTotal a cent off within the tolerance, when parsed, then it is the payable amount and the difference is PayableRoundingAmount', () => {
    const t = totalsOf({ ...lines, InvoiceTotal: 21.23 });
    expect(t.taxInclusive.toFixed(2)).toBe('21.22');
    expect(t.rounding.toFixed(2)).toBe('0.01');
    expect(t.payable.toFixed(2)).toBe('21.23');
  });
  it('given an InvoiceTotal beyond 0.01 × (lines + 1), when parsed, then MYINVOIS.TOTAL_MISMATCH', () => {
    expect(invoiceTotalTolerance(2).toFixed(2)).toBe('0.03');
    expect(codes(issuesOf(() => my.parseDocument('invoice', invoiceBody({ ...lines, InvoiceTotal: 21.26 }))))).toEqual(['InvoiceTotal MYINVOIS.TOTAL_MISMATCH']);
    expect(() => my.parseDocument('invoice', invoiceBody({ ...lines, InvoiceTotal: 21.25 }))).not.toThrow();
  });
});
