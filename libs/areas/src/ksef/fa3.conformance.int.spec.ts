// Every kind of FA(3) invoice the Polish area renders, against the Ministry's schema
// (shared/conformance/ksef/FA/schemat_FA(3)_v1-0E.xsd): it is what KSeF checks first.
import { type Fa3Invoice, fa3Totals, renderFa3 } from './fa3';
import { fa3Problems } from './fa3-check';
import { fa3Oracle, fa3OracleMany } from './testing/fa3-oracle';

const base: Fa3Invoice = {
  number: 'FV/2026/11/001',
  issueDate: '2026-11-25',
  currency: 'PLN',
  seller: { nip: '5260250274', name: 'Sprzedawca Sp. z o.o.', address: { country: 'PL', line1: 'ul. Prosta 1', line2: '00-001 Warszawa' } },
  buyer: { name: 'Nabywca S.A.', id: { nip: '1234563218' }, address: { country: 'PL', line1: 'ul. Krzywa 2', line2: '30-001 Kraków' } },
  lines: [
    { description: 'Usługa doradcza', quantity: 2, unitPrice: 100, rate: '23' },
    { description: 'Książka', quantity: 1, unitPrice: 40, rate: '5' },
    { description: 'Catering', quantity: 3, unitPrice: 12.5, rate: '8' },
  ],
  createdAt: new Date('2026-11-25T10:00:00Z'),
};

async function expectValid(invoice: Fa3Invoice) {
  const xml = renderFa3(invoice);
  const result = await fa3Oracle(xml);
  expect(result.errors).toEqual([]);
  expect(result.valid).toBe(true);
  // The sandbox KSeF's own structural check (fa3-check.ts) agrees with the Ministry's schema.
  expect(fa3Problems(xml)).toEqual([]);
  return xml;
}

describe('FA(3) against schemat_FA(3)_v1-0E.xsd', () => {
  it('a VAT invoice at 23, 8 and 5 % with its totals per rate', async () => {
    const xml = await expectValid(base);
    expect(xml).toContain('<KodFormularza kodSystemowy="FA (3)" wersjaSchemy="1-0E">FA</KodFormularza>');
    expect(xml).toContain('<P_13_1>200.00</P_13_1>');
    expect(xml).toContain('<P_14_1>46.00</P_14_1>');
    expect(xml).toContain('<P_13_2>37.50</P_13_2>');
    expect(xml).toContain('<P_14_2>3.00</P_14_2>');
    expect(xml).toContain('<P_13_3>40.00</P_13_3>');
    expect(xml).toContain('<P_14_3>2.00</P_14_3>');
    expect(xml).toContain('<P_15>328.50</P_15>');
    expect(fa3Totals(base.lines).total).toBe('328.50');
  });

  it('an invoice in euros: the VAT per rate in PLN too (P_14_xW) and the rate on each taxed line (KursWaluty)', async () => {
    const xml = await expectValid({ ...base, currency: 'EUR', exchangeRate: 4.2345, lines: [...base.lines, { description: 'Usługa dla podatnika z UE', quantity: 1, unitPrice: 100, rate: 'np II' }] });
    // The schema (the oracle above) holds them to their places; their amounts: each rate's VAT × 4.2345, to the grosz.
    expect(xml).toContain('<P_14_1W>194.79</P_14_1W>');
    expect(xml).toContain('<P_14_2W>12.70</P_14_2W>');
    expect(xml).toContain('<P_14_3W>8.47</P_14_3W>');
    expect(xml.match(/<KursWaluty>4\.2345<\/KursWaluty>/g)).toHaveLength(3);
  });

  it('an exempt line with its legal basis, a zero-rated export, reverse charge, not-subject services', async () => {
    await expectValid({
      ...base,
      lines: [
        { description: 'Usługa medyczna', quantity: 1, unitPrice: 300, rate: 'zw' },
        { description: 'Eksport towaru', quantity: 1, unitPrice: 500, rate: '0 EX' },
        { description: 'Złom', quantity: 10, unitPrice: 2.5, rate: 'oo' },
        { description: 'Usługa dla podatnika z UE', quantity: 1, unitPrice: 100, rate: 'np II' },
      ],
      exemptionBasis: 'art. 43 ust. 1 pkt 18 ustawy o VAT',
    });
  });

  it('buyers identified by EU VAT number, by another id, or not at all', async () => {
    await expectValid({ ...base, buyer: { ...base.buyer, id: { euVat: { country: 'DE', number: '123456789' } }, address: { country: 'DE', line1: 'Hauptstr. 1', line2: '10115 Berlin' } }, lines: [{ description: 'WDT', quantity: 1, unitPrice: 10, rate: '0 WDT' }] });
    await expectValid({ ...base, buyer: { ...base.buyer, id: { other: { country: 'US', id: '12-3456789' } }, address: { country: 'US', line1: '1 Main St', line2: 'Springfield' } } });
    await expectValid({ ...base, buyer: { ...base.buyer, id: { none: true } } });
  });

  it('a correction (KOR) of an invoice with its KSeF number, and of one without', async () => {
    const ksefNumber = '5260250274-20261125-0123456789AB-CD';
    const withNumber = await expectValid({ ...base, number: 'KOR/2026/11/001', correction: { reason: 'Błędna cena', invoice: { number: 'FV/2026/11/001', issueDate: '2026-11-25', ksefNumber } } });
    expect(withNumber).toContain('<RodzajFaktury>KOR</RodzajFaktury>');
    expect(withNumber).toContain(`<NrKSeFFaKorygowanej>${ksefNumber}</NrKSeFFaKorygowanej>`);
    await expectValid({ ...base, number: 'KOR/2026/11/002', correction: { reason: 'Rabat', invoice: { number: 'FV/2026/10/007', issueDate: '2026-10-30' } } });
  });

  it('the schema refuses what KSeF would (a checker that cannot fail is no checker)', async () => {
    const result = await fa3Oracle(renderFa3({ ...base, seller: { ...base.seller, nip: '0123456789' } }));
    expect(result.valid).toBe(false);
    expect(result.errors.join('\n')).toMatch(/NIP/);
    expect(fa3Problems(renderFa3({ ...base, seller: { ...base.seller, nip: '0123456789' } })).join('\n')).toMatch(/Podmiot1\/DaneIdentyfikacyjne\/NIP '0123456789'/);
  });

  it('several invoices in one run of the validator get each their own verdict', async () => {
    const good = renderFa3(base);
    const bad = renderFa3({ ...base, seller: { ...base.seller, nip: '0123456789' } });
    const verdicts = await fa3OracleMany([good, bad, good]);
    expect(verdicts.map((v) => v.valid)).toEqual([true, false, true]);
    expect(verdicts[1].errors.join('\n')).toMatch(/NIP/);
  });
});
