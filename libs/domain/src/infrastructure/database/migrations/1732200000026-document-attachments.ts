import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Embedded attachments, stored once per document (issue 10: "stored once, not inside Kafka
 * events"): an area that detaches its UBL's embedded objects (libs/areas/src/ubl/attachments.ts)
 * keeps their bytes here, and the events carry the document without them. Received copies read
 * their sender's rows (`documents.source_document_id`).
 */
export class DocumentAttachments1732200000026 implements MigrationInterface {
  name = 'DocumentAttachments1732200000026';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE document_attachments (
        document_id  uuid     NOT NULL,
        index        integer  NOT NULL,
        filename     text     NOT NULL,
        mime_code    text     NOT NULL,
        size_bytes   integer  NOT NULL,
        content      bytea    NOT NULL,
        PRIMARY KEY (document_id, index)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE document_attachments`);
  }
}
