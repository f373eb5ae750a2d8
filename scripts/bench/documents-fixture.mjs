// The bulk fixture of `GET /v1/documents`'s speed (#47 "Speed": 1,000,000 documents in one tenant, 3,000,000 in
// the database), written straight into `documents` by INSERT ... SELECT, NOT through the normal path (3,000,000
// submissions would take days here). One row in three is the big tenant's, interleaved in time with 100 other
// tenants' (20,000 each), as they arrive, so a page of the big tenant's is spread over the heap as in service:
//   - created_at over two years up to a day ago, in insertion order (the heap's physical order), the issue date
//     0-5 days before it;
//   - areas weighted as a tenant's are (BE 30%, DE 20%, PL 15%, ES 10%, MY 8%, SG 5%, AE 5%, AR 3%, JO 2%, NG 2%);
//   - the big tenant's 200 suppliers skewed (the first one ~7% of its documents, most under 0.5%); 20 each elsewhere;
//   - incoming documents 10% of the Peppol areas'; each track's final states in realistic shares (Failed 0.5%,
//     refused 1%, cancelled 0.3%), only the last 3,000 documents (~17 h) not final yet (Scheduled, Sent, pending).
// Run on a migrated database; VACUUM ANALYZE after (old documents are all-visible, as autovacuum leaves them).

/** The tenant ids of the 100 other tenants, and the big tenant's suppliers, are made from these. */
const OTHER_TENANT = (n) => `('00000000-0000-4000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;
const SUPPLIER = (n) => `('00000000-0000-4000-9000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

export const FIXTURE_DOCUMENTS = 3_000_000;
export const FIXTURE_NUMBER_PREFIX = 'FIXTURE-';
/** The documents still on their way: the fixture's newest (the rest reached a final state). */
const NOT_FINAL = 3000;

/** INSERT of fixture rows g = $2..$3 (of `total`); $1 the big tenant's id. */
const insertSql = (total) => `
  WITH areas(area, reports, lo, hi) AS (VALUES ('be', false, 0.00, 0.30), ('de', false, 0.30, 0.50), ('pl', true, 0.50, 0.65),
      ('es', true, 0.65, 0.75), ('my', true, 0.75, 0.83), ('sg', false, 0.83, 0.88), ('ae', true, 0.88, 0.93),
      ('ar', true, 0.93, 0.96), ('jo', true, 0.96, 0.98), ('ng', true, 0.98, 1.01))
  INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, delivery_status,
                         report_state, state, fields, created_at, updated_at, version)
  SELECT gen_random_uuid(), x.tenant_id,
         CASE WHEN x.big THEN ${SUPPLIER('floor(200 * x.rsup * x.rsup)::int')}
              ELSE ${SUPPLIER('1000 + (x.g % 100) * 20 + floor(20 * x.rsup)::int')} END,
         a.area,
         CASE WHEN NOT a.reports AND x.rdir < 0.1 THEN 'incoming' ELSE 'outgoing' END,
         '${FIXTURE_NUMBER_PREFIX}' || x.g, 'Invoice',
         CASE WHEN a.reports THEN NULL
              WHEN x.g > ${total - NOT_FINAL} THEN CASE WHEN x.rst < 0.5 THEN 'Scheduled' ELSE 'Sent' END
              WHEN x.rst < 0.005 THEN 'Failed' ELSE 'Delivered' END,
         CASE WHEN NOT a.reports THEN NULL
              WHEN x.g > ${total - NOT_FINAL} THEN 'pending'
              WHEN x.rst < 0.010 THEN 'rejected' WHEN x.rst < 0.013 THEN 'cancelled' ELSE 'reported' END,
         'delivered',
         jsonb_build_object('IssueDate', (x.created_at - floor(6 * x.rday) * interval '1 day')::date::text,
                            'TotalIncludingVat', round((10 + 9990 * x.rdir)::numeric, 2), 'DocumentCurrencyCode', 'EUR'),
         x.created_at, x.created_at, 1
  FROM (SELECT g, g % 3 = 0 AS big, random() AS rarea, random() AS rsup, random() AS rdir, random() AS rst, random() AS rday,
               CASE WHEN g % 3 = 0 THEN $1::uuid ELSE ${OTHER_TENANT('2 + g % 100')} END AS tenant_id,
               now() - interval '1 day' - (${total} - g) * (interval '729 days' / ${total}) AS created_at
        FROM generate_series($2::int, $3::int) g) x
  JOIN areas a ON x.rarea >= a.lo AND x.rarea < a.hi`;

/**
 * Writes the 3,000,000 rows (1,000,000 of them `tenantId`'s; `total` sets another size, the same two years:
 * docs/documents-list-speed.md "Issue-date ranges" used 900,000) in batches of `batch`, `progress(done, total)`
 * after each; then VACUUM ANALYZE. As a bulk load is done: the table's plain indexes (not its primary key nor
 * its unique ones, which check the rows) are dropped first and built again after, from their own definitions,
 * so they are as compact as freshly built ones, not as a table's grown row by row (the load took 1,104 s with
 * them in place, 1,029 and 617 s without, on this shared machine at load averages 9-18: its load, more than
 * the indexes, sets the time). Asynchronous commit: a crash may lose the fixture, nothing else.
 */
export async function writeFixture(db, tenantId, { batch = 250_000, total = FIXTURE_DOCUMENTS, progress = () => undefined } = {}) {
  const { rows: indexes } = await db.query(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = 'documents'::regclass AND NOT i.indisunique AND NOT i.indisprimary`,
  );
  await db.query('SET synchronous_commit = off');
  await db.query(`SET maintenance_work_mem = '256MB'`);
  // The rows stand for documents recorded long ago, whose account events (the trigger of #48) the dispatcher's
  // tail read long ago: fired here, the trigger wrote 3,000,000 events (the load took 1,184-1,252 s instead of
  // ~460 s) and left the tail millions to read while the list was measured. `replica` skips the table's
  // triggers for this session only (documents has no foreign key that the triggers would check).
  await db.query('SET session_replication_role = replica');
  try {
    for (const { name } of indexes) await db.query(`DROP INDEX "${name}"`);
    for (let from = 1; from <= total; from += batch) {
      const to = Math.min(total, from + batch - 1);
      await db.query(insertSql(total), [tenantId, from, to]);
      progress(to, total);
    }
  } finally {
    for (const { definition } of indexes) await db.query(definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
    await db.query('RESET maintenance_work_mem');
    await db.query('RESET session_replication_role');
    await db.query('SET synchronous_commit = on');
  }
  await db.query('VACUUM ANALYZE documents');
}
