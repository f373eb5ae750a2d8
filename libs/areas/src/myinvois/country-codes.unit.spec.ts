import isISO31661Alpha2 from 'validator/lib/isISO31661Alpha2';
import isISO31661Alpha3 from 'validator/lib/isISO31661Alpha3';
import { myInvoisArea as my } from './area';
import { alpha2Of, toAlpha2 } from './country-codes';
import { customer, invoiceBody, supplier } from './fixtures/bodies';
import { pintMyRefusal } from './fixtures/pint-my-oracle';

/** Every three-letter code rules.ts accepts as a country (it asks validator's ISO 3166-1 alpha-3 list). */
const acceptedByMyInvois = (): string[] => {
  const letters = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];
  return letters.flatMap((a) => letters.flatMap((b) => letters.map((c) => `${a}${b}${c}`))).filter((code) => isISO31661Alpha3(code));
};

describe('ISO 3166-1 alpha-3 → alpha-2 (PINT MY states countries as alpha-2, ibr-cl-14)', () => {
  it('maps every country code the MyInvois rules accept to an assigned alpha-2 code', () => {
    const accepted = acceptedByMyInvois();
    expect(accepted.length).toBeGreaterThan(240);
    const unmapped = accepted.filter((code) => !toAlpha2(code) || !isISO31661Alpha2(toAlpha2(code) as string));
    expect(unmapped).toEqual([]);
  });

  it('maps one-to-one and holds nothing MyInvois would refuse', () => {
    expect(new Set(Object.values(alpha2Of)).size).toBe(Object.keys(alpha2Of).length);
    expect(Object.keys(alpha2Of).filter((code) => !isISO31661Alpha3(code))).toEqual([]);
  });

  it.each([['MYS', 'MY'], ['GBR', 'GB'], ['USA', 'US'], ['CHN', 'CN'], ['SGP', 'SG'], ['ALA', 'AX'], ['BES', 'BQ'], ['SGS', 'GS'], ['MYT', 'YT']])('%s → %s', (alpha3, alpha2) => {
    expect(toAlpha2(alpha3)).toBe(alpha2);
  });

  it('knows no unassigned or user-assigned code (XKX, ZZZ) and no inherited object key', () => {
    expect(toAlpha2('XKX')).toBeUndefined();
    expect(toAlpha2('ZZZ')).toBeUndefined();
    expect(toAlpha2('toString')).toBeUndefined();
  });
});

describe('renderPintMy and the country of a party', () => {
  it('given a buyer in GBR, when rendered, then its country is GB', () => {
    const doc = my.parseDocument('invoice', invoiceBody({ CustomerParty: { ...customer, CountryCode: 'GBR', CountrySubentityCode: '17' } }), supplier);
    expect(my.renderPintMy(doc, supplier)).toContain('<cbc:IdentificationCode>GB</cbc:IdentificationCode>');
  });

  it('given a country with no alpha-2 code (past the MyInvois rules), when rendered, then it is refused naming the field and ibr-cl-14', () => {
    const doc = my.parseDocument('invoice', invoiceBody(), supplier);
    const body = doc.body as unknown as { CustomerParty: Record<string, unknown> };
    const unknown = { ...doc, body: { ...doc.body, CustomerParty: { ...body.CustomerParty, CountryCode: 'XKX' } } } as typeof doc;
    expect(pintMyRefusal(() => my.renderPintMy(unknown, supplier))).toMatchObject({ path: 'CustomerParty.CountryCode', rule: 'ibr-cl-14' });
  });
});
