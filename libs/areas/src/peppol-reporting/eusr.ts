/**
 * Peppol End User Statistics Report (EUSR) 1.1.1: how many distinct end users sent, received, or sent or
 * received datasets in a month, in full and per dataset type + process, per end user country, and per
 * both. Source: OpenPeppol eDEC "Peppol End User Statistics Reporting Process" v1.1.1
 * (docs.peppol.eu/edelivery/specs/reporting/eusr/bis, OpenPEPPOL/edec-reporting src/eusr); schema
 * peppol-end-user-statistics-reporting-1.1.xsd and Schematron 1.1.5 (com.helger.peppol:
 * peppol-reporting-datatypes / peppol-reporting 4.1.0 on Maven Central).
 */
import { el } from '../shared/xml';
import { type ReportHeader, type ReportKey, documentTypeKey, groupBy, keyedGroup, processKey, reportDocument } from './keys';
import { type ReportedTransmission, counted } from './transmissions';

/** Distinct end users. */
export interface EndUserCounts {
  readonly sending: number;
  readonly receiving: number;
  readonly sendingOrReceiving: number;
}

/** The subset types (code list "Subset Type"). */
export type SubsetType = 'PerDT-PR' | 'PerDT-PR-EUC' | 'PerDT-EUC' | 'PerEUC';

export interface Subset extends EndUserCounts {
  readonly type: SubsetType;
  readonly keys: readonly ReportKey[];
}

/** A month's end user statistics, before they are written as XML. */
export interface EndUserStatistics {
  readonly fullSet: EndUserCounts;
  readonly subsets: readonly Subset[];
}

/** Sets of end user ids, counted at the end. */
class EndUsers {
  readonly sending = new Set<string>();
  readonly receiving = new Set<string>();
  readonly either = new Set<string>();

  add(t: ReportedTransmission): void {
    (t.direction === 'outgoing' ? this.sending : this.receiving).add(t.endUserId);
    this.either.add(t.endUserId);
  }

  counts(): EndUserCounts {
    return { sending: this.sending.size, receiving: this.receiving.size, sendingOrReceiving: this.either.size };
  }
}

/**
 * The end user's country: the sender's (C1) for a sending end user, the receiver's (C4) for a receiving
 * one, the end user being the one served here.
 */
const euc = (t: ReportedTransmission): ReportKey => ({
  metaSchemeID: 'CC',
  schemeID: 'EndUserCountry',
  value: (t.direction === 'outgoing' ? t.countryC1 : t.countryC4) ?? t.countryC1,
});

/**
 * The statistics of a month's transmissions (those `counted`). An end user is counted once per set
 * however many datasets it exchanged (§3 "Full Set Information": distinct end users), by its id here, not
 * per participant identifier (§2 NOTE). A subset whose SendingOrReceivingEndUsers would be 0 is not
 * written (§3 "Subsets without any matching transaction").
 */
export function endUserStatistics(transmissions: readonly ReportedTransmission[]): EndUserStatistics {
  const exchanged = transmissions.filter(counted);
  const full = new EndUsers();
  for (const t of exchanged) full.add(t);
  const subsets = (type: SubsetType, keysOf: (t: ReportedTransmission) => readonly ReportKey[]): Subset[] =>
    groupBy(exchanged, keysOf, () => new EndUsers(), (acc, t) => acc.add(t)).map(({ keys, value }) => ({ type, keys, ...value.counts() }));
  return {
    fullSet: full.counts(),
    subsets: [
      ...subsets('PerDT-PR', (t) => [documentTypeKey(t), processKey(t)]),
      ...subsets('PerDT-PR-EUC', (t) => [documentTypeKey(t), processKey(t), euc(t)]),
      ...subsets('PerDT-EUC', (t) => [documentTypeKey(t), euc(t)]),
      ...subsets('PerEUC', (t) => [euc(t)]),
    ],
  };
}

/** The EUSR document (namespace `urn:fdc:peppol:end-user-statistics-report:1.1`). */
export function renderEndUserStatisticsReport(header: ReportHeader, statistics: EndUserStatistics): string {
  const counts = (c: EndUserCounts) => [
    el('SendingEndUsers', {}, String(c.sending)),
    el('ReceivingEndUsers', {}, String(c.receiving)),
    el('SendingOrReceivingEndUsers', {}, String(c.sendingOrReceiving)),
  ];
  return reportDocument('eusr', header, el('FullSet', {}, ...counts(statistics.fullSet)), ...statistics.subsets.map((s) => keyedGroup('Subset', s, counts(s))));
}
