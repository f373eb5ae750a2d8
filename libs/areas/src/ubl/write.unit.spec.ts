import { dec } from '../shared/money';
import type { UblDocument } from './document';
import { writeUbl } from './write';

const party = (id: string) => ({ endpoint: { id, schemeId: '0208' }, address: { country: 'BE' }, legalEntity: { registrationName: `Party ${id}` } });

const document = (over: Partial<UblDocument> = {}): UblDocument => ({
  root: 'Invoice',
  customizationId: 'urn:cen.eu:en16931:2017',
  profileId: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  id: 'INV-1',
  issueDate: '2026-03-15',
  dueDate: '2026-04-15',
  typeCode: '380',
  currency: 'EUR',
  seller: party('0123456749'),
  buyer: party('0987654321'),
  taxTotals: [{ currency: 'EUR', tax: dec(21), subtotals: [{ taxable: dec(100), tax: dec(21), category: { id: 'S', percent: dec(21), taxScheme: 'VAT' } }] }],
  totals: { lineExtension: dec(100), taxExclusive: dec(100), taxInclusive: dec(121), payable: dec(121) },
  lines: [{ quantity: dec('1.50'), unitCode: 'C62', lineExtension: dec(100), item: { name: 'Widget', taxCategories: [{ id: 'S', percent: dec(21), taxScheme: 'VAT' }] }, price: dec('66.666') }],
  ...over,
});

const order = (xml: string, names: string[]) => names.map((n) => xml.indexOf(`<${n}`));

describe('writeUbl: the one UBL 2.1 writer of every Peppol layer', () => {
  it('given an invoice, when written, then elements follow the XSD sequence with amounts at 2 decimals and quantities as stated', () => {
    const xml = writeUbl(document({ note: 'Thanks', paymentTerms: 'Net 30', delivery: { date: '2026-03-14', country: 'NL' } }));
    const positions = order(xml, ['cbc:CustomizationID', 'cbc:ID', 'cbc:IssueDate', 'cbc:DueDate', 'cbc:InvoiceTypeCode', 'cbc:Note',
      'cbc:DocumentCurrencyCode', 'cac:AccountingSupplierParty', 'cac:AccountingCustomerParty', 'cac:Delivery', 'cac:PaymentTerms',
      'cac:TaxTotal', 'cac:LegalMonetaryTotal', 'cac:InvoiceLine']);
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(xml).toContain('<cbc:PayableAmount currencyID="EUR">121.00</cbc:PayableAmount>');
    expect(xml).toContain('<cbc:InvoicedQuantity unitCode="C62">1.5</cbc:InvoicedQuantity>');
    expect(xml).toContain('<cbc:PriceAmount currencyID="EUR">66.666</cbc:PriceAmount>');
  });

  it('given a credit note with a due date, when written, then it has CreditNote names and no cbc:DueDate (not in its schema)', () => {
    const xml = writeUbl(document({ root: 'CreditNote', typeCode: '381' }));
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    expect(xml).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
    expect(xml).toContain('<cac:CreditNoteLine>');
    expect(xml).toContain('<cbc:CreditedQuantity');
    expect(xml).not.toContain('DueDate');
  });

  it('given optional parts left unsaid or empty, when written, then no empty element appears (PEPPOL-EN16931-R008)', () => {
    const xml = writeUbl(document({ note: '', buyerReference: undefined, seller: { ...party('1'), contact: { name: '', email: undefined } } }));
    expect(xml).not.toMatch(/<(cbc:Note|cbc:BuyerReference|cac:Contact|cbc:UUID|cac:PaymentTerms)\b/);
    expect(xml).not.toMatch(/<([\w:]+)[^>]*>\s*<\/\1>/);
  });

  it('given a zero rate, when written, then the category states Percent 0 (only an absent percent is left out)', () => {
    const zero = { id: 'Z', percent: dec(0), taxScheme: 'VAT' };
    const outside = { id: 'O', taxScheme: 'VAT', exemptionReason: 'Not subject to VAT' };
    const xml = writeUbl(document({ taxTotals: [{ currency: 'EUR', tax: dec(0), subtotals: [
      { taxable: dec(100), tax: dec(0), category: zero }, { taxable: dec(5), tax: dec(0), category: outside }] }] }));
    expect(xml).toMatch(/<cbc:ID>Z<\/cbc:ID>\s*<cbc:Percent>0<\/cbc:Percent>/);
    expect(xml).toMatch(/<cbc:ID>O<\/cbc:ID>\s*<cbc:TaxExemptionReason>Not subject to VAT<\/cbc:TaxExemptionReason>/);
  });
});
