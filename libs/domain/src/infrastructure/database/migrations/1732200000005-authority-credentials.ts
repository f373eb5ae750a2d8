import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credentials a supplier gave us for its tax authority (MyInvois client id and secret). Kept
 * out of the event stream so that a secret can be rotated or erased; the secret is sealed
 * (AES-256-GCM under SECRETS_KEY) and never returned or logged.
 */
export class AuthorityCredentials1732200000005 implements MigrationInterface {
  name = 'AuthorityCredentials1732200000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE authority_credentials (
        supplier_id           uuid         NOT NULL,
        authority             text         NOT NULL,
        client_id             text         NOT NULL,
        client_secret_sealed  text         NOT NULL,
        created_at            timestamptz  NOT NULL DEFAULT now(),
        CONSTRAINT authority_credentials_pkey PRIMARY KEY (supplier_id, authority)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE authority_credentials`);
  }
}
