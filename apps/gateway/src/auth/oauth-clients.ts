import { createHash, randomBytes } from 'node:crypto';

/** Client secrets are 32 random bytes: a SHA-256 hash is enough to store them (as API keys, api-keys.ts). */
export const secretHash = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** Creates a client of a tenant (also the CLI's `clients create`); the secret is shown once. */
export async function createOAuthClient(
  query: (sql: string, parameters?: unknown[]) => Promise<unknown>,
  tenantId: string,
): Promise<{ client_id: string; client_secret: string }> {
  const clientId = `client_${randomBytes(12).toString('hex')}`;
  const clientSecret = `cs_${randomBytes(32).toString('base64url')}`;
  await query(`INSERT INTO oauth_clients (client_id, tenant_id, secret_hash) VALUES ($1, $2, $3)`, [clientId, tenantId, secretHash(clientSecret).toString('hex')]);
  return { client_id: clientId, client_secret: clientSecret };
}
