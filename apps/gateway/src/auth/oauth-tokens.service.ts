import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, issue } from '@einvoice/domain';
import { Connections } from '../infrastructure/infrastructure.module';
import { hashApiKey } from './api-keys';
import { TenantKeys } from './tenant-keys';
import type { Tenant } from './api-keys';
import { createOAuthClient, secretHash } from './oauth-clients';
import { type ClientCredentialsRequest, OAuthError } from './oauth-request';

/** Access tokens live this long (`OAUTH_TOKEN_TTL_SECONDS`, default one hour). */
const tokenTtlSeconds = (): number => {
  const value = Number(process.env.OAUTH_TOKEN_TTL_SECONDS ?? 3600);
  return Number.isInteger(value) && value > 0 ? value : 3600;
};

/**
 * OAuth 2.0 client credentials (issue 10 "Authentication"): clients of a tenant, and the access
 * tokens (`at_…`) they exchange their credentials for. Secrets and tokens are 32 random bytes,
 * stored as SHA-256 hashes only (migration 1732200000025), shown once.
 */
@Injectable()
export class OAuthTokens {
  constructor(
    private readonly connections: Connections,
    private readonly keys: TenantKeys,
  ) {}

  /** `POST /v1/oauth/clients`: a new client of the caller's tenant. */
  async createClient(tenant: Tenant): Promise<{ client_id: string; client_secret: string }> {
    return createOAuthClient((sql, parameters) => this.connections.dataSource.query(sql, parameters), tenant.id);
  }

  /** `DELETE /v1/oauth/clients/{client_id}`: the client and every token it holds, at once (NOTIFY). */
  async deleteClient(tenant: Tenant, clientId: string): Promise<void> {
    const [{ n, tokens }]: Array<{ n: number; tokens: string[] }> = await this.connections.dataSource.query(
      `WITH client AS (DELETE FROM oauth_clients WHERE client_id = $1 AND tenant_id = $2 RETURNING client_id),
            tokens AS (DELETE FROM oauth_tokens WHERE client_id IN (SELECT client_id FROM client) RETURNING token_hash)
       SELECT (SELECT count(*)::int FROM client) AS n, coalesce((SELECT array_agg(token_hash) FROM tokens), '{}') AS tokens`,
      [clientId, tenant.id],
    );
    // Other gateways hear of each token at commit (NOTIFY); this one forgets them before answering.
    this.keys.forget(tokens);
    if (n === 0) {
      const message = `No OAuth client ${clientId} for your account.`;
      throw new AppError('not_found', 'OAUTH.CLIENT_NOT_FOUND', message, { issues: [issue('client_id', 'OAUTH.CLIENT_NOT_FOUND', message)] });
    }
  }

  /** `POST /v1/oauth/token`: an access token for valid client credentials. @throws OAuthError invalid_client */
  async issue(request: ClientCredentialsRequest): Promise<{ access_token: string; token_type: 'Bearer'; expires_in: number }> {
    const [client]: Array<{ tenant_id: string; secret_hash: string }> = request.clientId.length <= 200
      ? await this.connections.dataSource.query(`SELECT tenant_id, secret_hash FROM oauth_clients WHERE client_id = $1`, [request.clientId])
      : [];
    // Hash compared in constant time; an unknown client costs the same hash.
    const given = secretHash(request.clientSecret);
    const known = client ? Buffer.from(client.secret_hash, 'hex') : secretHash('unknown client');
    if (!client || known.length !== given.length || !timingSafeEqual(known, given)) {
      throw new OAuthError('invalid_client', 'Client authentication failed: unknown client or wrong secret.', request.basic);
    }
    const token = `at_${randomBytes(32).toString('base64url')}`;
    const expiresIn = tokenTtlSeconds();
    await this.connections.dataSource.query(
      `WITH expired AS (DELETE FROM oauth_tokens WHERE client_id = $2 AND expires_at < now() - interval '1 day')
       INSERT INTO oauth_tokens (token_hash, client_id, tenant_id, expires_at) VALUES ($1, $2, $3, now() + $4 * interval '1 second')`,
      [hashApiKey(token), request.clientId, client.tenant_id, expiresIn],
    );
    return { access_token: token, token_type: 'Bearer', expires_in: expiresIn };
  }
}
