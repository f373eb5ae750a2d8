import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One `documents` read model for every area (#8): besides the Peppol details (`delivery_status`,
 * `delivery`), a document has a `state` with explicit failure states, the rule set it was validated
 * under, what its tax authority answered (`authority`), and the document as rendered (`rendered`:
 * media type, SHA-256, bytes) when it is not UBL (`xml`). States: `scheduled` | `delivered` |
 * `received` (Peppol), `pending` | `reported` | `rejected` (reported to an authority).
 */
export class DocumentsForEveryArea1732200000016 implements MigrationInterface {
  name = 'DocumentsForEveryArea1732200000016';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE documents
        ADD COLUMN state text,
        ADD COLUMN rule_set_id text,
        ADD COLUMN authority jsonb,
        ADD COLUMN rendered jsonb,
        ALTER COLUMN delivery_status DROP NOT NULL,
        ALTER COLUMN xml DROP NOT NULL`);
    await q.query(`UPDATE documents SET state = CASE WHEN direction = 'incoming' THEN 'received' ELSE lower(delivery_status) END`);
    await q.query(`ALTER TABLE documents ALTER COLUMN state SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM documents WHERE delivery_status IS NULL OR xml IS NULL`);
    await q.query(`
      ALTER TABLE documents DROP COLUMN state, DROP COLUMN rule_set_id, DROP COLUMN authority, DROP COLUMN rendered,
        ALTER COLUMN delivery_status SET NOT NULL, ALTER COLUMN xml SET NOT NULL`);
  }
}
