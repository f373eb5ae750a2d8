import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Buyer rejection done the MyInvois way (SDK "04 reject document"): issued documents remember
 * when they were validated (the rejection-watch scans those validated less than 72 h ago) and
 * the buyer's rejection once seen; `myinvois_rejections` holds the rejections our onboarded
 * buyers asked for (`POST /api/einvoice/received/{uuid}/reject`), from `myinvois-rejection-<id>` streams.
 */
export class MyInvoisBuyerRejection1732200000009 implements MigrationInterface {
  name = 'MyInvoisBuyerRejection1732200000009';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE myinvois_documents
        ADD COLUMN validated_at           timestamptz,
        ADD COLUMN rejection_reason       text,
        ADD COLUMN rejection_requested_at timestamptz`);
    // Documents validated before this migration: the time is in their MyInvoisDocumentValidated event.
    await q.query(`
      UPDATE myinvois_documents m SET validated_at = (e.data->>'validatedAt')::timestamptz
      FROM events e WHERE e.type = 'MyInvoisDocumentValidated' AND e.data->>'documentId' = m.id::text`);
    await q.query(`CREATE INDEX myinvois_documents_watch_idx ON myinvois_documents (validated_at) WHERE state = 'valid'`);
    await q.query(`
      CREATE TABLE myinvois_rejections (
        id            uuid         PRIMARY KEY,
        tenant_id     uuid         NOT NULL,
        supplier_id   uuid         NOT NULL,
        uuid          text         NOT NULL,
        state         text         NOT NULL,
        reason        text         NOT NULL,
        error         jsonb,
        error_kind    text,
        requested_at  timestamptz  NOT NULL,
        answered_at   timestamptz,
        version       integer      NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX myinvois_rejections_supplier_uuid_key ON myinvois_rejections (supplier_id, uuid)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE myinvois_rejections`);
    await q.query(`DROP INDEX myinvois_documents_watch_idx`);
    await q.query(`ALTER TABLE myinvois_documents DROP COLUMN validated_at, DROP COLUMN rejection_reason, DROP COLUMN rejection_requested_at`);
  }
}
