import { Injectable } from '@nestjs/common';
import { SecretBox } from '@einvoice/domain';
import { measuredConnector } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { Connections } from '../../infrastructure/infrastructure.module';

const AUTHORITY = myinvois.MYINVOIS_AUTHORITY;

/**
 * The MyInvois connector (`MYINVOIS_MODE`: `sandbox`, the default, its state in this database,
 * shared with the reporting workers as MyInvois is; `live`, the REST client, at `MYINVOIS_API_URL`
 * / `MYINVOIS_IDENTITY_URL`, preprod by default) with a per-supplier token cache shared through
 * PostgreSQL (sealed, `myinvois_access_tokens`, as the reporting worker's connector keeps it), so no
 * call logs in again while a token is valid, in this process or another.
 */
@Injectable()
export class MyInvoisAuthority {
  readonly connector: myinvois.MyInvoisConnector;
  readonly secrets = SecretBox.fromEnv();
  private readonly tokens: myinvois.TokenCache;

  constructor(private readonly connections: Connections) {
    this.connector = measuredConnector('my', myinvois.connectorFromEnv(process.env, { query: (sql, params) => connections.dataSource.query(sql, params) }), myinvois.MYINVOIS_OPERATIONS);
    this.tokens = new myinvois.TokenCache((credentials) => this.connector.login(credentials), {
      store: new myinvois.PostgresTokenStore((sql, params) => connections.dataSource.query(sql, params), this.secrets),
    });
  }

  /** Logs in (or reuses the cached token); bad credentials are a 400 naming `client_id`. */
  token(supplierId: string, credentials: myinvois.MyInvoisCredentials): Promise<myinvois.AccessToken> {
    return this.tokens.get(supplierId, credentials);
  }

  /** The supplier's stored credentials, opened (shared with the reporting worker: connector/from-env.ts). */
  async credentials(supplierId: string, onBehalfOfTin: string): Promise<myinvois.MyInvoisCredentials> {
    const rows: myinvois.StoredCredentialsRow[] = await this.connections.dataSource.query(myinvois.SELECT_CREDENTIALS_SQL, [supplierId, AUTHORITY]);
    return myinvois.openStoredCredentials(rows[0], this.secrets, onBehalfOfTin);
  }

  /** SQL and parameters that store the credentials, sealed, in the onboarding transaction. */
  storeCredentials(supplierId: string, credentials: myinvois.MyInvoisCredentials): [string, unknown[]] {
    return [
      `INSERT INTO authority_credentials (supplier_id, authority, client_id, client_secret_sealed) VALUES ($1, $2, $3, $4)`,
      [supplierId, AUTHORITY, credentials.clientId, this.secrets.seal(credentials.clientSecret)],
    ];
  }
}
