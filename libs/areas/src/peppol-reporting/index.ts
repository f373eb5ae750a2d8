/** Peppol Reporting (TSR 1.0.2, EUSR 1.1.1): pure building of the monthly reports (README.md). */
export { type PeppolDocumentIds, REPORTING_SPECIFICATIONS, isStatisticsReport, peppolDocumentIds, sellerCountryOf, splitIdentifier } from './identifiers';
export { type ReportHeader, type ReportKey, SEAT_ID } from './keys';
export { type ReportingPeriod, previousMonth, reportingPeriod } from './period';
export { type ReportedTransmission, counted } from './transmissions';
export { type InOut, type Subtotal, type SubtotalType, type TransactionStatistics, renderTransactionStatisticsReport, transactionStatistics } from './tsr';
export { type EndUserCounts, type EndUserStatistics, type Subset, type SubsetType, endUserStatistics, renderEndUserStatisticsReport } from './eusr';
export { type MonthlyReports, REPORT_KINDS, type ReportKind, buildMonthlyReports } from './reports';
