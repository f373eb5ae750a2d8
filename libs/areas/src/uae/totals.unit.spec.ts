import { parseUaeDocument, type UaeDocument } from './document';
import { invoice, line } from './fixtures/bodies';
import { computeUaeTotals, exchangeRate } from './totals';

const parsed = (over: Record<string, unknown>): UaeDocument => {
  const r = parseUaeDocument(invoice(over));
  if ('issues' in r) throw new Error(JSON.stringify(r.issues));
  return r.document;
};
const text = (v: { toFixed(): string } | undefined) => v?.toFixed();

describe('computeUaeTotals: fill-missing-only (seed "Totals")', () => {
  it('given a line with base quantity, price discount and line allowance/charge, when derived, then net = qty × price / base + charges - allowances (ibr-147-ae)', () => {
    const t = computeUaeTotals(parsed({ lines: [line({ quantity: '15', unit_price: '2970', base_quantity: '10', price_discount: '30',
      allowance_charges: [{ charge_indicator: false, amount: '135' }, { charge_indicator: true, amount: '112.5' }] })] }));
    expect(text(t.lines[0].net)).toBe('4432.5');
    expect(text(t.lines[0].gross)).toBe('3000');
    expect(text(t.lines[0].tax)).toBe('221.63');
    expect(text(t.lines[0].withTax)).toBe('4654.13');
  });

  it('given a gross price but no discount, when derived, then the discount is gross - net price (seed "Lines")', () => {
    const l = computeUaeTotals(parsed({ lines: [line({ unit_price: '49.75', gross_price: '50' })] })).lines[0];
    expect([text(l.discount), text(l.gross)]).toEqual(['0.25', '50']);
  });

  it('given S, Z, E and O lines, when derived, then one row per category (S and Z by rate), VAT on S only, no rate on E and O', () => {
    const t = computeUaeTotals(parsed({ lines: [
      line({ unit_price: '100' }), line({ unit_price: '33.33', quantity: '3' }),
      line({ tax_category: 'Z', tax_percentage: '0' }), line({ tax_category: 'E', tax_percentage: '5', tax_exemption_reason_code: 'VATEX-AE-EDU' }),
      line({ tax_category: 'O', tax_percentage: undefined })] }));
    expect(t.breakdown.map((b) => [b.category, text(b.percent), text(b.taxable), text(b.tax)])).toEqual([
      ['S', '5', '1099.99', '55'], ['Z', '0', '1000', '0'], ['E', undefined, '1000', '0'], ['O', undefined, '1000', '0']]);
    expect(t.lines[3].tax).toBeUndefined(); // ibr-163-ae: no line VAT on E
    expect(text(t.lines[3].withTax)).toBe('1000');
    expect(text(t.tax)).toBe('55');
  });

  it('given an S line without a rate, when derived, then 5 (the only S rate, ibr-190-ae)', () => {
    expect(text(computeUaeTotals(parsed({ lines: [line({ tax_percentage: undefined })] })).breakdown[0].percent)).toBe('5');
  });

  it('given reverse-charge lines with a document allowance in AE, when derived, then one AE row at the lines\' rate, VAT 0 (official AE examples)', () => {
    const t = computeUaeTotals(parsed({ lines: [line({ tax_category: 'AE' })], allowance_charges: [{ charge_indicator: false, amount: '100', tax_category: 'AE' }] }));
    expect(t.breakdown.map((b) => [b.category, text(b.percent), text(b.taxable), text(b.tax)])).toEqual([['AE', '5', '900', '0']]);
    expect([text(t.allowanceTotal), text(t.taxExclusive), t.chargeTotal]).toEqual(['100', '900', undefined]);
  });

  it('given document allowances and charges, when derived, then totals absorb them (ibr-co-11..13) and the payable deducts the prepaid amount', () => {
    const t = computeUaeTotals(parsed({ allowance_charges: [{ charge_indicator: false, amount: '50', tax_category: 'S' }, { charge_indicator: true, amount: '20', tax_category: 'S' }],
      invoice_totals: { prepaid_amount: '300.00' } }));
    expect([t.lineExtension, t.allowanceTotal, t.chargeTotal, t.taxExclusive, t.tax, t.taxInclusive, t.payable].map(text))
      .toEqual(['1000', '50', '20', '970', '48.5', '1018.5', '718.5']);
  });

  it('given stated totals and tax rows, when derived, then the stated values are used as sent, the omitted derived', () => {
    const t = computeUaeTotals(parsed({ invoice_totals: { line_extension_amount: '999.00', payable_amount: 1 },
      tax_totals: [{ tax_category: 'S', tax_rate: '5', taxable_amount: '999.00', tax_amount: '49.95' }] }));
    expect([t.lineExtension, t.taxExclusive, t.tax, t.taxInclusive, t.payable].map(text)).toEqual(['999', '999', '49.95', '1048.95', '1']);
  });
});

describe('exchangeRate (BTAE-04)', () => {
  it('given an exchange rate, when read, then it is used as sent', () => {
    const d = parsed({ document_currency: 'USD', exchange_rate: '3.6725', total_amount_with_tax_in_aed: '1.00' });
    expect(text(exchangeRate(d, computeUaeTotals(d)))).toBe('3.6725');
  });

  it('given only the AED totals, when derived, then AED total with VAT / total with VAT, 6 decimals half-up (ibr-002-ae)', () => {
    const d = parsed({ document_currency: 'USD', total_amount_with_tax_in_aed: '3856.13', total_tax_amount_in_aed: '183.63' });
    expect(text(exchangeRate(d, computeUaeTotals(d)))).toBe('3.672505');
  });

  it('given no AED totals, when derived, then none', () => {
    const d = parsed({ document_currency: 'USD' });
    expect(exchangeRate(d, computeUaeTotals(d))).toBeUndefined();
  });
});
