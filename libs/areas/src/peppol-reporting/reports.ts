/** Both monthly reports of one service provider, from the month's recorded transmissions. */
import { type EndUserStatistics, endUserStatistics, renderEndUserStatisticsReport } from './eusr';
import { type ReportHeader, SEAT_ID } from './keys';
import { type TransactionStatistics, renderTransactionStatisticsReport, transactionStatistics } from './tsr';
import type { ReportedTransmission } from './transmissions';

/** The two reports, kinds as the CLI and the sent documents name them. */
export type ReportKind = 'tsr' | 'eusr';
export const REPORT_KINDS: readonly ReportKind[] = ['tsr', 'eusr'];

/** A month's reports: the figures and the documents. */
export interface MonthlyReports {
  readonly tsr: { readonly statistics: TransactionStatistics; readonly xml: string };
  readonly eusr: { readonly statistics: EndUserStatistics; readonly xml: string };
}

/**
 * Builds both reports. Both are due even for a month without any exchange (§2 "Data Transmission": "MUST
 * be transmitted, even if no other Peppol exchange happened"). Throws on a reporter id that is not a seat
 * id: the report would fail SCH-TSR-18 / SCH-EUSR-08 at OpenPeppol.
 */
export function buildMonthlyReports(header: ReportHeader, transmissions: readonly ReportedTransmission[]): MonthlyReports {
  if (!SEAT_ID.test(header.reporterSeatId)) {
    throw new Error(`The reporter id "${header.reporterSeatId}" is not a Peppol seat id (P, two letters, six digits: the subject CN of the AP certificate, e.g. PBE000123).`);
  }
  const tsr = transactionStatistics(transmissions);
  const eusr = endUserStatistics(transmissions);
  return {
    tsr: { statistics: tsr, xml: renderTransactionStatisticsReport(header, tsr) },
    eusr: { statistics: eusr, xml: renderEndUserStatisticsReport(header, eusr) },
  };
}
