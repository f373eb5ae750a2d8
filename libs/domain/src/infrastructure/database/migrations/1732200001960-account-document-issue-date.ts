import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `GET /v1/documents?issued_from=&issued_to=` at 1,000,000 documents in a tenant (#47 "Speed", measured by
 * `BENCH_PHASES=reference,documents-list npm run bench`; figures and plans: docs/documents-list-speed.md).
 *
 * The issue-date index of AccountDocumentLists1732200001880, `(tenant_id, account_document_issue_date(fields))`,
 * was never used: with `ORDER BY created_at DESC LIMIT 21` the planner walks the tenant's newest first and
 * expects a month's documents (1/24 of them) spread evenly over the walk, but issue dates follow creation dates,
 * so a month two years back is at the far end: 8-17 s a page. The list now reads an issue-date range through
 * an index that holds the order's columns too, with an index-only scan (documents-service `listSql` says when);
 * an index-only scan needs the issue date as a column, not an expression over `fields`: `issue_date`, generated
 * from the same IMMUTABLE function (written with each row, nothing to keep in step by hand).
 *
 * The status index stays although it makes every state change a non-HOT update (all the table's indexes get
 * a new entry): without it the status filters took 60-190 ms a page instead of 6-19 (measured; a status the
 * tenant has none of walks all its documents), and only 17% of the updates became HOT in its place.
 *
 * Cost: adding a generated column rewrites the table once (an ACCESS EXCLUSIVE lock for the rewrite: minutes
 * at millions of rows); the new index is ~5 times the old one (it holds created_at and id).
 */
export class AccountDocumentIssueDate1732200001960 implements MigrationInterface {
  name = 'AccountDocumentIssueDate1732200001960';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE documents ADD COLUMN issue_date text GENERATED ALWAYS AS (account_document_issue_date(fields)) STORED`);
    await q.query(`CREATE INDEX documents_account_issue_date_idx ON documents (tenant_id, issue_date, created_at DESC, id DESC)`);
    await q.query(`DROP INDEX documents_account_issued_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX documents_account_issued_idx ON documents (tenant_id, account_document_issue_date(fields))`);
    await q.query(`DROP INDEX documents_account_issue_date_idx`);
    await q.query(`ALTER TABLE documents DROP COLUMN issue_date`);
  }
}
