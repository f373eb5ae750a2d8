import { isKsefNumber, newKsefNumber } from './ksef-number';
import { isValidNip, normalizeNip } from '../shared/nip';
import { ksefQrLink } from './qr';
import { polishRate } from './rates';

describe('Polish NIP', () => {
  it.each(['5260250274', '1234563218', '7680002466', '526-025-02-74', 'PL5260250274'])('%s is valid', (nip) => {
    expect(isValidNip(nip)).toBe(true);
  });
  it.each(['5260250275', '123456321', '0123456789', 'ABCDEFGHIJ', ''])('%s is refused', (nip) => {
    expect(isValidNip(nip)).toBe(false);
  });
  it('reads the separators people write', () => {
    expect(normalizeNip('PL 526-025-02-74')).toBe('5260250274');
  });
});

describe('TaxType to the FA(3) rate', () => {
  it('maps the seed\'s types and their rates', () => {
    expect(polishRate('standard', 23)).toEqual({ rate: '23' });
    expect(polishRate('reduced', 8)).toEqual({ rate: '8' });
    expect(polishRate('reduced', 5)).toEqual({ rate: '5' });
    expect(polishRate('exempt', 0)).toEqual({ rate: 'zw' });
    expect(polishRate('export', 0)).toEqual({ rate: '0 EX' });
  });
  it('refuses what FA(3) cannot express, naming what it can', () => {
    expect(polishRate('standard', 21)).toEqual({ refused: expect.stringContaining('TaxRate 23') });
    expect(polishRate('reduced', 7)).toEqual({ refused: expect.stringContaining('8 or 5') });
    expect(polishRate('luxury', 30)).toEqual({ refused: expect.stringContaining('standard, reduced') });
  });
});

describe('KSeF verification link', () => {
  it('names the seller, the issue date and the SHA-256 of the file in Base64URL, on the test host in sandbox', () => {
    const link = ksefQrLink('test', { sellerNip: '5260250274', issueDate: '2026-11-25', xml: 'abc' });
    expect(link).toBe('https://qr-test.ksef.mf.gov.pl/invoice/5260250274/25-11-2026/ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(ksefQrLink('prod', { sellerNip: '5260250274', issueDate: '2026-11-25', xml: 'abc' })).toMatch(/^https:\/\/qr\.ksef\.mf\.gov\.pl\//);
  });
});

describe('KSeF numbers', () => {
  it('checks the example KSeF publishes (CRC-8, polynomial 0x07, over the first 32 characters)', () => {
    expect(isKsefNumber('5265877635-20250826-0100001AF629-AF')).toBe(true);
    expect(isKsefNumber('5265877635-20250826-0100001AF629-AE')).toBe(false);
  });
  it('makes numbers of the same form', () => {
    const number = newKsefNumber('5260250274', '2026-11-25', Buffer.from('0123456789ab', 'hex'));
    expect(number).toMatch(/^5260250274-20261125-0123456789AB-[0-9A-F]{2}$/);
    expect(isKsefNumber(number)).toBe(true);
  });
});
