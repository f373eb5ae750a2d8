/**
 * What every process that talks to MyInvois builds the same way (#4): the connector of
 * `MYINVOIS_MODE`, and the supplier's stored credentials opened. Pure: the token store (Redis in
 * the gateway, in-process in a worker) and the database are the caller's.
 */
import { AppError, SecretBox, issue } from '@einvoice/domain';
import { MyInvoisConnector, MyInvoisCredentials } from './connector';
import { LiveMyInvoisClient, MYINVOIS_HOSTS } from './live';
import { SandboxMyInvois } from './sandbox';

/** `authority` column of `authority_credentials` for MyInvois. */
export const MYINVOIS_AUTHORITY = 'myinvois';

/**
 * `MYINVOIS_MODE`: `sandbox` (default, in-process: each process has its own, so each logs in
 * itself) or `live` (`MYINVOIS_API_URL` / `MYINVOIS_IDENTITY_URL`, preprod by default).
 */
export function connectorFromEnv(env: NodeJS.ProcessEnv = process.env): MyInvoisConnector {
  if ((env.MYINVOIS_MODE ?? 'sandbox') !== 'live') {
    return new SandboxMyInvois(env.MYINVOIS_SANDBOX_VALIDATION_MS ? { validationDelayMs: Number(env.MYINVOIS_SANDBOX_VALIDATION_MS) } : {});
  }
  return new LiveMyInvoisClient({
    hosts: {
      apiBaseUrl: env.MYINVOIS_API_URL ?? MYINVOIS_HOSTS.preprod.apiBaseUrl,
      identityBaseUrl: env.MYINVOIS_IDENTITY_URL ?? env.MYINVOIS_API_URL ?? MYINVOIS_HOSTS.preprod.identityBaseUrl,
    },
  });
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
