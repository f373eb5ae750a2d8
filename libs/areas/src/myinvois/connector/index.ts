/** Public API of the MyInvois authority connector (sandbox and live modes). */
export * from './connector';
export { MYINVOIS_ERRORS } from './errors';
export { MYINVOIS_RATE_LIMITS, RateLimiter, TokenBucket } from './rate-limits';
export type { MyInvoisEndpoint, RateLimiterOptions } from './rate-limits';
export { TokenCache, InMemoryTokenStore } from './token-cache';
export type { TokenStore, CachedToken, TokenCacheOptions, Login } from './token-cache';
export { LiveMyInvoisClient, MYINVOIS_HOSTS } from './live';
export type { LiveMyInvoisOptions, MyInvoisHosts } from './live';
export { SandboxMyInvois, STATE_CHANGE_WINDOW_MS } from './sandbox';
export type { SandboxOptions } from './sandbox';
export { InMemorySandboxState } from './sandbox-state';
export type { SandboxState, SandboxDocument, SandboxSubmission, RecentFilter } from './sandbox-state';
export { PostgresSandboxState } from './sandbox-state-postgres';
export type { SqlQuery } from './sandbox-state-postgres';
export { checkTinFormat, checkIdValue, NON_INDIVIDUAL_TIN_PREFIXES, GENERAL_TINS } from './identifiers';
export { checkSubmissionLimits, MAX_DOCUMENTS_PER_SUBMISSION, MAX_SUBMISSION_BYTES, MAX_DOCUMENT_BYTES } from './limits';
export { connectorFromEnv, openStoredCredentials, SELECT_CREDENTIALS_SQL, MYINVOIS_AUTHORITY } from './from-env';
export type { StoredCredentialsRow, ConnectorResources } from './from-env';
