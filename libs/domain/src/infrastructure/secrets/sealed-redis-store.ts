import type Redis from 'ioredis';
import type { SecretBox } from '../../webhook/secret-box';

/**
 * A key/value store in Redis whose values are sealed (AES-256-GCM): access tokens of tax
 * authorities are secrets too, and the gateway and the workers must share them so that no
 * process logs in again while a token is valid. Structurally a MyInvois `TokenStore`.
 */
export class SealedRedisStore<T> {
  constructor(
    private readonly redis: Redis,
    private readonly secrets: SecretBox,
    /** Key namespace, e.g. `einvoice.myinvois-token.` */
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<T | undefined> {
    const sealed = await this.redis.get(this.prefix + key);
    if (!sealed) return undefined;
    try {
      return JSON.parse(this.secrets.open(sealed)) as T;
    } catch {
      // Sealed under another key (rotation) or corrupt: as good as absent.
      return undefined;
    }
  }

  async set(key: string, value: T, ttlMs: number): Promise<void> {
    await this.redis.set(this.prefix + key, this.secrets.seal(JSON.stringify(value)), 'PX', Math.max(1, Math.round(ttlMs)));
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}
