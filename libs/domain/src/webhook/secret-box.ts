import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (DESIGN.md "The API's manners"): AES-256-GCM under `SECRETS_KEY` (32 bytes,
 * base64). Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url), so the scheme can change later.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKey(key: Buffer): SecretBox {
    if (key.length !== 32) throw new Error('SECRETS_KEY must be 32 bytes (base64)');
    return new SecretBox(key);
  }

  /**
   * Reads `SECRETS_KEY`. Production (`NODE_ENV=production`) refuses to start without it;
   * elsewhere a fixed development key stands in, so a bare `jest` or `node dist/...` still runs.
   */
  static fromEnv(env: NodeJS.ProcessEnv = process.env): SecretBox {
    const raw = env.SECRETS_KEY;
    if (!raw) {
      if (env.NODE_ENV === 'production') throw new Error('SECRETS_KEY is required in production (32 random bytes, base64)');
      return new SecretBox(createHash('sha256').update('einvoice development secrets key').digest());
    }
    return SecretBox.fromKey(Buffer.from(raw, 'base64'));
  }

  /**
   * HMAC-SHA-256 of `data` (hex) under a key derived from SECRETS_KEY for `purpose`, never the
   * encryption key itself: a digest stored at rest that nobody without the key can recompute.
   */
  mac(purpose: string, data: string): string {
    const key = createHmac('sha256', this.key).update(`einvoice mac key: ${purpose}`).digest();
    return createHmac('sha256', key).update(data).digest('hex');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
