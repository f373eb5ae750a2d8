/**
 * Peppol Transaction Statistics Report (TSR) 1.0.2: the datasets exchanged in a month, counted per
 * transport protocol, per other service provider + dataset type + process, and (incoming only) per
 * sender and receiver country. Source: OpenPeppol eDEC "Peppol Transaction Statistics Reporting
 * Process" v1.0.2 (docs.peppol.eu/edelivery/specs/reporting/tsr/bis, OpenPEPPOL/edec-reporting
 * src/tsr); schema peppol-transaction-statistics-reporting-1.0.1.xsd and Schematron 1.0.5
 * (com.helger.peppol:peppol-reporting-datatypes / peppol-reporting 4.1.0 on Maven Central).
 */
import { el } from '../shared/xml';
import { type ReportHeader, type ReportKey, SEAT_ID_SCHEME, documentTypeKey, groupBy, keyedGroup, processKey, reportDocument } from './keys';
import { type ReportedTransmission, counted } from './transmissions';

/** Incoming and outgoing datasets. */
export interface InOut {
  incoming: number;
  outgoing: number;
}

/** The subtotal types (code list "Subtotal Type"). */
export type SubtotalType = 'PerTP' | 'PerSP-DT-PR' | 'PerSP-DT-PR-CC';

export interface Subtotal extends Readonly<InOut> {
  readonly type: SubtotalType;
  readonly keys: readonly ReportKey[];
}

/** A month's transaction statistics, before they are written as XML. */
export interface TransactionStatistics {
  readonly total: Readonly<InOut>;
  readonly subtotals: readonly Subtotal[];
}

/**
 * Country used for a C4 country an incoming exchange does not know: `ZZ`, which TSR's country code list
 * allows since 1.0.2 (changelog: "Extended the country code list ... to allow the ZZ value").
 */
const UNKNOWN_COUNTRY = 'ZZ';

const tp = (t: ReportedTransmission): ReportKey => ({ metaSchemeID: 'TP', schemeID: 'Peppol', value: t.transportProfile as string });
const sp = (t: ReportedTransmission): ReportKey => ({ metaSchemeID: 'SP', schemeID: SEAT_ID_SCHEME, value: t.otherAccessPoint as string });

/**
 * The statistics of a month's transmissions (those `counted`):
 * - `PerTP` and `PerSP-DT-PR` count both directions; SP is the OTHER access point (C3 for outgoing, C2
 *   for incoming: §3 "The other side must always be the reporting SP");
 * - `PerSP-DT-PR-CC` counts incoming datasets only, its Outgoing always 0 (§3 IMPORTANT, SCH-TSR-43):
 *   a sender never learns the receiver's country;
 * - a subtotal that would be 0 and 0 is not written (§3 "Subtotals without any matching transaction").
 */
export function transactionStatistics(transmissions: readonly ReportedTransmission[]): TransactionStatistics {
  const exchanged = transmissions.filter(counted);
  const inOut = (): InOut => ({ incoming: 0, outgoing: 0 });
  const add = (acc: InOut, t: ReportedTransmission) => {
    if (t.direction === 'incoming') acc.incoming += 1;
    else acc.outgoing += 1;
  };
  const total = inOut();
  for (const t of exchanged) add(total, t);
  const subtotals = (type: SubtotalType, keysOf: (t: ReportedTransmission) => readonly ReportKey[] | undefined): Subtotal[] =>
    groupBy(exchanged, keysOf, inOut, add).map(({ keys, value }) => ({ type, keys, ...value }));
  return {
    total,
    subtotals: [
      ...subtotals('PerTP', (t) => [tp(t)]),
      ...subtotals('PerSP-DT-PR', (t) => [sp(t), documentTypeKey(t), processKey(t)]),
      ...subtotals('PerSP-DT-PR-CC', (t) =>
        t.direction === 'incoming'
          ? [sp(t), documentTypeKey(t), processKey(t), { metaSchemeID: 'CC', schemeID: 'SenderCountry', value: t.countryC1 }, { metaSchemeID: 'CC', schemeID: 'ReceiverCountry', value: t.countryC4 ?? UNKNOWN_COUNTRY }]
          : undefined,
      ),
    ],
  };
}

/** The TSR document (namespace `urn:fdc:peppol:transaction-statistics-report:1.0`). */
export function renderTransactionStatisticsReport(header: ReportHeader, statistics: TransactionStatistics): string {
  const counts = (c: Readonly<InOut>) => [el('Incoming', {}, String(c.incoming)), el('Outgoing', {}, String(c.outgoing))];
  return reportDocument('tsr', header, el('Total', {}, ...counts(statistics.total)), ...statistics.subtotals.map((s) => keyedGroup('Subtotal', s, counts(s))));
}
