// The EXPLAINs of `GET /v1/documents` (#47 "Speed": any one filter at 1,000,000 documents in one tenant and
// 3,000,000 in the database): an equivalent bulk fixture written straight into `documents` (not through the
// normal path: ten areas, both tracks' states, one tenant of 1,000,000 and 100 tenants sharing 2,000,000),
// then `EXPLAIN (ANALYZE, BUFFERS)` of each one-filter page as the gateway builds it (listSql), first page
// and a page from the middle. Needs the apps built (`npm run build` or a test run) and a migrated database:
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/einvoice_bench_test node scripts/bench/account-documents.mjs [--fixture]
// The database's name must end in `_test`: --fixture adds 3,000,000 rows (about ten minutes).
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('../register-paths.cjs');
const { Client } = require('pg');
const { listSql } = require('../../dist/apps/gateway/src/account/documents.service.js');

const url = process.env.DATABASE_URL ?? '';
if (!/_test(\?|$)/.test(url)) throw new Error('DATABASE_URL must name a database whose name ends in _test');
const TENANT = '00000000-0000-4000-8000-000000000001';

const FIXTURE = `
  WITH areas(n, area, reports) AS (VALUES (0,'be',false),(1,'de',false),(2,'sg',false),(3,'my',true),(4,'ae',true),
                                          (5,'es',true),(6,'pl',true),(7,'jo',true),(8,'ng',true),(9,'ar',true))
  INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, delivery_status,
                         report_state, state, fields, created_at, updated_at, version)
  SELECT gen_random_uuid(),
         CASE WHEN g <= 1000000 THEN '${TENANT}'::uuid ELSE ('00000000-0000-4000-8000-' || lpad(to_hex(2 + g % 100), 12, '0'))::uuid END,
         ('00000000-0000-4000-9000-' || lpad(to_hex(CASE WHEN g <= 1000000 THEN g % 20 ELSE 1000 + g % 2000 END), 12, '0'))::uuid,
         a.area,
         CASE WHEN NOT a.reports AND g % 7 = 0 THEN 'incoming' ELSE 'outgoing' END,
         'BENCH-' || g, 'Invoice',
         CASE WHEN a.reports THEN NULL WHEN g % 50 = 0 THEN 'Failed' WHEN g % 10 = 1 THEN 'Scheduled' ELSE 'Delivered' END,
         CASE WHEN NOT a.reports THEN NULL WHEN g % 40 = 0 THEN 'rejected' WHEN g % 100 = 3 THEN 'cancelled' WHEN g % 10 = 1 THEN 'pending' ELSE 'reported' END,
         'delivered',
         jsonb_build_object('IssueDate', (date '2025-01-01' + (g % 700))::text, 'TotalIncludingVat', g % 10000),
         timestamptz '2025-01-01' + g * interval '15 seconds', timestamptz '2025-01-01' + g * interval '15 seconds', 1
  FROM generate_series(1, 3000000) g JOIN areas a ON a.n = g % 10`;

const CASES = {
  'no filter': {},
  'area=pl': { areas: ['pl'] },
  'area=be,pl': { areas: ['be', 'pl'] },
  'direction=incoming': { direction: 'incoming' },
  'status=cancelled': { status: 'cancelled' },
  'status=failed': { status: 'failed' },
  'status=delivered': { status: 'delivered' },
  supplier_id: { supplierId: '00000000-0000-4000-9000-000000000007' },
  number: { number: 'BENCH-777777' },
  'issued 2025-03-01..2025-03-31': { issuedFrom: '2025-03-01', issuedTo: '2025-03-31' },
  'issued_from 2026-11-01': { issuedFrom: '2026-11-01' },
  'issued 2025-01-01..2025-01-01': { issuedFrom: '2025-01-01', issuedTo: '2025-01-01' },
  'created 2025-03-01..2025-03-31': { createdFrom: '2025-03-01', createdTo: '2025-03-31' },
};

const db = new Client({ connectionString: url });
await db.connect();
try {
  if (process.argv.includes('--fixture')) {
    await db.query('SET synchronous_commit = off');
    await db.query(FIXTURE);
    await db.query('VACUUM ANALYZE documents');
  }
  const middle = await db.query('SELECT id FROM documents WHERE tenant_id = $1 ORDER BY created_at DESC, id DESC OFFSET 500000 LIMIT 1', [TENANT]);
  for (const [name, filter] of Object.entries(CASES)) {
    const pages = [{ limit: 20 }, ...(middle.rows[0] && (name === 'no filter' || name === 'status=cancelled') ? [{ limit: 20, startingAfter: middle.rows[0].id }] : [])];
    for (const page of pages) {
      const { sql, parameters } = listSql(TENANT, filter, page);
      await db.query(sql, parameters); // warm the cache: the plan, not the first read from disk
      const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, parameters);
      console.log(`### ${name}${page.startingAfter ? ' (a page from the middle: starting_after)' : ''}`);
      console.log(`${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n`);
    }
  }
} finally {
  await db.end();
}
