import { validateReport } from '../../../../test/support/peppol-reporting-oracle';
import { month } from './fixtures/a-month';
import { reportingPeriod } from './period';
import { buildMonthlyReports } from './reports';

/**
 * The reports against OpenPeppol's own XSD and Schematron (TSR 1.0.1 XSD + Schematron 1.0.5, EUSR 1.1 XSD
 * + Schematron 1.1.5, from Maven Central: test/support/peppol-reporting-oracle.ts). Integration level: it
 * runs Maven (first time), Java and SchXslt.
 */
describe('#46 Peppol Reporting passes the official XSD and Schematron', () => {
  const header = { period: reportingPeriod('2026-11')!, reporterSeatId: 'PBE000123' };

  it('a month with exchanges in both directions, several document types, countries and service providers', async () => {
    const { tsr, eusr } = buildMonthlyReports(header, month);
    expect(await validateReport('tsr', tsr.xml)).toEqual({ xsdErrors: [], schematron: [] });
    expect(await validateReport('eusr', eusr.xml)).toEqual({ xsdErrors: [], schematron: [] });
  });

  it('a month without any exchange (the reports are due all the same)', async () => {
    const { tsr, eusr } = buildMonthlyReports(header, []);
    expect(await validateReport('tsr', tsr.xml)).toEqual({ xsdErrors: [], schematron: [] });
    expect(await validateReport('eusr', eusr.xml)).toEqual({ xsdErrors: [], schematron: [] });
  });

  it('the oracle refuses what the specifications refuse (a sum that does not match, a country EUSR does not know, a missing total)', async () => {
    const { tsr, eusr } = buildMonthlyReports(header, month);
    const wrongSum = tsr.xml.replace(/(<Total>\s*<Incoming>)3</, (_, head: string) => `${head}4<`);
    expect(wrongSum).not.toBe(tsr.xml);
    expect((await validateReport('tsr', wrongSum)).schematron.map((f) => f.id)).toEqual(expect.arrayContaining(['SCH-TSR-04', 'SCH-TSR-08', 'SCH-TSR-12']));
    // `ZZ` (country unknown) is allowed in TSR since 1.0.2, never in EUSR (Schematron 1.1.4).
    const unknownCountry = eusr.xml.replace(/schemeID="EndUserCountry">SG</g, 'schemeID="EndUserCountry">ZZ<');
    expect((await validateReport('eusr', unknownCountry)).schematron.map((f) => f.id)).toContain('SCH-EUSR-30');
    const noTotal = tsr.xml.replace(/<Total>[\s\S]*?<\/Total>/, '');
    expect((await validateReport('tsr', noTotal)).xsdErrors).not.toEqual([]);
  });
});
