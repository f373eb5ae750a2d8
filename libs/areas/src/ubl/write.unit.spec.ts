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

  it('given a credit-note line with allowances and a tax total, when written, then TaxTotal precedes AllowanceCharge (CreditNoteLine XSD order)', () => {
    const l = { ...document().lines[0], allowanceCharges: [{ charge: false, reason: 'Promo', amount: dec(1) }],
      taxTotal: { currency: 'EUR', tax: dec(0), subtotals: [] } };
    const cn = writeUbl(document({ root: 'CreditNote', typeCode: '381', lines: [l] }));
    const inv = writeUbl(document({ lines: [l] }));
    const lineOf = (xml: string) => xml.slice(xml.search(/<cac:(Invoice|CreditNote)Line>/));
    expect(lineOf(cn).indexOf('<cac:TaxTotal>')).toBeLessThan(lineOf(cn).indexOf('<cac:AllowanceCharge>'));
    expect(lineOf(inv).indexOf('<cac:AllowanceCharge>')).toBeLessThan(lineOf(inv).indexOf('<cac:TaxTotal>'));
  });

  it('given the PINT AE parts, when written, then each sits in its XSD place (ProfileExecutionID, references, parties, exchange rate, price details)', () => {
    const xml = writeUbl(document({
      profileExecutionId: '00000000', invoicePeriod: { start: '2026-03-01', end: '2026-03-31' }, orderReference: { id: 'PO-1' },
      billingReferences: [{ id: 'INV-0', issueDate: '2026-02-01' }], despatchReference: 'D-1', statementReference: 'S-1', contractReference: { id: 'C-1', description: 'EUR 5' },
      additionalDocumentReferences: [{ id: 'A-1', embedded: { mimeCode: 'application/pdf', filename: 'a.pdf', base64: 'QQ==' } }], projectReference: 'P-1',
      payee: { name: 'Payee' }, buyerCustomer: { identifications: [{ id: 'B-1' }] }, taxRepresentative: { name: 'Rep', address: { country: 'AE' } },
      delivery: { partyName: 'Dock', address: { street: 'Pier 1', city: 'Dubai', countrySubentity: 'DXB', country: 'AE' } },
      taxExchangeRate: { source: 'EUR', target: 'AED', rate: dec('4.01') },
      lines: [{ ...document().lines[0], priceBaseQuantity: dec(1), priceDiscount: { amount: dec(0), gross: dec('66.666') }, priceExtension: { amount: dec(121), tax: dec(21) } }],
    }));
    const positions = order(xml, ['cbc:ProfileExecutionID', 'cbc:ID', 'cac:InvoicePeriod', 'cac:OrderReference', 'cac:BillingReference', 'cac:DespatchDocumentReference',
      'cac:StatementDocumentReference', 'cac:ContractDocumentReference', 'cac:AdditionalDocumentReference', 'cac:ProjectReference', 'cac:AccountingSupplierParty',
      'cac:PayeeParty', 'cac:BuyerCustomerParty', 'cac:TaxRepresentativeParty', 'cac:Delivery', 'cac:TaxExchangeRate', 'cac:TaxTotal', 'cac:InvoiceLine',
      'cbc:BaseQuantity', 'cbc:BaseAmount', 'cac:ItemPriceExtension']);
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
