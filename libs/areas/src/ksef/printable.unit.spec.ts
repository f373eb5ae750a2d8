import type { SupplierProfile } from '@einvoice/domain';
import type { StoredDocument } from '../registry/printable';
import { ksefDocuments } from './codec';
import { ksefPrintable } from './printable';

const supplier: SupplierProfile = {
  registeredName: 'Sprzedawca Sp. z o.o.', identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }], street: 'ul. Prosta 1', city: 'Warszawa', postalCode: '00-001', country: 'PL',
};
/** 2 × 100 EUR at 23 % and 50 EUR at 8 %: 200 + 46, 50 + 4, 300 EUR due. */
const euroInvoice = (over: Record<string, unknown> = {}) => ({
  ID: 'FV/EUR/1', DocumentType: 'Invoice', IssueDate: '2026-11-25', DocumentCurrencyCode: 'EUR', ExchangeRate: 4.2345,
  CustomerParty: { RegisteredName: 'Nabywca S.A.', address: { Street: 'ul. Krzywa 2', ZipCode: '30-001', City: 'Kraków', Country: 'PL' }, Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }] },
  InvoiceLines: [
    { Description: 'Usługa doradcza', PriceAmount: 100, InvoicedQuantity: 2, TaxType: { TaxRate: 23, TaxType: 'standard', TaxCountry: 'PL' } },
    { Description: 'Catering', PriceAmount: 50, TaxType: { TaxRate: 8, TaxType: 'reduced', TaxCountry: 'PL' } },
  ],
  TotalIncludingVat: 300,
  ...over,
});
const parsed = (body: Record<string, unknown>) => ksefDocuments.parse(body, supplier, 'ksef');
const codesOf = (body: Record<string, unknown>) => {
  try {
    parsed(body);
    return [];
  } catch (error) {
    return ((error as { issues?: Array<{ code: string }> }).issues ?? [error]).map((i) => (i as { code: string }).code);
  }
};

describe('#49 a KSeF invoice in another currency: its VAT in PLN', () => {
  it('FA(3) states the VAT per rate in PLN (P_14_xW: the tax times the rate, to the grosz) and the rate on each taxed line', () => {
    const document = parsed(euroInvoice());
    const xml = ksefDocuments.render!(document, supplier, 'x').bytes;
    // 46.00 × 4.2345 = 194.787; 4.00 × 4.2345 = 16.938.
    const totals = ['<P_13_1>200.00</P_13_1>', '<P_14_1>46.00</P_14_1>', '<P_14_1W>194.79</P_14_1W>', '<P_13_2>50.00</P_13_2>', '<P_14_2>4.00</P_14_2>', '<P_14_2W>16.94</P_14_2W>', '<P_15>300.00</P_15>'];
    // In the schema's order.
    expect(totals.map((element) => xml.indexOf(element))).toEqual(totals.map((element) => xml.indexOf(element)).sort((a, b) => a - b));
    for (const element of totals) expect(xml).toContain(element);
    expect(xml.match(/<KursWaluty>4\.2345<\/KursWaluty>/g)).toHaveLength(2);
  });

  it('the printed view shows each rate\'s VAT in PLN, their sum and the rate', () => {
    const document = parsed(euroInvoice());
    const stored: StoredDocument = {
      id: '0193a7e0-0000-7000-8000-000000000001', number: 'FV/EUR/1', type: 'Invoice', direction: 'outgoing', fields: document.fields, receipt: null, reportState: 'pending',
      renderedSha256: null, xml: null, createdAt: '2026-11-25T10:00:00Z', supplier,
    };
    const view = ksefPrintable.build(stored);
    expect(view.totals).toMatchObject({ currency: 'EUR', payable: '300.00' });
    expect(view.taxes.map((row) => [row.rate, row.tax, row.otherTax])).toEqual([['23', '46.00', '194.79'], ['8', '4.00', '16.94']]);
    expect(view.otherTotals).toEqual({ currency: 'PLN', tax: '211.73', rate: '4.2345' });
  });

  it('asks for the rate where the VAT needs it, and takes none on a PLN invoice', () => {
    expect(codesOf(euroInvoice({ ExchangeRate: undefined }))).toEqual(['KSEF.EXCHANGE_RATE']);
    expect(codesOf(euroInvoice({ DocumentCurrencyCode: 'PLN' }))).toEqual(['KSEF.EXCHANGE_RATE']);
    expect(codesOf(euroInvoice({ ExchangeRate: 0 }))).toEqual(['KSEF.EXCHANGE_RATE']);
    // No VAT at 23, 8 or 5 %: nothing to state in PLN (the README's euro example).
    const services = { InvoiceLines: [{ Description: 'Consulting', PriceAmount: 1000, TaxType: { TaxRate: 0, TaxType: 'not_subject_services', TaxCountry: 'PL' } }], TotalIncludingVat: 1000 };
    expect(codesOf(euroInvoice({ ...services, ExchangeRate: undefined }))).toEqual([]);
  });
});
