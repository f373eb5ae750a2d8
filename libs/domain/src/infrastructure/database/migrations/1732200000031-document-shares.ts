import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Access codes that open one document without an API key (Poland's `access-code/send`): only the
 * code's SHA-256 is kept; it expires, and is used up a while after its first use (README).
 */
export class DocumentShares1732200000031 implements MigrationInterface {
  name = 'DocumentShares1732200000031';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE document_shares (
        code_hash        text         PRIMARY KEY,
        document_id      uuid         NOT NULL,
        tenant_id        uuid         NOT NULL,
        supplier_id      uuid         NOT NULL,
        area             text         NOT NULL,
        recipient_email  text         NOT NULL,
        expires_at       timestamptz  NOT NULL,
        first_used_at    timestamptz,
        sent_at          timestamptz,
        created_at       timestamptz  NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX document_shares_document ON document_shares (document_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE document_shares`);
  }
}
