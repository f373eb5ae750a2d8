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

/**
 * A buyer's rejections of a document it received (reports of direction `incoming`, buyer-rejection.ts),
 * found by buyer and uuid on every reject and GET .../rejection: without it, that lookup read every
 * documents row of the buyer (the uniqueness index of numbers covers outgoing documents only).
 */
const myInvoisRejectionLookup: SqlMigration = {
  name: 'MyInvoisRejectionLookup1732200000051',
  up: [
    `CREATE INDEX documents_my_rejections ON documents (supplier_id, document_number)
       WHERE area = 'my' AND direction = 'incoming' AND document_type = 'rejection'`,
  ],
  down: [`DROP INDEX documents_my_rejections`],
};

/** Every migration of the reporting connector, oldest first. */
export const myInvoisReportingMigrations: readonly SqlMigration[] = [myInvoisAccessTokens, myInvoisRejectionLookup];
