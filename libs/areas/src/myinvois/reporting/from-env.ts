/**
 * The MyInvois reporting connector every reporting process builds the same way (definition.ts
 * `authority.connector`): the MyInvois API of `MYINVOIS_MODE` (connector/from-env.ts; the sandbox on
 * the process's database), the suppliers' tokens in that database (token-store.ts, shared with every
 * process of the stack), and the credentials stored at onboarding.
 */
import { SecretBox, type SupplierProfile } from '@einvoice/domain';
import type { ConnectorQuery } from '../../registry/area';
import type { MyInvoisCredentials } from '../connector/connector';
import { MYINVOIS_AUTHORITY, SELECT_CREDENTIALS_SQL, type StoredCredentialsRow, connectorFromEnv, openStoredCredentials } from '../connector/from-env';
import { TokenCache } from '../connector/token-cache';
import { supplierOfProfile } from '../supplier-profile';
import { MyInvoisReportingConnector } from './connector';
import { PostgresTokenStore } from './token-store';

/**
 * A supplier's MyInvois credentials: its stored client id and secret (`authority_credentials`, the
 * secret opened) acting for its MY:TIN. No stored row is a final MYINVOIS.NO_CREDENTIALS. Read
 * outside any transaction, before the login it feeds.
 */
export function storedCredentials(query: ConnectorQuery, secrets: SecretBox): (supplierId: string) => Promise<MyInvoisCredentials> {
  return async (supplierId) => {
    const [row] = await query<StoredCredentialsRow>(SELECT_CREDENTIALS_SQL, [supplierId, MYINVOIS_AUTHORITY]);
    const [supplier] = await query<{ profile: SupplierProfile }>(`SELECT profile FROM suppliers WHERE id = $1`, [supplierId]);
    return openStoredCredentials(row, secrets, supplier ? supplierOfProfile(supplier.profile).tin : '');
  };
}

/** definition.ts `authority.connector`: made once per process. Settings: docs/areas.md "Malaysia (MyInvois)". */
export function myInvoisReportingConnector({ query, env }: { readonly query: ConnectorQuery; readonly env: NodeJS.ProcessEnv }): MyInvoisReportingConnector {
  const connector = connectorFromEnv(env, { query });
  const secrets = SecretBox.fromEnv(env);
  return new MyInvoisReportingConnector({
    connector,
    tokens: new TokenCache((credentials) => connector.login(credentials), { store: new PostgresTokenStore(query, secrets) }),
    credentialsOf: storedCredentials(query, secrets),
    maxRetryAfterMs: Number(env.MYINVOIS_MAX_RETRY_AFTER_MS || 20_000),
  });
}
