/**
 * Rendered documents against the official oracles: the OASIS UBL 2.1 Invoice XSD for the
 * MyInvois XML, and PINT MY 1.3.1 (both Schematron SEFs of billing or self-billing, plus the
 * XSD) for the Peppol form. Bodies go through parseDocument first, as in production.
 */
import { validateUblXsd } from '../conformance/official-validators';
import { myInvoisArea as my } from './area';
import { adjusted as ref, customer, exempt, foreignCustomer, generalPublic, invoiceBody, line, seller, selfBilledBody as selfBilled, sst, supplier } from './fixtures/bodies';
import { validatePintMy } from './fixtures/pint-my-oracle';
import type { DocumentKind } from './schema-document';

jest.setTimeout(120_000);

type Case = [string, DocumentKind, Record<string, unknown>];
const recipient = { RecipientName: 'Gudang Klang Sdn Bhd', RecipientTIN: 'C20880050010', RecipientBRN: '199901012345', CityName: 'Klang',
  AddressLines: ['Jalan Amazing 88', 'Pandamaran'], PostalZone: '41200', CountrySubentityCode: '10', CountryCode: 'MYS' };

const cases: Case[] = [
  ['invoice in MYR, service tax', 'invoice', invoiceBody()],
  ['invoice in USD with exchange rate to a foreign buyer', 'invoice', invoiceBody({ DocumentCurrencyCode: 'USD', TaxExchangeRate: '4.7215', CustomerParty: foreignCustomer,
    InvoiceLines: [line('Consulting', 3.5, 333.33, [sst(0.08)], { UOM: 'HUR' }), line('Export goods', 10, 12.345, [exempt])] })],
  ['invoice with exemption only', 'invoice', invoiceBody({ InvoiceLines: [line('Medicine', 4, 25.5, [exempt])] })],
  ['invoice with per-unit tourism tax', 'invoice', invoiceBody({ InvoiceLines: [line('Hotel room', 3, 250, [{ TaxType: '03', TaxBaseUnit: 3, TaxPerUnit: 10 }], { UOM: 'DAY' })] })],
  ['invoice with two taxes on one line', 'invoice', invoiceBody({ InvoiceLines: [line('Room + service', 2, 150, [sst(0.08), { TaxType: '03', TaxBaseUnit: 2, TaxPerUnit: 10 }])] })],
  ['invoice with discounts, charges and prepayment', 'invoice', invoiceBody({
    InvoiceLines: [line('Laptop', 2, 3999, [sst(0.1)], { Discounts: [{ Amount: 200, Reason: 'Bundle' }], Charges: [{ Amount: 15.5, Reason: 'Insurance' }] }),
      line('Cable', 5, 9.9, [sst(0.1)])],
    Discounts: [{ Amount: 50, Reason: 'Loyalty' }], Charges: [{ Amount: 20, Reason: 'Handling' }],
    Prepayments: [{ PaymentID: 'PP-1', Amount: 1000, Date: '2026-03-01', Time: '09-00-00Z' }] })],
  ['invoice with delivery details, customs form and incoterms', 'invoice', invoiceBody({ DeliveryDetails: { ...recipient, ShipmentID: 'SHIP-1', ShipmentCharges: [{ Amount: 80, Reason: 'Freight' }] },
    CustomsImportForm: 'E12345678912', Incoterms: 'CIF' })],
  ['invoice with InvoiceTotal rounding', 'invoice', invoiceBody({ InvoiceLines: [line('a', 1, 10.005, [sst()]), line('b', 1, 10.005, [sst()])], InvoiceTotal: 21.23 })],
  ['credit note 02', 'invoice', invoiceBody({ InvoiceTypeCode: '02', ...ref, InvoiceLines: [line('Returned widget', 1, 50, [sst()])] })],
  ['debit note 03', 'invoice', invoiceBody({ InvoiceTypeCode: '03', ...ref, InvoiceLines: [line('Late fee', 1, 20, [{ TaxType: '06' }])] })],
  ['refund note 04', 'invoice', invoiceBody({ InvoiceTypeCode: '04', ...ref, InvoiceLines: [line('Refund', 1, 50, [sst()])] })],
  ['consolidated for the general public', 'consolidated', invoiceBody({ CustomerParty: generalPublic, ID: 'CONS-2026-03',
    InvoiceLines: [line('Receipts R-0001 to R-0150', 1, 15432.1, [sst()], { ClassificationCode: ['004'] }), line('Receipts R-0151 to R-0180', 1, 800, [exempt], { ClassificationCode: ['004'] })] })],
  ['self-billed invoice 11', 'self-billed', selfBilled({ InvoiceLines: [line('Oil palm fruit', 1000, 0.85, [{ TaxType: '06' }], { UOM: 'KGM', ClassificationCode: ['037'] })] })],
  ['self-billed credit note 12 with delivery', 'self-billed', selfBilled({ InvoiceTypeCode: '02', ...ref, DeliveryDetails: recipient,
    InvoiceLines: [line('Oil palm fruit (returned)', 10, 0.85, [{ TaxType: '06' }], { UOM: 'KGM' })] })],
];

describe('MyInvois XML against the UBL 2.1 Invoice XSD', () => {
  it.each(cases)('given %s, when rendered, then the XSD reports no error', async (_name, kind, body) => {
    const doc = my.parseDocument(kind, body, supplier);
    const { xml } = my.render(doc, supplier);
    const { errors } = await validateUblXsd(xml);
    if (errors.length) console.log(xml);
    expect(errors).toEqual([]);
  });
});

const pintCases: Case[] = [
  ['invoice in MYR', 'invoice', invoiceBody()],
  ['invoice in USD with exchange rate', 'invoice', invoiceBody({ DocumentCurrencyCode: 'USD', TaxExchangeRate: 4.7215, CustomerParty: foreignCustomer,
    InvoiceLines: [line('Consulting', 3.5, 333.33, [sst(0.08)])] })],
  ['invoice with exempt and standard lines', 'invoice', invoiceBody({ InvoiceLines: [line('Medicine', 4, 25.5, [exempt]), line('Soap', 3, 4.35, [{ TaxType: '01', TaxRate: 0.1 }])] })],
  ['invoice with tourism tax per unit', 'invoice', invoiceBody({ InvoiceLines: [line('Hotel room', 3, 250, [{ TaxType: '03', TaxBaseUnit: 3, TaxPerUnit: 10 }], { UOM: 'DAY' })] })],
  ['invoice with document discount and charge', 'invoice', invoiceBody({ Discounts: [{ Amount: 5, Reason: 'Loyalty' }], Charges: [{ Amount: 2, Reason: 'Handling' }],
    InvoiceLines: [line('Widget', 2, 50, [sst()], { Discounts: [{ Amount: 1, Reason: 'Promo' }] })] })],
  ['credit note 02', 'invoice', invoiceBody({ InvoiceTypeCode: '02', ...ref, InvoiceLines: [line('Returned widget', 1, 50, [sst()])] })],
  ['debit note 03', 'invoice', invoiceBody({ InvoiceTypeCode: '03', ...ref })],
  ['consolidated', 'consolidated', invoiceBody({ CustomerParty: generalPublic, InvoiceLines: [line('Receipts R-0001 to R-0150', 1, 15432.1, [sst()])] })],
  ['self-billed invoice', 'self-billed', selfBilled({ InvoiceLines: [line('Oil palm fruit', 1000, 0.85, [{ TaxType: '06' }], { UOM: 'KGM' })] })],
  ['self-billed credit note', 'self-billed', selfBilled({ InvoiceTypeCode: '02', ...ref, InvoiceLines: [line('Oil palm fruit', 10, 0.85, [{ TaxType: '06' }], { UOM: 'KGM' })] })],
  ...everyDocumentType(),
  ...multiTaxLines(),
  ...perUnitTaxes(),
  ...countries(),
];

/** Every MyInvois type: 01–04 (invoice, credit, debit, refund note) and self-billed 11–14 (ibr-cl-01 of each specification). */
function everyDocumentType(): Case[] {
  const lines = [line('Widget', 2, 50, [sst()]), line('Spare part', 1, 12.5, [{ TaxType: '01', TaxRate: 0.1 }])];
  return [
    ...(['01', '02', '03', '04'] as const).map((t): Case => [`type ${t} (billing)`, 'invoice', invoiceBody({ InvoiceTypeCode: t, ...(t === '01' ? {} : ref), InvoiceLines: lines })]),
    ...(['01', '02', '03', '04'] as const).map((t): Case => [`type 1${t.slice(1)} (self-billing)`, 'self-billed', selfBilled({ InvoiceTypeCode: t, ...(t === '01' ? {} : ref),
      InvoiceLines: [line('Oil palm fruit', 1000, 0.85, [{ TaxType: '06' }], { UOM: 'KGM' })] })]),
  ];
}

/** Lines with several LineTaxes: one ClassifiedTaxCategory and one line subtotal each. */
function multiTaxLines(): Case[] {
  const ttx = { TaxType: '03', TaxBaseUnit: 2, TaxPerUnit: 10 };
  return [
    ['a line with service tax and per-unit tourism tax (official Invoice-Sample-TTX shape)', 'invoice', invoiceBody({ InvoiceLines: [line('Room + service', 2, 150, [sst(0.08), ttx], { UOM: 'DAY' })] })],
    ['a line with sales and service tax, next to a single-tax line at the same rates', 'invoice', invoiceBody({
      InvoiceLines: [line('Installed unit', 3, 333.33, [{ TaxType: '01', TaxRate: 0.1 }, sst(0.08)]), line('Parts', 7, 19.99, [{ TaxType: '01', TaxRate: 0.1 }]), line('Labour', 2, 80, [sst(0.08)])] })],
    ['a line with an exemption and a tax not applicable next to taxed lines', 'invoice', invoiceBody({
      InvoiceLines: [line('Exempt kit', 1, 40, [exempt, { TaxType: '06' }]), line('Service', 1, 100, [sst(0.06), { TaxType: '06' }])] })],
    ['a credit note with a line carrying high-value goods tax and tourism tax', 'invoice', invoiceBody({ InvoiceTypeCode: '02', ...ref,
      InvoiceLines: [line('Suite (refunded)', 1, 5000, [{ TaxType: '04', TaxRate: 0.05 }, { TaxType: '03', TaxBaseUnit: 1, TaxPerUnit: 10 }])] })],
    ['a multi-category document with document-level discounts and charges (untaxed, category O)', 'invoice', invoiceBody({
      Discounts: [{ Amount: 25, Reason: 'Loyalty' }], Charges: [{ Amount: 12.5, Reason: 'Handling' }],
      InvoiceLines: [line('Laptop', 1, 3999, [{ TaxType: '01', TaxRate: 0.1 }, sst(0.08)]), line('Medicine', 2, 10, [exempt]), line('Room', 1, 200, [ttx])] })],
    ['many lines whose per-line rounding exceeds the breakdown slack (EN 16931 amount)', 'invoice', invoiceBody({
      InvoiceLines: Array.from({ length: 10 }, (_, i) => line(`Sticker ${i + 1}`, 1, 0.05, [{ TaxType: '01', TaxRate: 0.1 }, sst(0.06)])) })],
    ['a foreign-currency self-billed document with a multi-tax line', 'self-billed', selfBilled({ SupplierParty: { ...seller, SupplierSST: 'W10-1808-32000002' }, DocumentCurrencyCode: 'USD', TaxExchangeRate: 4.7215,
      InvoiceLines: [line('Processing', 10, 12.345, [{ TaxType: '01', TaxRate: 0.05 }, sst(0.06)])] })],
  ];
}

/** TaxBaseUnit × TaxPerUnit for every tax type: TTX as is, the VAT-scheme categories at the line's effective rate. */
function perUnitTaxes(): Case[] {
  const perUnit = (TaxType: string, TaxBaseUnit: number, TaxPerUnit: number) => ({ TaxType, TaxBaseUnit, TaxPerUnit });
  return [
    ['per-unit sales tax (01)', 'invoice', invoiceBody({ InvoiceLines: [line('Sugary drink', 24, 3.1, [perUnit('01', 24, 0.4)], { UOM: 'LTR' })] })],
    ['per-unit service tax (02) with a repeating effective rate', 'invoice', invoiceBody({ InvoiceLines: [line('Hours', 3, 1, [perUnit('02', 1, 1)], { UOM: 'HUR' })] })],
    ['per-unit high-value (04) and low-value goods tax (05) next to rated lines', 'invoice', invoiceBody({ InvoiceLines: [
      line('Watch', 1, 12999.99, [perUnit('04', 1, 650)]), line('Gadget', 2, 99.9, [perUnit('05', 2, 9.99)]), line('Strap', 1, 120, [{ TaxType: '04', TaxRate: 0.05 }])] })],
    ['per-unit zero exemption and not-applicable taxes', 'invoice', invoiceBody({ InvoiceLines: [line('Rice', 10, 2.6, [{ ...exempt, TaxBaseUnit: 10, TaxPerUnit: 0 }, perUnit('06', 10, 0)], { UOM: 'KGM' })] })],
    ['tourism tax as a rate', 'invoice', invoiceBody({ InvoiceLines: [line('Tour package', 1, 800, [{ TaxType: '03', TaxRate: 0.05 }])] })],
  ];
}

/** Non-trivial countries: every party's alpha-3 code is stated as alpha-2 (ibr-cl-14). */
function countries(): Case[] {
  const abroad = (CountryCode: string, CityName: string) => ({ ...customer, CountryCode, CityName, CountrySubentityCode: '17' });
  return [
    ...([['GBR', 'London'], ['USA', 'Seattle'], ['CHN', 'Shenzhen'], ['SGP', 'Singapore'], ['ALA', 'Mariehamn'], ['BES', 'Kralendijk']] as const)
      .map(([code, city]): Case => [`a buyer in ${code}`, 'invoice', invoiceBody({ CustomerParty: abroad(code, city) })]),
    ['a self-billed document from a seller in CHN', 'self-billed', selfBilled({ SupplierParty: { ...seller, SupplierTIN: 'EI00000000030', SupplierNRIC: undefined, SupplierPassport: 'E12345678',
      CountryCode: 'CHN', CountrySubentityCode: '17', CityName: 'Guangzhou' }, InvoiceLines: [line('Machinery', 1, 25000, [{ TaxType: '06' }])] })],
  ];
}

describe('PINT MY 1.3.1 (transport_mode peppol)', () => {
  it.each(pintCases)('given %s, when rendered as PINT MY, then XSD and both Schematron SEFs report no error', async (_name, kind, body) => {
    const doc = my.parseDocument(kind, body, supplier);
    const xml = my.renderPintMy(doc, supplier);
    const { xsd, failures } = await validatePintMy(kind === 'self-billed' ? 'selfbilling' : 'billing', xml);
    const report = [...xsd.errors, ...failures.map((f) => `${f.id} [${f.flag}] ${f.location}: ${f.text}`)];
    if (report.length) console.log(`${report.join('\n')}\n${xml}`);
    expect(report).toEqual([]);
  });

  it('given a PINT MY document with a tampered specification identifier, when validated, then the oracle rejects it', async () => {
    const xml = my.renderPintMy(my.parseDocument('invoice', invoiceBody(), supplier), supplier).replace('billing-1@my-1', 'billing-1@xx-1');
    const { failures } = await validatePintMy('billing', xml);
    expect(failures.map((f) => f.id)).toContain('aligned-ibrp-001-my');
  });

  it('given a line with two taxes, when rendered as PINT MY, then each tax is its own item category and line subtotal', () => {
    const doc = my.parseDocument('invoice', invoiceBody({ InvoiceLines: [line('Room', 1, 100, [sst(0.08), { TaxType: '03', TaxBaseUnit: 1, TaxPerUnit: 10 }])] }), supplier);
    const xml = my.renderPintMy(doc, supplier);
    expect(xml.match(/<cac:ClassifiedTaxCategory>/g)).toHaveLength(2);
    expect(xml).toContain('<cbc:PerUnitAmount currencyID="MYR">10</cbc:PerUnitAmount>');
  });
});

describe('the XSD oracle itself', () => {
  it('given a document with an unknown element, when validated, then it is rejected', async () => {
    const { xml } = my.render(my.parseDocument('invoice', invoiceBody(), supplier), supplier);
    expect((await validateUblXsd(xml.replace('<cbc:IssueTime>', '<cbc:Bogus>x</cbc:Bogus><cbc:IssueTime>'))).valid).toBe(false);
  });
});
