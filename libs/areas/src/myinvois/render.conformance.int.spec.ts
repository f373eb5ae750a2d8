/**
 * Rendered documents against the official oracles: the OASIS UBL 2.1 Invoice XSD for the
 * MyInvois XML, and PINT MY 1.3.1 (both Schematron SEFs of billing or self-billing, plus the
 * XSD) for the Peppol form. Bodies go through parseDocument first, as in production.
 */
import { validateUblXsd } from '../conformance/official-validators';
import { myInvoisArea as my } from './area';
import { foreignCustomer, generalPublic, invoiceBody, line, seller, sst, supplier } from './fixtures/bodies';
import { validatePintMy } from './fixtures/pint-my-oracle';
import type { DocumentKind } from './schema-document';

jest.setTimeout(120_000);

type Case = [string, DocumentKind, Record<string, unknown>];
const ref = { InvoiceDocumentReference: [{ UUID: 'F9D425P6DS7D8IU4A8R5EY2K10', InternalID: 'INV-2026-0001' }] };
const recipient = { RecipientName: 'Gudang Klang Sdn Bhd', RecipientTIN: 'C20880050010', RecipientBRN: '199901012345', CityName: 'Klang',
  AddressLines: ['Jalan Amazing 88', 'Pandamaran'], PostalZone: '41200', CountrySubentityCode: '10', CountryCode: 'MYS' };
const selfBilled = (over: Record<string, unknown>) => {
  const { CustomerParty: _c, ...rest } = invoiceBody(over);
  return { ...rest, SupplierParty: seller };
};
const exempt = { TaxType: 'E', TaxExemptionReason: 'Exempt under Sales Tax (Persons Exempted from Payment of Tax) Order 2018' };

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
];

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

  it('given a line with two taxes, when rendered as PINT MY, then it is refused with the reason', () => {
    const doc = my.parseDocument('invoice', invoiceBody({ InvoiceLines: [line('Room', 1, 100, [sst(0.08), { TaxType: '03', TaxBaseUnit: 1, TaxPerUnit: 10 }])] }), supplier);
    expect(() => my.renderPintMy(doc, supplier)).toThrow(/exactly one tax/);
  });
});

describe('the XSD oracle itself', () => {
  it('given a document with an unknown element, when validated, then it is rejected', async () => {
    const { xml } = my.render(my.parseDocument('invoice', invoiceBody(), supplier), supplier);
    expect((await validateUblXsd(xml.replace('<cbc:IssueTime>', '<cbc:Bogus>x</cbc:Bogus><cbc:IssueTime>'))).valid).toBe(false);
  });
});
