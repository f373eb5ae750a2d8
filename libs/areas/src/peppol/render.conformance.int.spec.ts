/**
 * Rendered documents against the official oracles (DESIGN.md: Peppol BIS 3.0 and PINT SG
 * Schematron plus UBL 2.1 XSD). Bodies go through parseInvoice first, as in production.
 */
import { validateOfficial, validateUblXsd } from '../conformance/official-validators';
import { computeTotals } from '../peppol-ubl/totals';
import { parseInvoice } from './codec';
import { profiles } from '../peppol-ubl/profiles';
import { renderDocument } from '../peppol-ubl/render';
import { customers, line, suppliers } from '../peppol-ubl/fixtures/bodies';

jest.setTimeout(120_000);

type Case = [string, 'be' | 'de' | 'sg', Record<string, unknown>];

function body(doc: Record<string, unknown>, area: 'be' | 'de' | 'sg'): Record<string, unknown> {
  // Let computeTotals give the total so each case only describes its lines.
  const profile = profiles[area];
  const lines = (doc.InvoiceLines as { InvoicedQuantity?: number }[]);
  const total = computeTotals(profile, { InvoiceLines: lines as never }).totalIncludingVat.toNumber();
  return { IssueDate: '2026-03-15', TotalIncludingVat: total, ...doc };
}

const manyLines = Array.from({ length: 40 }, (_, i) => line(`Item ${i + 1}`, 0.1 + i * 1.37, (i % 3) + 0.25, i % 2 ? 'standard' : 'reduced', i % 2 ? 21 : 6, 'BE'));

const cases: Case[] = [
  ['BE 380 standard + reduced + zero', 'be', { ID: 'BE-1', DocumentType: '380', CustomerParty: customers.be,
    InvoiceLines: [line('Widget', 19.99, 3, 'standard', 21, 'BE'), line('Book', 12.5, 2.5, 'reduced', 6, 'BE'), line('Newspaper', 2, 1, 'zero', 0, 'BE')] }],
  ['BE 380 many lines with decimal quantities', 'be', { ID: 'BE-2', DocumentType: '380', CustomerParty: customers.be, InvoiceLines: manyLines, DueDate: '2026-04-15' }],
  ['BE 388 exempt with reason', 'be', { ID: 'BE-3', DocumentType: '388', CustomerParty: customers.be,
    InvoiceLines: [line('Medical care', 250, 1, 'exempt', 0, 'BE', 'Article 44 VAT Code'), line('Bandage', 10, 1, 'standard', 21, 'BE')] }],
  ['BE 380 reverse charge to NL buyer, USD', 'be', { ID: 'BE-4', DocumentType: '380', DocumentCurrencyCode: 'USD', CustomerParty: customers.nl,
    InvoiceLines: [line('Installation', 1000, 1, 'reverse_charge', 0, 'BE')], PaymentTerms: '30 days net' }],
  ['BE 380 intra-community supply', 'be', { ID: 'BE-5', DocumentType: '380', CustomerParty: customers.nl,
    InvoiceLines: [line('Machine', 5000, 2, 'intra_community', 0, 'BE')] }],
  ['BE 380 export to US', 'be', { ID: 'BE-6', DocumentType: '380', CustomerParty: customers.us, InvoiceLines: [line('Chocolate', 3.333, 7, 'export', 0, 'BE')] }],
  ['BE 381 credit note', 'be', { ID: 'BE-CN-1', DocumentType: '381', CustomerParty: customers.be, BillingReference: { ID: 'BE-1', IssueDate: '2026-03-01' },
    InvoiceLines: [line('Returned widget', 19.99, 1, 'standard', 21, 'BE')] }],
  ['BE 396 factored credit note', 'be', { ID: 'BE-CN-2', DocumentType: '396', CustomerParty: customers.be, BillingReference: { ID: 'BE-2' },
    InvoiceLines: [line('Discount', 5, 1, 'standard', 21, 'BE')], DueDate: '2026-04-01', PaymentMeans: { Code: '30', AccountID: 'BE68539007547034' } }],
  ['BE 532 forwarder credit note', 'be', { ID: 'BE-CN-3', DocumentType: '532', CustomerParty: customers.be, BillingReference: { ID: 'BE-3' },
    InvoiceLines: [line('Freight correction', 80, 1, 'standard', 21, 'BE')] }],
  ['BE 383 debit note', 'be', { ID: 'BE-7', DocumentType: '383', CustomerParty: customers.be, InvoiceLines: [line('Late fee', 15, 1, 'standard', 21, 'BE')] }],
  ['BE 380 outside scope only', 'be', { ID: 'BE-8', DocumentType: '380', CustomerParty: customers.be, InvoiceLines: [line('Damages', 500, 1, 'outside_scope', 0, 'BE')] }],
  ['DE 380 domestic with payment means', 'de', { ID: 'DE-1', DocumentType: '380', CustomerParty: customers.de, BuyerReference: '04011000-12345-34',
    PaymentMeans: { Code: '58', AccountID: 'DE89370400440532013000', AccountName: 'Berliner Teile' },
    InvoiceLines: [line('Schrauben', 0.1, 1000, 'standard', 19, 'DE'), line('Buch', 0.2, 3, 'reduced', 7, 'DE'), line('Zeitung', 0.3, 1, 'reduced', 7, 'DE')] }],
  ['DE 326-like partial construction 875 to NL, intra-community + standard', 'de', { ID: 'DE-2', DocumentType: '875', CustomerParty: customers.nl,
    InvoiceLines: [line('Bauteil', 1234.56, 1.5, 'intra_community', 0, 'DE')], DeliveryDate: '2026-03-10' }],
  ['DE 381 credit note domestic', 'de', { ID: 'DE-CN-1', DocumentType: '381', CustomerParty: customers.de, BillingReference: { ID: 'DE-1' },
    PaymentMeans: { Code: '58', AccountID: 'DE89370400440532013000' }, InvoiceLines: [line('Gutschrift', 10, 1, 'standard', 19, 'DE')] }],
  ['DE 380 export to US in USD', 'de', { ID: 'DE-3', DocumentType: '380', DocumentCurrencyCode: 'USD', CustomerParty: customers.us,
    InvoiceLines: [line('Maschine', 9999.99, 1, 'export', 0, 'DE')] }],
  ['SG Invoice standard + zero', 'sg', { ID: 'SG-1', DocumentType: 'Invoice', CustomerParty: customers.sg,
    InvoiceLines: [line('Laptop', 1999, 2, 'standard', 9, 'SG'), line('Export freight', 100, 1, 'zero', 0, 'SG')] }],
  ['SG Invoice in USD with exchange rate', 'sg', { ID: 'SG-2', DocumentType: 'Invoice', DocumentCurrencyCode: 'USD', TaxExchangeRate: 1.3456, CustomerParty: customers.sg,
    InvoiceLines: [line('Service', 333.33, 3, 'standard', 9, 'SG'), line('Exported goods', 50, 1.5, 'export', 0, 'SG')], DueDate: '2026-04-30' }],
  ['SG Invoice exempt and out of scope', 'sg', { ID: 'SG-3', DocumentType: 'Invoice', CustomerParty: customers.sg,
    InvoiceLines: [line('Financial service', 500, 1, 'exempt', 0, 'SG'), line('Disbursement', 20, 1, 'outside_scope', 0, 'SG'), line('Fee', 10, 1, 'standard', 9, 'SG')] }],
  ['SG Invoice not GST registered', 'sg', { ID: 'SG-4', DocumentType: 'Invoice', CustomerParty: customers.sg, InvoiceLines: [line('Handicraft', 45, 2, 'not_registered', 0, 'SG')] }],
  ['SG CreditNote', 'sg', { ID: 'SG-CN-1', DocumentType: 'CreditNote', CustomerParty: customers.sg, BillingReference: { ID: 'SG-1', IssueDate: '2026-03-01' },
    Note: 'Returned one laptop', InvoiceLines: [line('Laptop', 1999, 1, 'standard', 9, 'SG')] }],
  ['SG DebitNote', 'sg', { ID: 'SG-DN-1', DocumentType: 'DebitNote', CustomerParty: customers.sg, InvoiceLines: [line('Extra shipping', 12.34, 1, 'standard', 9, 'SG')] }],
];

describe('rendered documents pass the official validators', () => {
  it.each(cases)('given %s, when rendered, then XSD and Schematron report no error', async (_name, area, doc) => {
    const dto = parseInvoice(profiles[area], body(doc, area), suppliers[area]);
    const xml = renderDocument(profiles[area], dto, suppliers[area], '2523149b-cb40-4b32-9004-debca57b80ee');
    const { xsd, failures } = await validateOfficial(profiles[area].ruleSet, xml);
    const report = [...xsd.errors, ...failures.map((f) => `${f.id} [${f.flag}] ${f.location}: ${f.text}`)];
    if (report.length) console.log(`${report.join('\n')}\n${xml}`);
    expect(report).toEqual([]);
  });

  it('given a rendered invoice whose payable amount is tampered with, when validated, then Schematron reports the broken rule', async () => {
    const dto = parseInvoice(profiles.be, body(cases[0][2], 'be'), suppliers.be);
    const xml = renderDocument(profiles.be, dto, suppliers.be, '2523149b-cb40-4b32-9004-debca57b80ee')
      .replace(/<cbc:PayableAmount currencyID="EUR">[^<]*</, '<cbc:PayableAmount currencyID="EUR">1.00<');
    const { failures } = await validateOfficial('peppol-bis-3', xml);
    expect(failures.map((f) => f.id)).toContain('BR-CO-16');
  });

  it('given a document missing a mandatory UBL element, when XSD-validated, then the oracle rejects it', async () => {
    const { valid } = await validateUblXsd('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><Bogus/></Invoice>');
    expect(valid).toBe(false);
  });
});
