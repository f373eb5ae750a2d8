/** MyInvois on the generic reporting pipeline (#8): the report's types, its connector and where it keeps tokens. */
export * from './report';
export { MyInvoisReportingConnector, type MyInvoisReportingOptions } from './connector';
export { myInvoisReportingConnector, storedCredentials } from './from-env';
export { PostgresTokenStore } from './token-store';
export { myInvoisReportingMigrations } from './migrations';
export { carriedReportsOf, myInvoisCarryOver, type CarryOverContext, type LegacyEvent } from './carry-over';
export { REJECTION_REASON_MAX, buyerRejectionRequest, refusalKind, rejectionReport, rejectionInProgress, rejectionReportId, type BuyerRejectionAsked } from './buyer-rejection';
export { carriedRejectionsOf, myInvoisRejectionCarryOver } from './carry-over-rejections';
