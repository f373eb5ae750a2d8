import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The account-wide list of documents (#47, `GET /v1/documents`, docs/account-api.md): newest first by
 * (created_at DESC, id DESC) within a tenant, with at most one filter narrowing an index each, so a page
 * is an index scan that stops at `limit + 1` rows whatever the tenant holds.
 *
 * `account_document_status` is the list's one `status` of a row, both tracks folded (the mapping's
 * table: libs/domain/src/account/document-states.ts); `account_document_issue_date` the issue date
 * whatever the area calls it (`IssueDate`: Belgium, Germany, Singapore, Poland, Malaysia; `issue_date`:
 * Spain, Jordan, Nigeria, UAE; `CbteFch` as YYYYMMDD: Argentina), as YYYY-MM-DD text. Both IMMUTABLE so
 * they can be indexed; the list selects and filters on the same expressions. An issue-date range is the
 * one filter that is not in the list's order: its index finds the range, and the planner weighs it
 * against walking the tenant's newest first (the ANALYZE statistics of the expression say how many match). `documents_tenant_supplier_idx (tenant_id, supplier_id)` is the prefix
 * of the supplier index, which replaces it (one B-tree fewer to write per document; issue 11).
 *
 * Cost: report_state and delivery_status are now indexed (through the status expression), so a state
 * change is no longer a HOT update of the row (DocumentsSmallRows1732200000028).
 */
export class AccountDocumentLists1732200001880 implements MigrationInterface {
  name = 'AccountDocumentLists1732200001880';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION account_document_status(direction text, report_state text, delivery_status text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE
          WHEN direction = 'incoming' THEN 'received'
          WHEN report_state = 'cancelled' THEN 'cancelled'
          WHEN report_state IN ('rejected', 'invalid') THEN 'refused'
          WHEN delivery_status = 'Failed' THEN 'failed'
          WHEN report_state IN ('pending', 'processing') THEN 'accepted'
          WHEN report_state IN ('reported', 'cancelling') THEN 'reported'
          WHEN delivery_status = 'Sent' THEN 'sent'
          WHEN delivery_status = 'Delivered' THEN 'delivered'
          ELSE 'accepted' END $$`);
    await q.query(`
      CREATE FUNCTION account_document_issue_date(fields jsonb) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT regexp_replace(coalesce(fields ->> 'IssueDate', fields ->> 'issue_date', fields ->> 'CbteFch'),
                              '^(\\d{4})(\\d{2})(\\d{2})$', '\\1-\\2-\\3') $$`);
    await q.query(`CREATE INDEX documents_account_created_idx ON documents (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX documents_account_area_idx ON documents (tenant_id, area, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX documents_account_direction_idx ON documents (tenant_id, direction, created_at DESC, id DESC)`);
    await q.query(`
      CREATE INDEX documents_account_status_idx
        ON documents (tenant_id, account_document_status(direction, report_state, delivery_status), created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX documents_account_supplier_idx ON documents (tenant_id, supplier_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX documents_account_number_idx ON documents (tenant_id, document_number, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX documents_account_issued_idx ON documents (tenant_id, account_document_issue_date(fields))`);
    await q.query(`DROP INDEX documents_tenant_supplier_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX documents_tenant_supplier_idx ON documents (tenant_id, supplier_id)`);
    for (const name of ['issued', 'number', 'supplier', 'status', 'direction', 'area', 'created']) await q.query(`DROP INDEX documents_account_${name}_idx`);
    await q.query(`DROP FUNCTION account_document_status(text, text, text)`);
    await q.query(`DROP FUNCTION account_document_issue_date(jsonb)`);
  }
}
