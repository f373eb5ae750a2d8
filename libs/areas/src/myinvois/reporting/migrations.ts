/** The tables of MyInvois's reporting connector (run with the area's migrations, definition.ts). */
import type { SqlMigration } from '@einvoice/domain';

/**
 * The suppliers' access tokens, shared by every process of the stack (token-store.ts): one row per
 * supplier, its `CachedToken` sealed with SECRETS_KEY, `expires_at` in epoch ms (the cache's clock).
 */
const myInvoisAccessTokens: SqlMigration = {
  name: 'MyInvoisAccessTokens1732200000035',
  up: [
    `
      CREATE TABLE myinvois_access_tokens (
        cache_key   text    PRIMARY KEY,
        sealed      text    NOT NULL,
        expires_at  bigint  NOT NULL
      )`,
  ],
  down: [`DROP TABLE myinvois_access_tokens`],
};

/** Every migration of the reporting connector, oldest first. */
export const myInvoisReportingMigrations: readonly SqlMigration[] = [myInvoisAccessTokens];
