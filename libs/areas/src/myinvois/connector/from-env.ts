/**
 * What every process that talks to MyInvois builds the same way (#4): the connector of
 * `MYINVOIS_MODE`, and the supplier's stored credentials opened. The token store (Redis, shared by
 * the gateway and the workers) and the database connection are the caller's.
 */
import { AppError, SecretBox, issue } from '@einvoice/domain';
import { MyInvoisConnector, MyInvoisCredentials } from './connector';
import { LiveMyInvoisClient, MYINVOIS_HOSTS } from './live';
import { SandboxMyInvois } from './sandbox';
import { PostgresSandboxState, SqlQuery } from './sandbox-state-postgres';
import { MYINVOIS_RATE_LIMITS, MyInvoisEndpoint } from './rate-limits';

/** `authority` column of `authority_credentials` for MyInvois. */
export const MYINVOIS_AUTHORITY = 'myinvois';

/** What a process lends the connector: `query` runs one SQL statement on its database. */
export interface ConnectorResources {
  readonly query?: SqlQuery;
}

/**
 * `MYINVOIS_MODE`: `sandbox` (default) or `live` (`MYINVOIS_API_URL` / `MYINVOIS_IDENTITY_URL`,
 * preprod by default). The sandbox keeps its state through `query` in PostgreSQL (tables
 * `myinvois_sandbox_*`), shared by every process as MyInvois is: a token, a submission or a DV302
 * key one process made is known to all, and survives restarts. Without `query` (unit tests) it
 * keeps it in memory, for this process alone.
 */
export function connectorFromEnv(env: NodeJS.ProcessEnv = process.env, resources: ConnectorResources = {}): MyInvoisConnector {
  if ((env.MYINVOIS_MODE ?? 'sandbox') !== 'live') {
    return new SandboxMyInvois({
      ...(env.MYINVOIS_SANDBOX_VALIDATION_MS ? { validationDelayMs: Number(env.MYINVOIS_SANDBOX_VALIDATION_MS) } : {}),
      ...(env.MYINVOIS_SANDBOX_RATE_LIMITS ? { rateLimits: sandboxRateLimits(env.MYINVOIS_SANDBOX_RATE_LIMITS) } : {}),
      ...(resources.query ? { state: new PostgresSandboxState(resources.query) } : {}),
    });
  }
  return new LiveMyInvoisClient({
    hosts: {
      apiBaseUrl: env.MYINVOIS_API_URL ?? MYINVOIS_HOSTS.preprod.apiBaseUrl,
      identityBaseUrl: env.MYINVOIS_IDENTITY_URL ?? env.MYINVOIS_API_URL ?? MYINVOIS_HOSTS.preprod.identityBaseUrl,
    },
  });
}

/**
 * `MYINVOIS_SANDBOX_RATE_LIMITS`, e.g. `submitDocuments=20,getSubmission=60`: the sandbox's
 * requests per minute per client id, lower than MyInvois's to try a flood (docs/areas.md "Malaysia (MyInvois)").
 */
export function sandboxRateLimits(setting: string): Partial<Record<MyInvoisEndpoint, number>> {
  const limits: Partial<Record<MyInvoisEndpoint, number>> = {};
  for (const pair of setting.split(',').filter(Boolean)) {
    const [name, value] = pair.split('=').map((p) => p.trim());
    const perMinute = Number(value);
    if (!(name in MYINVOIS_RATE_LIMITS) || !(perMinute > 0)) throw new Error(`MYINVOIS_SANDBOX_RATE_LIMITS: "${pair}" is not <endpoint>=<requests per minute>`);
    limits[name as MyInvoisEndpoint] = perMinute;
  }
  return limits;
}

/** SQL (parameters: supplier id, authority) reading a supplier's stored credentials. */
export const SELECT_CREDENTIALS_SQL = `SELECT client_id, client_secret_sealed FROM authority_credentials WHERE supplier_id = $1 AND authority = $2`;

/** A row of `authority_credentials` as SELECT_CREDENTIALS_SQL reads it. */
export interface StoredCredentialsRow {
  readonly client_id: string;
  readonly client_secret_sealed: string;
}

/**
 * The credentials of a row, the secret opened; no row is `MYINVOIS.NO_CREDENTIALS` (a
 * conflict, not retriable: the supplier must be onboarded again).
 */
export function openStoredCredentials(row: StoredCredentialsRow | undefined, secrets: SecretBox, onBehalfOfTin: string): MyInvoisCredentials {
  if (!row) {
    throw new AppError('conflict', 'MYINVOIS.NO_CREDENTIALS', 'The supplier has no MyInvois credentials; onboard it again.', {
      retriable: false,
      issues: [issue('headers.supplier_uuid', 'MYINVOIS.NO_CREDENTIALS', 'No MyInvois client id/secret is stored for this supplier.')],
    });
  }
  return { clientId: row.client_id, clientSecret: secrets.open(row.client_secret_sealed), onBehalfOfTin };
}
