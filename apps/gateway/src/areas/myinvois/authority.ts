import { Inject, Injectable } from '@nestjs/common';
import { AppError, SecretBox, issue } from '@einvoice/domain';
import { SealedRedisStore } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { GATEWAY_CONFIG, GatewayConfig } from '../../config';
import { Connections } from '../../infrastructure/infrastructure.module';

const AUTHORITY = 'myinvois';

/**
 * The MyInvois connector of this process (`MYINVOIS_MODE`: `sandbox`, the default, in-process;
 * `live`, the REST client, at `MYINVOIS_API_URL` / `MYINVOIS_IDENTITY_URL`, preprod by default)
 * with a per-supplier token cache shared through Redis (sealed), so no call logs in again while a
 * token is valid, in this process or another.
 */
@Injectable()
export class MyInvoisAuthority {
  readonly connector: myinvois.MyInvoisConnector;
  readonly secrets = SecretBox.fromEnv();
  private readonly tokens: myinvois.TokenCache;

  constructor(
    @Inject(GATEWAY_CONFIG) config: GatewayConfig,
    private readonly connections: Connections,
  ) {
    const env = process.env;
    this.connector =
      (env.MYINVOIS_MODE ?? 'sandbox') === 'live'
        ? new myinvois.LiveMyInvoisClient({
            hosts: {
              apiBaseUrl: env.MYINVOIS_API_URL ?? myinvois.MYINVOIS_HOSTS.preprod.apiBaseUrl,
              identityBaseUrl: env.MYINVOIS_IDENTITY_URL ?? env.MYINVOIS_API_URL ?? myinvois.MYINVOIS_HOSTS.preprod.identityBaseUrl,
            },
          })
        : new myinvois.SandboxMyInvois();
    this.tokens = new myinvois.TokenCache((credentials) => this.connector.login(credentials), {
      store: new SealedRedisStore<myinvois.CachedToken>(connections.redis, this.secrets, `${config.kafkaPrefix}.myinvois-token.`),
    });
  }

  /** Logs in (or reuses the cached token); bad credentials are a 400 naming `client_id`. */
  token(supplierId: string, credentials: myinvois.MyInvoisCredentials): Promise<myinvois.AccessToken> {
    return this.tokens.get(supplierId, credentials);
  }

  /** The supplier's stored credentials, opened. */
  async credentials(supplierId: string, onBehalfOfTin: string): Promise<myinvois.MyInvoisCredentials> {
    const rows: Array<{ client_id: string; client_secret_sealed: string }> = await this.connections.dataSource.query(
      `SELECT client_id, client_secret_sealed FROM authority_credentials WHERE supplier_id = $1 AND authority = $2`,
      [supplierId, AUTHORITY],
    );
    if (!rows[0]) {
      throw new AppError('conflict', 'MYINVOIS.NO_CREDENTIALS', 'The supplier has no MyInvois credentials; onboard it again.', {
        issues: [issue('headers.supplier_uuid', 'MYINVOIS.NO_CREDENTIALS', 'No MyInvois client id/secret is stored for this supplier.')],
      });
    }
    return { clientId: rows[0].client_id, clientSecret: this.secrets.open(rows[0].client_secret_sealed), onBehalfOfTin };
  }

  /** SQL and parameters that store the credentials, sealed, in the onboarding transaction. */
  storeCredentials(supplierId: string, credentials: myinvois.MyInvoisCredentials): [string, unknown[]] {
    return [
      `INSERT INTO authority_credentials (supplier_id, authority, client_id, client_secret_sealed) VALUES ($1, $2, $3, $4)`,
      [supplierId, AUTHORITY, credentials.clientId, this.secrets.seal(credentials.clientSecret)],
    ];
  }
}
