// The Peppol copy of Polish invoices (transport_mode peppol) against the official oracles: UBL 2.1 XSD
// and the Peppol BIS Billing 3.0 Schematron. Bodies go through the area's parse first, as in production.
import type { SupplierProfile } from '@einvoice/domain';
import { validateOfficial } from '../conformance/official-validators';
import { ksefDocuments } from './codec';
import type { KsefInvoiceBody } from './schema';

jest.setTimeout(120_000);

const supplier: SupplierProfile = {
  registeredName: 'Sprzedawca Sp. z o.o.',
  identifiers: [{ scheme: 'PL:NIP', id: '5260250274' }],
  street: 'ul. Prosta 1',
  city: 'Warszawa',
  postalCode: '00-001',
  country: 'PL',
} as SupplierProfile;

const belgianBuyer = {
  RegisteredName: 'Koper NV',
  address: { Street: 'Kerkstraat 1', City: 'Brussel', ZipCode: '1000', Country: 'BE' },
  Identifiers: [{ Scheme: 'BE:VAT', ID: 'BE0123456749' }],
};
const polishBuyer = {
  RegisteredName: 'Nabywca S.A.',
  address: { Street: 'ul. Krzywa 2', City: 'Kraków', ZipCode: '30-001', Country: 'PL' },
  Identifiers: [{ Scheme: 'PL:NIP', ID: '1234563218' }],
};
const line = (Description: string, PriceAmount: number, InvoicedQuantity: number, TaxType: string, TaxRate: number) => ({ Description, PriceAmount, InvoicedQuantity, TaxType: { TaxType, TaxRate, TaxCountry: 'PL' } });

const cases: Array<[string, Partial<KsefInvoiceBody> & Record<string, unknown>]> = [
  ['a domestic invoice at 23, 8 and 5 %', { ID: 'FV/1', CustomerParty: polishBuyer, InvoiceLines: [line('Usługa', 100, 2, 'standard', 23), line('Catering', 12.5, 3, 'reduced', 8), line('Książka', 40, 1, 'reduced', 5)], TotalIncludingVat: 328.5 }],
  ['an intra-EU supply to a Belgian buyer', { ID: 'FV/2', CustomerParty: belgianBuyer, InvoiceLines: [line('Maszyna', 5000, 1, 'intra_eu', 0)], TotalIncludingVat: 5000 }],
  ['reverse charge and an exempt line with its basis', { ID: 'FV/3', CustomerParty: belgianBuyer, InvoiceLines: [line('Montaż', 1000, 1, 'reverse_charge', 0), line('Szkolenie', 200, 1, 'exempt', 0)], ExemptionReason: 'art. 43 ust. 1 pkt 29 ustawy o VAT', TotalIncludingVat: 1200 }],
  ['a correction taking away (a credit note referring to the invoice)', {
    ID: 'KOR/1', DocumentType: 'CorrectionInvoice', CustomerParty: polishBuyer, InvoiceLines: [line('Zwrot', 100, -1, 'standard', 23)], TotalIncludingVat: -123,
    CorrectedInvoice: { ID: 'FV/1', IssueDate: '2026-11-20' }, CorrectionReason: 'Zwrot towaru',
  }],
];

describe('the Peppol copy of a Polish invoice', () => {
  it.each(cases)('given %s, when rendered, then XSD and BIS 3.0 Schematron report no error', async (_name, doc) => {
    const body = { DocumentType: 'Invoice', IssueDate: '2026-11-25', ...doc };
    const parsed = ksefDocuments.parse(body, supplier, 'peppol');
    const copy = ksefDocuments.peppolCopy!(parsed, supplier, '2523149b-cb40-4b32-9004-debca57b80ee')!;
    const { xsd, failures } = await validateOfficial('peppol-bis-3', copy.xml);
    const report = [...xsd.errors, ...failures.map((f) => `${f.id} [${f.flag}] ${f.location}: ${f.text}`)];
    if (report.length) console.log(`${report.join('\n')}\n${copy.xml}`);
    expect(report).toEqual([]);
    expect(copy.senderParticipantId).toBe('iso6523-actorid-upis::9945:pl5260250274');
    expect(copy.xml).toContain('<cbc:CompanyID>PL5260250274</cbc:CompanyID>');
  });

  it('given transport_mode ksef, then no copy', () => {
    const parsed = ksefDocuments.parse({ DocumentType: 'Invoice', IssueDate: '2026-11-25', ...cases[0][1] }, supplier, 'ksef');
    expect(ksefDocuments.peppolCopy!(parsed, supplier, '2523149b-cb40-4b32-9004-debca57b80ee')).toBeUndefined();
  });

  it('given a buyer without a Peppol id, then 400 at CustomerParty.Identifiers[0]', () => {
    const buyer = { ...polishBuyer, address: { ...polishBuyer.address, Country: 'UA' }, Identifiers: [{ Scheme: 'UA:EDRPOU', ID: '12345678' }] };
    const body = { DocumentType: 'Invoice', IssueDate: '2026-11-25', ...cases[0][1], CustomerParty: buyer };
    expect(() => ksefDocuments.parse(body, supplier, 'peppol')).toThrow(expect.objectContaining({ issues: [expect.objectContaining({ path: 'CustomerParty.Identifiers[0]', code: 'KSEF.PEPPOL_RECEIVER' })] }));
  });
});
