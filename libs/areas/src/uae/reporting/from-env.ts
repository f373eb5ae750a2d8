/**
 * The UAE FTA connector every reporting process builds the same way (definition.ts `authority.connector`),
 * by `UAE_FTA_MODE` as MyInvois does by `MYINVOIS_MODE`: `sandbox` (default; the sandbox FTA in the
 * process's PostgreSQL) or `live` (an access point's HTTP API). Settings: README.md "Configuration".
 */
import type { ConnectorQuery } from '../../registry/area';
import type { AuthorityConnector } from '../../registry/authority';
import { serviceProviderIdSetting } from '../../peppol-ubl/service-provider-setting';
import { AccessPointClient } from './access-point-client';
import { UaeFtaConnector } from './connector';
import { DEFAULT_MLS_DELAY_MS, SandboxFta } from './sandbox-fta';
import type { FtaTransport } from './transport';

/**
 * The FTA's service-provider id. The public material names only the test bed's (`000006-TESTBED.3001`,
 * secondary source); production's is set with `UAE_FTA_ID`.
 */
export const DEFAULT_FTA_ID = '0242:000006-TESTBED.3001';
/** This access point's service-provider id until one is issued (PEPPOL_SERVICE_PROVIDER_ID, formerly UAE_AP_SPID). */
export const DEFAULT_AP_SPID = '0242:000000-SANDBOX';

/** The transport `UAE_FTA_MODE` names. @throws Error on a live mode without `UAE_FTA_AP_URL`, or an unknown mode */
export function ftaTransportFromEnv(env: NodeJS.ProcessEnv, query: ConnectorQuery): FtaTransport {
  const mode = env.UAE_FTA_MODE ?? 'sandbox';
  const ftaId = env.UAE_FTA_ID ?? DEFAULT_FTA_ID;
  if (mode === 'sandbox') {
    const setting = env.UAE_SANDBOX_FTA_MLS_MS;
    const delay = setting === undefined || setting === '' ? DEFAULT_MLS_DELAY_MS : Number(setting);
    if (!Number.isFinite(delay) || delay < 0) throw new Error(`UAE_SANDBOX_FTA_MLS_MS: "${setting}" is not a number of milliseconds`);
    return new SandboxFta(query, { ftaId, mlsDelayMs: delay });
  }
  if (mode === 'live') {
    if (!env.UAE_FTA_AP_URL) throw new Error('UAE_FTA_MODE=live needs UAE_FTA_AP_URL (the access point API that sends the TDDs)');
    const timeoutMs = env.UAE_FTA_AP_TIMEOUT_MS ? Number(env.UAE_FTA_AP_TIMEOUT_MS) : undefined;
    return new AccessPointClient({ baseUrl: env.UAE_FTA_AP_URL, token: env.UAE_FTA_AP_TOKEN || undefined, ...(timeoutMs ? { timeoutMs } : {}) });
  }
  throw new Error(`UAE_FTA_MODE: "${mode}" is neither sandbox nor live`);
}

/** definition.ts `authority.connector`: made once per process. */
export function uaeFtaConnector(deps: { readonly query: ConnectorQuery; readonly env: NodeJS.ProcessEnv }): AuthorityConnector {
  const transport = ftaTransportFromEnv(deps.env, deps.query);
  // The one setting for this access point's id (peppol-ubl/service-provider-setting.ts): two that differ stop the start here.
  const ids = { ftaId: deps.env.UAE_FTA_ID ?? DEFAULT_FTA_ID, representativeId: serviceProviderIdSetting(deps.env).id ?? DEFAULT_AP_SPID };
  return new UaeFtaConnector(transport, ids);
}
