// #44 The sandbox KSeF's own structural check of FA(3) (fa3-check.ts): no file outside the repository,
// and a structurally wrong invoice refused as KSeF refuses it (450). The Ministry's XSD agrees on every
// kind of invoice the area renders (fa3.conformance.int.spec.ts).
import { type Fa3Invoice, renderFa3 } from './fa3';
import { fa3Problems } from './fa3-check';
import { semanticsRefusal } from './sandbox-ksef';

const base: Fa3Invoice = {
  number: 'FV/2026/11/001',
  issueDate: '2026-11-25',
  currency: 'PLN',
  seller: { nip: '5260250274', name: 'Sprzedawca Sp. z o.o.', address: { country: 'PL', line1: 'ul. Prosta 1', line2: '00-001 Warszawa' } },
  buyer: { name: 'Nabywca S.A.', id: { nip: '1234563218' }, address: { country: 'PL', line1: 'ul. Krzywa 2', line2: '30-001 Kraków' } },
  lines: [{ description: 'Usługa doradcza', quantity: 2, unitPrice: 100, rate: '23' }],
  createdAt: new Date('2026-11-25T10:00:00Z'),
};
const good = renderFa3(base);

describe('#44 the sandbox KSeF\'s own FA(3) check', () => {
  it('passes what the renderer makes: a VAT invoice, a correction, every kind of buyer id', () => {
    expect(fa3Problems(good)).toEqual([]);
    expect(fa3Problems(renderFa3({ ...base, correction: { reason: 'Rabat', invoice: { number: 'FV/1', issueDate: '2026-10-30' } } }))).toEqual([]);
    expect(fa3Problems(renderFa3({ ...base, buyer: { ...base.buyer, id: { euVat: { country: 'DE', number: '123456789' } } } }))).toEqual([]);
    expect(fa3Problems(renderFa3({ ...base, buyer: { ...base.buyer, id: { none: true } } }))).toEqual([]);
    expect(semanticsRefusal(good)).toBeUndefined();
  });

  it('refuses a seller NIP that is not one, with KSeF\'s 450 and the element', () => {
    const refusal = semanticsRefusal(renderFa3({ ...base, seller: { ...base.seller, nip: '0123456789' } }));
    expect(refusal?.code).toBe('450');
    expect(refusal?.message).toMatch(/^Błąd weryfikacji semantyki dokumentu faktury: Faktura\/Podmiot1\/DaneIdentyfikacyjne\/NIP '0123456789' is not a NIP/);
  });

  it.each([
    ['the wrong namespace', good.replace('http://crd.gov.pl/wzor/2025/06/25/13775/', 'http://crd.gov.pl/wzor/2023/06/29/12648/'), /namespace/],
    ['the FA(2) form code', good.replace('kodSystemowy="FA (3)"', 'kodSystemowy="FA (2)"'), /KodFormularza.*FA \(2\)/],
    ['another schema version', good.replace('wersjaSchemy="1-0E"', 'wersjaSchemy="1-0"'), /wersjaSchemy 1-0\b/],
    ['no Podmiot2', good.replace(/<Podmiot2>[\s\S]*<\/Podmiot2>/, ''), /Faktura\/Podmiot2 is required/],
    ['no KodWaluty', good.replace(/<KodWaluty>PLN<\/KodWaluty>/, ''), /Faktura\/Fa\/KodWaluty is required/],
    ['no P_15', good.replace(/<P_15>[^<]*<\/P_15>/, ''), /Faktura\/Fa\/P_15 is required/],
    ['no RodzajFaktury', good.replace(/<RodzajFaktury>VAT<\/RodzajFaktury>/, ''), /Faktura\/Fa\/RodzajFaktury is required/],
    ['an issue date that is no day', good.replace('<P_1>2026-11-25</P_1>', '<P_1>2026-02-30</P_1>'), /P_1 '2026-02-30' is not a date/],
    ['an amount with 3 decimals', good.replace(/<P_15>[^<]*<\/P_15>/, '<P_15>246.005</P_15>'), /P_15 '246.005' is not an amount with at most 2 decimals/],
    ['an amount with a decimal comma', good.replace(/<P_13_1>[^<]*<\/P_13_1>/, '<P_13_1>200,00</P_13_1>'), /P_13_1 '200,00'/],
    ['a rate FA(3) does not know', good.replace('<P_12>23</P_12>', '<P_12>21</P_12>'), /FaWiersz\[1\]\/P_12 '21' is not a VAT rate/],
    ['a buyer named by NIP and BrakID at once', good.replace('<NIP>1234563218</NIP>', '<NIP>1234563218</NIP><BrakID>1</BrakID>'), /exactly one of NIP.*not NIP and BrakID/],
    ['a correction without the corrected invoice', good.replace('<RodzajFaktury>VAT</RodzajFaktury>', '<RodzajFaktury>KOR</RodzajFaktury>'), /DaneFaKorygowanej is required/],
    ['XML that is not well-formed', good.replace('</Faktura>', ''), /not well-formed XML/],
  ])('refuses %s (450)', (_name, xml, expected) => {
    const refusal = semanticsRefusal(xml);
    expect(refusal?.code).toBe('450');
    expect(refusal?.message).toMatch(expected);
  });

  it('adds the Ministry\'s XSD verdict when the official check ran (CONFORMANCE_DIR)', () => {
    expect(semanticsRefusal(good, { valid: false, errors: ['invoice-0.xml:3: element P_2: not expected'] })?.message).toContain('invoice-0.xml:3: element P_2: not expected');
    expect(semanticsRefusal(good, { valid: true, errors: [] })).toBeUndefined();
  });
});
