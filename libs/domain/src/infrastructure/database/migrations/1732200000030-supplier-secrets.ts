import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secrets an area takes at onboarding for its authority (area registry `onboarding.secrets`; Spain:
 * the issuer's certificate and private key for the AEAT's mutual TLS), sealed with SECRETS_KEY
 * (SecretBox) before they are written, never returned, never in an event.
 */
export class SupplierSecrets1732200000030 implements MigrationInterface {
  name = 'SupplierSecrets1732200000030';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE supplier_secrets (
        supplier_id  uuid         NOT NULL,
        name         text         NOT NULL,
        sealed       text         NOT NULL,
        created_at   timestamptz  NOT NULL DEFAULT now(),
        PRIMARY KEY (supplier_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE supplier_secrets`);
  }
}
