import { parseXml } from '../shared/xml-read';
import { AS4, BIS_CREDIT_NOTE, BIS_INVOICE, BIS_PROCESS, PINT_PROCESS, PINT_SG, month, out } from './fixtures/a-month';
import { REPORTING_SPECIFICATIONS, peppolDocumentIds, sellerCountryOf } from './identifiers';
import { previousMonth, reportingPeriod } from './period';
import { buildMonthlyReports } from './reports';
import { endUserStatistics } from './eusr';
import { transactionStatistics } from './tsr';

/** A subtotal or subset found by its type and its keys' values, in order. */
const find = <T extends { type: string; keys: ReadonlyArray<{ value: string }> }>(rows: readonly T[], type: string, ...values: string[]) =>
  rows.filter((r) => r.type === type && r.keys.map((k) => k.value).join('|') === values.join('|'));
const value = (id: string) => id.slice(id.indexOf('::') + 2);

describe('Peppol Reporting: TSR aggregation (TSR 1.0.2 §3)', () => {
  const tsr = transactionStatistics(month);

  it('counts what crossed the network, in and out; not hand-overs here, not the reports themselves', () => {
    expect(tsr.total).toEqual({ incoming: 3, outgoing: 5 });
  });

  it('subtotals per transport protocol, and per other service provider, dataset type and process', () => {
    expect(tsr.subtotals.filter((s) => s.type === 'PerTP')).toEqual([
      { type: 'PerTP', keys: [{ metaSchemeID: 'TP', schemeID: 'Peppol', value: AS4 }], incoming: 3, outgoing: 5 },
    ]);
    const perSp = tsr.subtotals.filter((s) => s.type === 'PerSP-DT-PR');
    expect(perSp).toHaveLength(4);
    expect(find(perSp, 'PerSP-DT-PR', 'PDE000001', value(BIS_INVOICE), value(BIS_PROCESS))).toMatchObject([{ incoming: 2, outgoing: 2 }]);
    expect(find(perSp, 'PerSP-DT-PR', 'PDE000001', value(BIS_CREDIT_NOTE), value(BIS_PROCESS))).toMatchObject([{ incoming: 0, outgoing: 1 }]);
    expect(find(perSp, 'PerSP-DT-PR', 'PNL000002', value(BIS_INVOICE), value(BIS_PROCESS))).toMatchObject([{ incoming: 1, outgoing: 1 }]);
    expect(find(perSp, 'PerSP-DT-PR', 'PSG000003', value(PINT_SG), value(PINT_PROCESS))).toMatchObject([{ incoming: 0, outgoing: 1 }]);
    expect(perSp[0].keys.map((k) => [k.metaSchemeID, k.schemeID])).toEqual([['SP', 'CertSubjectCN'], ['DT', 'busdox-docid-qns'], ['PR', 'cenbii-procid-ubl']]);
    expect(find(perSp, 'PerSP-DT-PR', 'PSG000003', value(PINT_SG), value(PINT_PROCESS))[0].keys[1].schemeID).toBe('peppol-doctype-wildcard');
  });

  it('subtotals per country pair for incoming datasets only, Outgoing always 0 (SCH-TSR-43)', () => {
    const perCc = tsr.subtotals.filter((s) => s.type === 'PerSP-DT-PR-CC');
    expect(perCc).toHaveLength(2);
    expect(find(perCc, 'PerSP-DT-PR-CC', 'PDE000001', value(BIS_INVOICE), value(BIS_PROCESS), 'DE', 'BE')).toMatchObject([{ incoming: 2, outgoing: 0 }]);
    expect(find(perCc, 'PerSP-DT-PR-CC', 'PNL000002', value(BIS_INVOICE), value(BIS_PROCESS), 'NL', 'BE')).toMatchObject([{ incoming: 1, outgoing: 0 }]);
    expect(perCc[0].keys.slice(3).map((k) => k.schemeID)).toEqual(['SenderCountry', 'ReceiverCountry']);
  });

  it('writes no subtotal for a month without exchanges, only the zero total', () => {
    expect(transactionStatistics([])).toEqual({ total: { incoming: 0, outgoing: 0 }, subtotals: [] });
  });
});

describe('Peppol Reporting: EUSR end user counting (EUSR 1.1.1 §3)', () => {
  const eusr = endUserStatistics(month);

  it('counts distinct end users, however many datasets each exchanged', () => {
    // Sending A, B, C; receiving A, D; either A, B, C, D (B's hand-over and the report do not count).
    expect(eusr.fullSet).toEqual({ sending: 3, receiving: 2, sendingOrReceiving: 4 });
  });

  it('subsets per dataset type and process, per end user country (C1 of senders, C4 of receivers), and both', () => {
    const counts = (type: string, ...values: string[]) => find(eusr.subsets, type, ...values).map(({ sending, receiving, sendingOrReceiving }) => [sending, receiving, sendingOrReceiving]);
    expect(counts('PerDT-PR', value(BIS_INVOICE), value(BIS_PROCESS))).toEqual([[2, 2, 3]]);
    expect(counts('PerDT-PR', value(BIS_CREDIT_NOTE), value(BIS_PROCESS))).toEqual([[1, 0, 1]]);
    expect(counts('PerDT-PR', value(PINT_SG), value(PINT_PROCESS))).toEqual([[1, 0, 1]]);
    expect(counts('PerDT-PR-EUC', value(BIS_INVOICE), value(BIS_PROCESS), 'BE')).toEqual([[2, 2, 3]]);
    expect(counts('PerDT-PR-EUC', value(PINT_SG), value(PINT_PROCESS), 'SG')).toEqual([[1, 0, 1]]);
    expect(counts('PerDT-EUC', value(BIS_CREDIT_NOTE), 'BE')).toEqual([[1, 0, 1]]);
    expect(counts('PerEUC', 'BE')).toEqual([[2, 2, 3]]);
    expect(counts('PerEUC', 'SG')).toEqual([[1, 0, 1]]);
    expect(eusr.subsets.map((s) => s.type)).toEqual([
      ...Array(3).fill('PerDT-PR'), ...Array(3).fill('PerDT-PR-EUC'), ...Array(3).fill('PerDT-EUC'), ...Array(2).fill('PerEUC'),
    ]);
  });

  it('one end user with two participant ids is one end user: counted by its id here', () => {
    expect(endUserStatistics([out('A', 'PDE000001', BIS_INVOICE, 'BE'), out('A', 'PNL000002', BIS_INVOICE, 'BE')]).fullSet).toEqual({ sending: 1, receiving: 0, sendingOrReceiving: 1 });
  });
});

describe('Peppol Reporting: documents', () => {
  const period = reportingPeriod('2024-02')!;

  it('writes both reports with the specifications identifiers, the period and the reporter', () => {
    const { tsr, eusr } = buildMonthlyReports({ period, reporterSeatId: 'PBE000123' }, month);
    const t = parseXml(tsr.xml);
    expect([t.ns, t.name]).toEqual(['urn:fdc:peppol:transaction-statistics-report:1.0', 'TransactionStatisticsReport']);
    expect(t.children.map((c) => c.name)).toEqual(['CustomizationID', 'ProfileID', 'Header', 'Total', ...Array(7).fill('Subtotal')]);
    expect(tsr.xml).toContain('<StartDate>2024-02-01</StartDate>');
    expect(tsr.xml).toContain('<EndDate>2024-02-29</EndDate>');
    expect(tsr.xml).toContain('<ReporterID schemeID="CertSubjectCN">PBE000123</ReporterID>');
    const e = parseXml(eusr.xml);
    expect([e.ns, e.name]).toEqual(['urn:fdc:peppol:end-user-statistics-report:1.1', 'EndUserStatisticsReport']);
    expect(e.children.map((c) => c.name).slice(0, 4)).toEqual(['CustomizationID', 'ProfileID', 'Header', 'FullSet']);
    expect(eusr.xml).toContain('<SendingOrReceivingEndUsers>4</SendingOrReceivingEndUsers>');
  });

  it('refuses a reporter that is not a seat id (SCH-TSR-18 would refuse the report)', () => {
    expect(() => buildMonthlyReports({ period, reporterSeatId: 'POP-1' }, [])).toThrow(/seat id/);
  });
});

describe('Peppol Reporting: identifiers and periods', () => {
  it('reads a document type and process from a UBL document, PINT under the wildcard scheme', () => {
    const ubl = (root: string, customizationId: string, profileId: string) =>
      `<?xml version="1.0"?><!-- x --><${root} xmlns="urn:oasis:names:specification:ubl:schema:xsd:${root}-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">` +
      `<cbc:CustomizationID>${customizationId}</cbc:CustomizationID><cbc:ProfileID>${profileId}</cbc:ProfileID></${root}>`;
    expect(peppolDocumentIds(ubl('Invoice', 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0', 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0')))
      .toEqual({ documentTypeId: BIS_INVOICE, processId: BIS_PROCESS });
    expect(peppolDocumentIds(ubl('CreditNote', 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0', 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0'))?.documentTypeId).toBe(BIS_CREDIT_NOTE);
    expect(peppolDocumentIds(ubl('Invoice', 'urn:peppol:pint:billing-1@sg-1', 'urn:peppol:bis:billing'))).toEqual({ documentTypeId: PINT_SG, processId: PINT_PROCESS });
    expect(peppolDocumentIds('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>')).toBeUndefined();
  });

  it('names a built report by the identifiers of its specification', () => {
    const { tsr, eusr } = buildMonthlyReports({ period: reportingPeriod('2026-01')!, reporterSeatId: 'PBE000123' }, []);
    expect(peppolDocumentIds(tsr.xml)).toEqual({ documentTypeId: REPORTING_SPECIFICATIONS.tsr.documentTypeId, processId: REPORTING_SPECIFICATIONS.processId });
    expect(peppolDocumentIds(eusr.xml)?.documentTypeId).toBe(REPORTING_SPECIFICATIONS.eusr.documentTypeId);
  });

  it('falls back on the seller country of a UBL document', () => {
    const xml = '<Invoice><cac:AccountingSupplierParty><cac:Party><cac:PostalAddress><cac:Country><cbc:IdentificationCode>DE</cbc:IdentificationCode></cac:Country></cac:PostalAddress></cac:Party></cac:AccountingSupplierParty></Invoice>';
    expect(sellerCountryOf(xml)).toBe('DE');
  });

  it('takes a month from its first to its last day, UTC', () => {
    expect(reportingPeriod('2026-12')).toMatchObject({ startDate: '2026-12-01', endDate: '2026-12-31', from: new Date('2026-12-01T00:00:00Z'), until: new Date('2027-01-01T00:00:00Z') });
    expect(reportingPeriod('2026-13')).toBeUndefined();
    expect(reportingPeriod('26-01')).toBeUndefined();
    expect(previousMonth(new Date('2026-01-10T12:00:00Z'))).toBe('2025-12');
  });
});
