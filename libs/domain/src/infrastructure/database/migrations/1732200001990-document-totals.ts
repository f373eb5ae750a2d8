import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /v1/documents`' `total` for documents whose payable amount the area computes rather than reads from the
 * body (#47): the UAE (`fields` is `rendered.stored`, the seed's GET body, which states no payable amount unless
 * the caller sent one) and MyInvois without `InvoiceTotal`. The list read only the caller's `fields`
 * (apps/gateway/src/account/document-fields.ts) and showed null for them.
 *
 * `total`: the amount payable as the area computed it (ParsedDocument.total, decimal text as its documents write
 * it), written with the row by the projections of DocumentSubmitted and AuthorityReportRequested. Null where the
 * area computes none (the list reads `fields` then) and on the rows written before this migration (not
 * backfilled: their events carry no computed amount; the list keeps reading their fields).
 *
 * Cost: a nullable column without a default: a catalog change, no table rewrite; in no index.
 */
export class DocumentTotals1732200001990 implements MigrationInterface {
  name = 'DocumentTotals1732200001990';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ADD COLUMN total text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents DROP COLUMN total`);
  }
}
