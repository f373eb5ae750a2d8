import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `transport_mode: peppol` on a MyInvois submission: the id of the document's PINT MY copy in the
 * `documents` read model (its Peppol delivery), null when it did not go over Peppol.
 */
export class MyInvoisPeppolLink1732200000007 implements MigrationInterface {
  name = 'MyInvoisPeppolLink1732200000007';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE myinvois_documents ADD COLUMN peppol_document_id uuid`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE myinvois_documents DROP COLUMN peppol_document_id`);
  }
}
