import { printableFromUbl, ublPrintable, xmlFileName } from './from-ubl';
import { exampleUbl } from './testing/views';
import type { StoredDocument } from '../registry/printable';

describe('#49 the printable view of a UBL document', () => {
  it('reads parties, lines, tax breakdown, totals and payment from a BIS 3.0 invoice, with German labels for Germany', () => {
    const view = printableFromUbl(exampleUbl('de', 'domestic'), { languages: ['en', 'de'] });
    expect(view).toMatchObject({
      title: 'Invoice / Rechnung', number: 'RE-2026-0815', typeCode: '380', issueDate: '2026-03-15', dueDate: '2026-04-14',
      issuer: { name: 'Berliner Teile GmbH', address: ['Unter den Linden 1', '10117 Berlin', 'DE'], identifiers: expect.arrayContaining([{ label: 'VAT', value: 'DE123456789' }]) },
      buyer: { name: 'Hamburger Handel AG' },
      taxes: [{ category: 'S', rate: '19', taxable: '200.00', tax: '38.00' }],
      totals: { currency: 'EUR', net: '200.00', tax: '38.00', taxInclusive: '238.00', payable: '238.00' },
      payment: ['SEPA credit transfer, account DE02120300000000202051', 'Zahlbar innerhalb 30 Tagen netto'],
    });
    expect(view.lines).toEqual([expect.objectContaining({ quantity: '500', unit: 'C62', taxCategory: 'S', taxRate: '19', amount: '200.00' })]);
    expect(view.attachment).toBeUndefined();
  });

  it('titles a credit note as one and names the invoice it corrects (BG-3), with its note', () => {
    const view = printableFromUbl(exampleUbl('be', 'creditNote'), { languages: ['en'] });
    expect(view).toMatchObject({ title: 'Credit note', number: 'CN-2026-0007', notes: ['Two hours invoiced in error.'], totals: { payable: '60.50' } });
    expect(view.references).toContainEqual({ label: 'Corrects invoice', value: 'INV-1773532800 (2026-03-15)' });
  });

  it('states the tax total in the tax currency too where the document is in another one (BT-111)', () => {
    const view = printableFromUbl(exampleUbl('sg', 'foreignCurrency'), { languages: ['en'], taxIdLabel: 'GST' });
    expect(view.totals).toMatchObject({ currency: 'USD', payable: '1090.00' });
    expect(view.otherTotals).toEqual({ currency: 'SGD', tax: '121.50' });
  });

  it('attaches the XML exactly as given, named after the number, through the capability', () => {
    const xml = exampleUbl('be', 'first');
    const stored = { id: 'x', number: '2026:INV', xml } as unknown as StoredDocument;
    const view = ublPrintable({ languages: ['en'] }).build(stored);
    expect(view.attachment).toEqual({ filename: xmlFileName(view.number), xml });
    expect(xmlFileName('INV/2026 #1')).toBe('INV_2026_1.xml');
  });
});
