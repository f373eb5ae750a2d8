/** Reporting to the UAE FTA (README.md "Reporting to the FTA"): TDD, MLS, the sandbox FTA and the live access-point client. */
export { uaeFtaConnector, ftaTransportFromEnv, DEFAULT_FTA_ID, DEFAULT_AP_SPID } from './from-env';
export { UaeFtaConnector, tddMessageId, verdictOf, type UaeReportPayload, type UaeFtaReceipt, type UaeFtaConnectorOptions } from './connector';
export { buildTdd, TDD_CUSTOMIZATION_ID, TDD_PROFILE_ID, TDD_DOCUMENT_TYPE_ID, TDD_PROCESS_ID, type Tdd, type TddOptions, type ReporterRole } from './tdd';
export { readTdd, type TddFacts, type TddIssue, type TddReading } from './tdd-rules';
export { buildMls, parseMls, MlsFormatError, type Mls, type MlsIssue, type MlsResponseCode, type MlsReasonCode } from '../../peppol-ubl/mls';
export { SandboxFta, injectFtaFaults, FTA_MARKERS, FLAKY_FAILURES, type FtaFaultKind, type SandboxFtaOptions } from './sandbox-fta';
export { AccessPointClient, type AccessPointClientOptions } from './access-point-client';
export { UAE_FTA_ERRORS, type FtaTransport, type TddMessage, type TddStatus, type TddAcknowledgement } from './transport';
export { uaeFtaMigrations } from './migrations';
