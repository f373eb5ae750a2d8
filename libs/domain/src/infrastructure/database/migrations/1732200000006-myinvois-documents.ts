import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Read model of documents submitted to MyInvois (#4), projected from the `myinvois-<id>`
 * submission streams. One ID per supplier while it is alive at the authority: a rejected or
 * invalid document frees its ID for a corrected resubmission (as DV302 does at MyInvois).
 */
export class MyInvoisDocuments1732200000006 implements MigrationInterface {
  name = 'MyInvoisDocuments1732200000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE myinvois_documents (
        id                   uuid         PRIMARY KEY,
        submission_id        uuid         NOT NULL,
        tenant_id            uuid         NOT NULL,
        supplier_id          uuid         NOT NULL,
        kind                 text         NOT NULL,
        invoice_code_number  text         NOT NULL,
        document_hash        text         NOT NULL,
        state                text         NOT NULL,
        uuid                 text,
        long_id              text,
        submission_uid       text,
        error                jsonb,
        created_at           timestamptz  NOT NULL,
        updated_at           timestamptz  NOT NULL,
        version              integer      NOT NULL
      )`);
    await q.query(`CREATE INDEX myinvois_documents_submission_idx ON myinvois_documents (submission_id)`);
    await q.query(`CREATE INDEX myinvois_documents_uuid_idx ON myinvois_documents (uuid)`);
    await q.query(`
      CREATE UNIQUE INDEX myinvois_documents_supplier_number_key ON myinvois_documents (supplier_id, invoice_code_number)
      WHERE state NOT IN ('rejected', 'invalid', 'cancelled')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE myinvois_documents`);
  }
}
