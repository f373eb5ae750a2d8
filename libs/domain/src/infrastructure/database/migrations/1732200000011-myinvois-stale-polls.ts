import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The reporting worker's stale-poll sweep looks for documents MyInvois accepted but has not
 * validated after the fast polling phase: a partial index keeps that look cheap however many
 * documents the table holds.
 */
export class MyInvoisStalePolls1732200000011 implements MigrationInterface {
  name = 'MyInvoisStalePolls1732200000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX myinvois_documents_awaiting_validation_idx ON myinvois_documents (created_at) WHERE state = 'submitted'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX myinvois_documents_awaiting_validation_idx`);
  }
}
