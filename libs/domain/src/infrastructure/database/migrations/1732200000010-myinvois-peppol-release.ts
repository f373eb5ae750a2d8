import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The PINT MY copy of a MyInvois document leaves only once MyInvois says Valid: until then its
 * state is `awaiting_validation`, then `released`; a copy that never leaves is `withheld`, with the reason
 * (`peppol_reason`: invalid, rejected, ID already sent over Peppol). Null for documents without a
 * copy and for schema-1 documents whose copy left at submission (the `documents` row tells).
 */
export class MyInvoisPeppolRelease1732200000010 implements MigrationInterface {
  name = 'MyInvoisPeppolRelease1732200000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE myinvois_documents ADD COLUMN peppol_state text, ADD COLUMN peppol_reason jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE myinvois_documents DROP COLUMN peppol_state, DROP COLUMN peppol_reason`);
  }
}
