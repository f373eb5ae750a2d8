/**
 * The suppliers' MyInvois access tokens, kept where every process of the stack reads them: its
 * PostgreSQL (table `myinvois_access_tokens`, migrations.ts), sealed with SECRETS_KEY, as AFIP's
 * access tickets are (libs/areas holds no Redis client: STYLE.md §6). MyInvois allows 12 logins per
 * minute per client id, so the gateway and the workers share one token per supplier (ISSUE 4 item 1).
 */
import type { SecretBox } from '@einvoice/domain';
import type { CachedToken, TokenStore } from '../connector/token-cache';
import type { ConnectorQuery } from '../../registry/area';

export class PostgresTokenStore implements TokenStore {
  constructor(
    private readonly query: ConnectorQuery,
    private readonly secrets: SecretBox,
    /** The clock `ttlMs` counts from (the TokenCache's). */
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<CachedToken | undefined> {
    const [row] = await this.query<{ sealed: string }>(`SELECT sealed FROM myinvois_access_tokens WHERE cache_key = $1 AND expires_at > $2`, [key, this.now()]);
    if (!row) return undefined;
    try {
      return JSON.parse(this.secrets.open(row.sealed)) as CachedToken;
    } catch {
      // Sealed under another key (rotation) or corrupt: as good as absent, the next login replaces it.
      return undefined;
    }
  }

  async set(key: string, value: CachedToken, ttlMs: number): Promise<void> {
    await this.query(
      `INSERT INTO myinvois_access_tokens (cache_key, sealed, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (cache_key) DO UPDATE SET sealed = EXCLUDED.sealed, expires_at = EXCLUDED.expires_at`,
      [key, this.secrets.seal(JSON.stringify(value)), Math.round(this.now() + ttlMs)],
    );
  }

  async delete(key: string): Promise<void> {
    await this.query(`DELETE FROM myinvois_access_tokens WHERE cache_key = $1`, [key]);
  }
}
