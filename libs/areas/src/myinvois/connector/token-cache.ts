/**
 * Per-supplier cache of MyInvois access tokens (ISSUE 4 item 1, notes/national-systems.md:
 * "cache it per supplier, never log in per call"). A token is reused until its renewal time,
 * a little before it expires (5 minutes early, or at 90% of a shorter lifetime), so no call
 * logs in again while a token is valid; concurrent callers of one key share a single login.
 */
import { AccessToken, MyInvoisCredentials } from './connector';

/** What the cache keeps per key. */
export interface CachedToken {
  readonly token: AccessToken;
  /** Epoch ms from which the next caller logs in again. */
  readonly renewAt: number;
}

/**
 * Where tokens live. Async so the worker can put them in Redis (shared across workers, TTL =
 * `ttlMs`); in-process Map by default.
 */
export interface TokenStore {
  get(key: string): Promise<CachedToken | undefined>;
  set(key: string, value: CachedToken, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

/**
 * Key namespace of the shared token store (Redis) of one stack: the gateway and every worker of
 * the same topic prefix read and write the same entries.
 */
export function tokenStorePrefix(stackPrefix: string): string {
  return `${stackPrefix}.myinvois-token.`;
}

/** The default store: a Map in this process; entries past their TTL read as absent. */
export class InMemoryTokenStore implements TokenStore {
  private readonly entries = new Map<string, { value: CachedToken; expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(key: string): Promise<CachedToken | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() >= entry.expiresAt) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: CachedToken, ttlMs: number): Promise<void> {
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }
}

export interface TokenCacheOptions {
  readonly store?: TokenStore;
  readonly now?: () => number;
  /** Renew this long before expiry (default 5 minutes)... */
  readonly renewBeforeMs?: number;
  /** ...or, when that is less, at this fraction of the lifetime (default 0.9). */
  readonly renewAtFraction?: number;
}

export type Login = (credentials: MyInvoisCredentials) => Promise<AccessToken>;

export class TokenCache {
  private readonly store: TokenStore;
  private readonly now: () => number;
  private readonly renewBeforeMs: number;
  private readonly renewAtFraction: number;
  private readonly inFlight = new Map<string, Promise<AccessToken>>();

  constructor(
    private readonly login: Login,
    options: TokenCacheOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.store = options.store ?? new InMemoryTokenStore(this.now);
    this.renewBeforeMs = options.renewBeforeMs ?? 5 * 60_000;
    this.renewAtFraction = options.renewAtFraction ?? 0.9;
  }

  /**
   * The token for `key` (supplier id), logging in only when there is none or it is due for
   * renewal. A failed login stores nothing and rejects every caller that shared it.
   */
  async get(key: string, credentials: MyInvoisCredentials): Promise<AccessToken> {
    const cached = await this.store.get(key);
    if (cached && this.now() < cached.renewAt && this.now() < cached.token.expiresAt) return cached.token;
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const loggingIn = this.renew(key, credentials).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, loggingIn);
    return loggingIn;
  }

  /** Drops the token of `key`, e.g. after the authority answered 401 with it. */
  async invalidate(key: string): Promise<void> {
    await this.store.delete(key);
  }

  private async renew(key: string, credentials: MyInvoisCredentials): Promise<AccessToken> {
    const issuedAt = this.now();
    const token = await this.login(credentials);
    const lifetime = Math.max(0, token.expiresAt - issuedAt);
    // 60-minute token: renew at 55 min; a 2-second token (tests): at 1.8 s.
    const renewAt = token.expiresAt - Math.min(this.renewBeforeMs, lifetime * (1 - this.renewAtFraction));
    const ttlMs = token.expiresAt - this.now();
    if (ttlMs > 0) await this.store.set(key, { token, renewAt }, ttlMs);
    return token;
  }
}
