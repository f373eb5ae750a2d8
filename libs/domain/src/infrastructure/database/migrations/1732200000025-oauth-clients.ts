import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OAuth 2.0 client credentials (issue 10 "Authentication"): a tenant's clients and the access tokens
 * issued to them, both kept as SHA-256 hashes only (secrets and tokens are 32 random bytes: nothing
 * to brute-force). Deleting a client deletes its tokens; every deleted token is announced on
 * `tenant_key_revoked` (the API keys' channel, migration 1732200000020) so every gateway drops it
 * from its cache at commit, and a deleted tenant takes its clients and tokens with it.
 */
export class OAuthClients1732200000025 implements MigrationInterface {
  name = 'OAuthClients1732200000025';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE oauth_clients (
        client_id    text         PRIMARY KEY,
        tenant_id    uuid         NOT NULL REFERENCES tenants (id) ON DELETE CASCADE,
        secret_hash  text         NOT NULL,
        created_at   timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_clients_tenant_idx ON oauth_clients (tenant_id)`);
    await q.query(`
      CREATE TABLE oauth_tokens (
        token_hash  text         PRIMARY KEY,
        client_id   text         NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
        tenant_id   uuid         NOT NULL,
        expires_at  timestamptz  NOT NULL,
        created_at  timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX oauth_tokens_client_idx ON oauth_tokens (client_id)`);
    await q.query(`CREATE INDEX oauth_tokens_expiry_idx ON oauth_tokens (expires_at)`);
    await q.query(`
      CREATE FUNCTION oauth_token_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('tenant_key_revoked', OLD.token_hash);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER oauth_token_revoked AFTER DELETE ON oauth_tokens FOR EACH ROW EXECUTE FUNCTION oauth_token_revoked()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER oauth_token_revoked ON oauth_tokens`);
    await q.query(`DROP FUNCTION oauth_token_revoked()`);
    await q.query(`DROP TABLE oauth_tokens`);
    await q.query(`DROP TABLE oauth_clients`);
  }
}
