import { myInvoisArea as my } from './area';
import { adjusted, exempt, invoiceBody, line, selfBilledBody, sst, supplier } from './fixtures/bodies';
import { pintMyRefusal } from './fixtures/pint-my-oracle';
import { pintMyType } from './pint-my-codes';
import { effectivePercent, pintMyTaxes } from './pint-my-taxes';
import { dec } from '../shared/money';
import { computeTotals } from './totals';

const parse = (lines: Record<string, unknown>[], over: Record<string, unknown> = {}) => my.parseDocument('invoice', invoiceBody({ InvoiceLines: lines, ...over }), supplier);
const taxesOf = (lines: Record<string, unknown>[], over: Record<string, unknown> = {}) => {
  const { body } = parse(lines, over);
  return { pint: pintMyTaxes(body, computeTotals(body)), myinvois: computeTotals(body) };
};
const refusalOf = (lines: Record<string, unknown>[]) => pintMyRefusal(() => my.renderPintMy(parse(lines), supplier));
const perUnit = (TaxType: string, TaxBaseUnit: number, TaxPerUnit: number) => ({ TaxType, TaxBaseUnit, TaxPerUnit });

describe('PINT MY document types (ibr-cl-01 of billing and self-billing)', () => {
  it.each([
    ['01', 'Invoice', '380'], ['02', 'CreditNote', '381'], ['03', 'Invoice', '383'], ['04', 'CreditNote', '381'],
    ['11', 'Invoice', '389'], ['12', 'CreditNote', '261'], ['13', 'Invoice', '389'], ['14', 'CreditNote', '261'],
  ])('MyInvois %s → %s %s', (code, root, typeCode) => {
    expect(pintMyType(code)).toEqual({ root, typeCode });
  });

  it('refuses a code MyInvois does not define', () => {
    expect(() => pintMyType('05')).toThrow(RangeError);
  });

  it('renders a self-billed refund note (14) as CreditNote 261 with its BillingReference', () => {
    const xml = my.renderPintMy(my.parseDocument('self-billed', selfBilledBody({ InvoiceTypeCode: '04', ...adjusted, InvoiceLines: [line('Fruit', 1, 10, [{ TaxType: '06' }])] }), supplier), supplier);
    expect(xml).toContain('<cbc:CreditNoteTypeCode>261</cbc:CreditNoteTypeCode>');
    expect(xml).toMatch(/<cac:BillingReference>\s*<cac:InvoiceDocumentReference>\s*<cbc:ID>INV-2026-0001<\/cbc:ID>\s*<cbc:UUID>F9D425P6DS7D8IU4A8R5EY2K10<\/cbc:UUID>/);
  });
});

describe('effectivePercent (per-unit tax of a VAT-scheme category as a rate, aligned-ibrp-*-09)', () => {
  it('finds the shortest rate that reproduces the amount exactly', () => {
    expect(effectivePercent(dec('74.40'), dec('9.60'))?.toFixed()).toBe('12.9');
    expect(effectivePercent(dec(3), dec(1))?.toFixed()).toBe('33.3');
    expect(effectivePercent(dec('12345.67'), dec('1000'))?.toFixed()).toBe('8.1');
    expect(effectivePercent(dec(100), dec(0))?.toFixed()).toBe('0');
  });

  it('finds none for a tax on a zero or negative net amount', () => {
    expect(effectivePercent(dec(0), dec(5))).toBeUndefined();
    expect(effectivePercent(dec(-10), dec(5))).toBeUndefined();
  });
});

describe('PINT MY taxes agree with the MyInvois totals', () => {
  it('a line with two taxes counts in both breakdowns and the tax total is the MyInvois one', () => {
    const { pint, myinvois } = taxesOf([line('Unit', 3, 333.33, [{ TaxType: '01', TaxRate: 0.1 }, sst(0.08)]), line('Room', 2, 150, [sst(0.08), perUnit('03', 2, 10)])]);
    expect(pint.lines[0].categories.map((c) => c.code)).toEqual(['SA', 'SE']);
    expect(pint.breakdown.map((b) => [b.category.code, b.taxable.toFixed(2), b.amount.toFixed(2)])).toEqual([
      ['SA', '999.99', '100.00'], ['SE', '1299.99', '104.00'], ['TTX', '300.00', '20.00']]);
    expect(pint.total.toFixed(2)).toBe(myinvois.taxTotal.toFixed(2));
    // aligned-ibrp-ttx-09 reads a TTX line's TaxAmount as its tourism tax (official Invoice-Sample-TTX).
    expect(pint.lines[1].taxAmount.toFixed(2)).toBe('20.00');
    expect(pint.lines[0].taxAmount.toFixed(2)).toBe('180.00');
  });

  it('a per-unit sales tax keeps base and amount per unit and its exact amount', () => {
    const { pint, myinvois } = taxesOf([line('Drink', 24, 3.1, [perUnit('01', 24, 0.4)])]);
    expect(pint.lines[0].taxes[0]).toMatchObject({ baseUnit: dec(24), perUnit: dec(0.4), amount: dec('9.6') });
    expect(pint.total.equals(myinvois.taxTotal)).toBe(true);
  });

  it('per-line rounding beyond the official slack falls back to EN 16931 round2(taxable × rate)', () => {
    const { pint, myinvois } = taxesOf(Array.from({ length: 10 }, () => line('Sticker', 1, 0.05, [{ TaxType: '01', TaxRate: 0.1 }])));
    expect(myinvois.taxTotal.toFixed(2)).toBe('0.10');
    expect(pint.total.toFixed(2)).toBe('0.05');
  });

  it('document-level discounts and charges are untaxed (category O), as in MyInvois', () => {
    const { pint, myinvois } = taxesOf([line('Widget', 2, 50, [sst()])], { Discounts: [{ Amount: 5, Reason: 'Loyalty' }], Charges: [{ Amount: 2, Reason: 'Handling' }] });
    expect(pint.breakdown.map((b) => [b.category.code, b.taxable.toFixed(2), b.amount.toFixed(2)])).toEqual([['SE', '100.00', '6.00'], ['O', '-3.00', '0.00']]);
    expect(pint.total.equals(myinvois.taxTotal)).toBe(true);
  });
});

describe('what PINT MY cannot express is refused, naming the field and the official rule', () => {
  it('an exemption with a non-zero rate (aligned-ibrp-e-05); with rate 0 it renders', () => {
    expect(refusalOf([line('Kit', 1, 40, [{ ...exempt, TaxRate: 0.06 }])])).toMatchObject({ path: 'InvoiceLines[0].LineTaxes[0].TaxRate', rule: 'aligned-ibrp-e-05' });
    expect(() => my.renderPintMy(parse([line('Kit', 1, 40, [{ ...exempt, TaxRate: 0 }])]), supplier)).not.toThrow();
  });

  it('an exemption with a per-unit amount (aligned-ibrp-e-09); with 0 per unit it renders', () => {
    expect(refusalOf([line('Kit', 1, 40, [{ ...exempt, TaxBaseUnit: 1, TaxPerUnit: 2 }])])).toMatchObject({ path: 'InvoiceLines[0].LineTaxes[0].TaxPerUnit', rule: 'aligned-ibrp-e-09' });
    expect(() => my.renderPintMy(parse([line('Kit', 1, 40, [{ ...exempt, TaxBaseUnit: 1, TaxPerUnit: 0 }])]), supplier)).not.toThrow();
  });

  it('a tax of type 06 (not applicable) that amounts to something (aligned-ibrp-o-09); at 0 it renders', () => {
    expect(refusalOf([line('Fee', 1, 40, [sst(), { TaxType: '06', TaxRate: 0.05 }])])).toMatchObject({ path: 'InvoiceLines[0].LineTaxes[1].TaxRate', rule: 'aligned-ibrp-o-09' });
    expect(() => my.renderPintMy(parse([line('Fee', 1, 40, [sst(), { TaxType: '06', TaxRate: 0 }])]), supplier)).not.toThrow();
  });

  it('a per-unit sales tax on a zero net amount (aligned-ibrp-sa-09); on a positive one it renders', () => {
    expect(refusalOf([line('Sample', 1, 0, [perUnit('01', 1, 2)])])).toMatchObject({ path: 'InvoiceLines[0].LineTaxes[0].TaxPerUnit', rule: 'aligned-ibrp-sa-09' });
    expect(() => my.renderPintMy(parse([line('Sample', 1, 1, [perUnit('01', 1, 2)])]), supplier)).not.toThrow();
  });

  it('the same category and rate twice on one line (aligned-ibrp-se-08); two rates of one category render', () => {
    expect(refusalOf([line('Twice', 1, 100, [sst(0.06), sst(0.06)])])).toMatchObject({ path: 'InvoiceLines[0].LineTaxes[1]', rule: 'aligned-ibrp-se-08' });
    expect(() => my.renderPintMy(parse([line('Twice', 1, 100, [sst(0.06), sst(0.08)])]), supplier)).not.toThrow();
  });

  it('a line whose second tax shares the rate of another line\'s breakdown of its first category (aligned-ibrp-sa-08); other rates render', () => {
    const mixed = line('Mixed', 1, 100, [{ TaxType: '01', TaxRate: 0.1 }, sst(0.06)]);
    expect(refusalOf([mixed, line('Plain', 1, 50, [{ TaxType: '01', TaxRate: 0.06 }])])).toMatchObject({ path: 'InvoiceLines[0].LineTaxes[0]', rule: 'aligned-ibrp-sa-08' });
    expect(() => my.renderPintMy(parse([mixed, line('Plain', 1, 50, [{ TaxType: '01', TaxRate: 0.05 }])]), supplier)).not.toThrow();
  });
});
