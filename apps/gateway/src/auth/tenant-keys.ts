import { Injectable } from '@nestjs/common';
import { Connections } from '../infrastructure/infrastructure.module';
import { PgNotifications } from '../infrastructure/pg-notifications';
import type { Tenant } from './api-keys';

/** Channel a revoked key's hash is announced on (migration TenantKeyRevocation1732200000020). */
export const TENANT_KEY_REVOKED_CHANNEL = 'tenant_key_revoked';
/** A key found is trusted this long without asking again: a bound for when the listener is down. */
const CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * The tenants of API keys and OAuth access tokens (by hash), cached so that a hot client costs no query per request.
 * Revocation takes effect at once: deleting a tenant or changing its key NOTIFYs the old hash at
 * commit and every gateway drops it; when the listener was down (notifications lost), the whole
 * cache is dropped once it is back. Only hits are cached, so a new key works at once.
 */
@Injectable()
export class TenantKeys {
  private readonly cache = new Map<string, { tenant: Tenant; until: number }>();

  constructor(
    private readonly connections: Connections,
    notifications: PgNotifications,
  ) {
    notifications.subscribe(TENANT_KEY_REVOKED_CHANNEL, {
      notified: (hash) => this.cache.delete(hash),
      resubscribed: () => this.cache.clear(),
    });
  }

  /** Drops revoked credentials (by hash) from this process's cache at once. */
  forget(hashes: readonly string[]): void {
    for (const hash of hashes) this.cache.delete(hash);
  }

  /** The tenant of an OAuth access token (by hash), `expired` past its expiry; cached no longer than the token lives. */
  async tenantOfToken(hash: string): Promise<Tenant | 'expired' | null> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached.tenant;
    const rows: Array<Tenant & { expires_ms: string }> = await this.connections.dataSource.query(
      `SELECT t.id, t.name, (extract(epoch FROM k.expires_at) * 1000)::bigint::text AS expires_ms
       FROM oauth_tokens k JOIN tenants t ON t.id = k.tenant_id WHERE k.token_hash = $1`,
      [hash],
    );
    if (!rows[0]) return null;
    const expiresAt = Number(rows[0].expires_ms);
    if (expiresAt <= now) return 'expired';
    const tenant = { id: rows[0].id, name: rows[0].name };
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    this.cache.set(hash, { tenant, until: Math.min(now + CACHE_MS, expiresAt) });
    return tenant;
  }

  async tenantOf(hash: string): Promise<Tenant | null> {
    const now = Date.now();
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached.tenant;
    const rows: Tenant[] = await this.connections.dataSource.query(`SELECT id, name FROM tenants WHERE api_key_hash = $1`, [hash]);
    const tenant = rows[0] ?? null;
    if (tenant) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(hash, { tenant, until: now + CACHE_MS });
    }
    return tenant;
  }
}
