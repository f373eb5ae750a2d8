import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reporting worker's stale sweep looks for documents still waiting: not yet answered by
 * MyInvois (`pending`: their submission event dead-lettered or never handled) or accepted but not
 * validated after the polls (`submitted`): a partial index keeps that look cheap however many
 * documents the table holds.
 */
export class MyInvoisWaitingIndex1732200000011 implements MigrationInterface {
  name = 'MyInvoisWaitingIndex1732200000011';

  async up(q: QueryRunner): Promise<void> {
    // An issuer-side rejection still in flight from the version before buyer rejection was redone
    // (only the buyer may reject at MyInvois): void; the document is valid as it was.
    await q.query(`UPDATE myinvois_documents SET state = 'valid' WHERE state = 'rejecting'`);
    await q.query(`CREATE INDEX myinvois_documents_waiting_idx ON myinvois_documents (updated_at) WHERE state IN ('pending', 'submitted')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX myinvois_documents_waiting_idx`);
  }
}
