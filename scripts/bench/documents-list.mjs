// The documents-list phase (#47 "Speed": `GET /v1/documents` with any one filter, p99 <= 50 ms at 1,000,000
// documents in one tenant and 3,000,000 in the database, under 50 submissions a second). The 3,000,000 come
// from the bulk fixture (documents-fixture.mjs, not the normal path); the 50/s are real submissions through the
// gateway (load.mjs's paced open loop) while one client GETs the list, the cases in turn, each request with a
// value of its own (another supplier, month, number, cursor: not one page read from the cache again and again).
// Each case's p50/p99 is printed as a multiple of its own reference, measured in the same loop: a bare Fastify GET
// doing one SELECT by primary key (reference-server.mjs). Then the plans (EXPLAIN ANALYZE, BUFFERS) of one
// request of each case, and the write cost of the table's indexes (writeCost). Then, under the same rate of
// submissions, the web console's page loads for the same tenant (console-load.mjs, #50).
import { createRequire } from 'node:module';
import path from 'node:path';
import { ROOT } from '../lib/services.mjs';
import { consoleLoads } from './console-load.mjs';
import { FIXTURE_DOCUMENTS, FIXTURE_NUMBER_PREFIX } from './documents-fixture.mjs';
import { distribution } from './stats.mjs';

/**
 * Values each case draws from in turn: read once from the fixture. `tenantDocuments`: the tenant's share of the
 * fixture (a third of it: 1,000,000 at its default size), which places the deep cursors.
 */
export async function samples(db, tenantId, tenantDocuments = FIXTURE_DOCUMENTS / 3) {
  const pick = async (sql, parameters = [tenantId]) => (await db.query(sql, parameters)).rows.map((r) => r.v);
  // Positions 10% to 90% of the tenant's list, newest first, every 4% (100,000 to 900,000 at 1,000,000): the
  // pages a client walking far reaches.
  const step = Math.max(1, Math.floor(tenantDocuments / 25));
  const cursors = await pick(`SELECT id AS v FROM (SELECT id, row_number() OVER (ORDER BY created_at DESC, id DESC) AS n FROM documents WHERE tenant_id = $1) t
                              WHERE n % $2 = 0 AND n BETWEEN $3 AND $4`, [tenantId, step, Math.floor(tenantDocuments / 10), Math.floor((9 * tenantDocuments) / 10)]);
  const suppliers = await pick(`SELECT supplier_id AS v FROM documents WHERE tenant_id = $1 GROUP BY 1 ORDER BY count(*) DESC`);
  // 1% of the table's pages at 3,000,000 rows; more of a smaller fixture's, so that it still finds 50.
  const sampled = Math.min(100, FIXTURE_DOCUMENTS / 3 / tenantDocuments);
  const numbers = await pick(`SELECT document_number AS v FROM documents TABLESAMPLE SYSTEM ($3) WHERE tenant_id = $1 AND document_number LIKE $2 LIMIT 50`, [tenantId, `${FIXTURE_NUMBER_PREFIX}%`, sampled]);
  const months = await pick(`SELECT to_char(m, 'YYYY-MM') AS v FROM generate_series(date_trunc('month', now() - interval '700 days'), now() - interval '1 month', interval '1 month') m`, []);
  return { cursors, suppliers: suppliers.filter((_, i) => i % 10 === 0), numbers, months };
}

const monthRange = (month) => {
  const [y, m] = month.split('-').map(Number);
  return [`${month}-01`, new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)];
};

/** name -> (n) => the query string of the n-th request of the case. */
export function listCases(s) {
  const at = (list, n) => list[n % list.length];
  return {
    'no filter': () => '',
    'area=pl (15%)': () => 'area=pl',
    'area=jo (2%)': () => 'area=jo',
    'direction=incoming': () => 'direction=incoming',
    'status=delivered': () => 'status=delivered',
    'status=reported': () => 'status=reported',
    'status=accepted (newest only)': () => 'status=accepted',
    'status=failed (0.2%)': () => 'status=failed',
    'status=cancelled (0.2%)': () => 'status=cancelled',
    'status=refused (0.6%)': () => 'status=refused',
    'status=received (= incoming)': () => 'status=received',
    'supplier_id (one of 200)': (n) => `supplier_id=${at(s.suppliers, n)}`,
    number: (n) => `number=${at(s.numbers, n)}`,
    'issued_from..issued_to (a month)': (n) => monthRange(at(s.months, n)).map((d, i) => `${i ? 'issued_to' : 'issued_from'}=${d}`).join('&'),
    'issued_from (last month on)': () => `issued_from=${monthRange(s.months.at(-1))[0]}`,
    'created_from..created_to (a month)': (n) => monthRange(at(s.months, n)).map((d, i) => `${i ? 'created_to' : 'created_from'}=${d}`).join('&'),
    'starting_after deep': (n) => `starting_after=${at(s.cursors, n)}`,
    'starting_after deep, area=pl': (n) => `area=pl&starting_after=${at(s.cursors, n)}`,
    'starting_after deep, status=failed': (n) => `status=failed&starting_after=${at(s.cursors, n)}`,
  };
}

/** The filter and page of a query string, as documentListQuery makes them (for EXPLAIN through the gateway's listSql). */
export function listSqlOf(tenantId, query) {
  const require = createRequire(path.join(ROOT, 'package.json'));
  require(path.join(ROOT, 'scripts', 'register-paths.cjs'));
  const { documentListQuery } = require(path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'account', 'documents-query.js'));
  const { listSql } = require(path.join(ROOT, 'dist', 'apps', 'gateway', 'src', 'account', 'documents.service.js'));
  const { filter, page } = documentListQuery(Object.fromEntries(new URLSearchParams(query)));
  return listSql(tenantId, filter, page);
}

/**
 * Runs every case in turn for `duration` s (or `rounds` rounds; one client, one request at a time) with the
 * reference GET as one more case; returns each case's latencies, statuses and rows of its first answer.
 */
async function timedLists({ url, apiKey, cases, referenceUrl, duration, assertAlive, rounds = Infinity }) {
  const results = Object.fromEntries(Object.keys(cases).map((name) => [name, { ms: [], statuses: {}, rows: undefined }]));
  const reference = { ms: [], statuses: {} };
  const endAt = Date.now() + duration * 1000;
  for (let n = 0; n < rounds && Date.now() < endAt; n++) {
    assertAlive();
    for (const [name, queryOf] of Object.entries(cases)) {
      const started = performance.now();
      const response = await fetch(`${url}/v1/documents?${queryOf(n)}`, { headers: { 'x-svc-auth-key': apiKey } });
      const body = await response.json().catch(() => undefined);
      const r = results[name];
      r.ms.push(performance.now() - started);
      r.statuses[response.status] = (r.statuses[response.status] ?? 0) + 1;
      if (response.status !== 200) r.firstError ??= JSON.stringify(body).slice(0, 300);
      r.rows ??= body?.data?.length;
    }
    const started = performance.now();
    const response = await fetch(referenceUrl);
    await response.arrayBuffer();
    reference.ms.push(performance.now() - started);
    reference.statuses[response.status] = (reference.statuses[response.status] ?? 0) + 1;
  }
  return { results, reference };
}

/** The plan of each case's first request: the scan(s) it chose, its time and its buffers (`full`: every line). */
async function plans(db, tenantId, cases, { full }) {
  const out = {};
  for (const [name, queryOf] of Object.entries(cases)) {
    const { sql, parameters } = listSqlOf(tenantId, queryOf(0));
    await db.query(sql, parameters);
    const lines = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters)).rows.map((r) => r['QUERY PLAN']);
    const scans = lines.map((l) => /((?:Parallel )?(?:Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)(?: Backward)?(?: using \S+| on \S+))/.exec(l)?.[1]).filter(Boolean);
    const buffers = /Buffers: (.*)/.exec(lines.find((l) => l.includes('Buffers:')) ?? '')?.[1] ?? '';
    const time = /Execution Time: ([\d.]+) ms/.exec(lines.find((l) => l.includes('Execution Time')) ?? '')?.[1];
    out[name] = { query: queryOf(0), scans: [...new Set(scans)], buffers, executionMs: Number(time), lines: full ? lines : undefined };
  }
  return out;
}

/**
 * What the table's indexes cost a write, at this size: `rows` BE documents inserted into the tenant, then each
 * moved Scheduled -> Sent -> Delivered (one UPDATE of the delivery status each, as the delivery-worker does, set-based
 * here), in one transaction rolled back (nothing left behind). HOT: updates that wrote no index entry, counted
 * by the transaction's own statistics (pg_stat_get_xact_*), not the cumulative view, which lags.
 */
export async function writeCost(db, tenantId, rows = 20000) {
  await db.query('BEGIN');
  try {
    const t0 = performance.now();
    const { rows: inserted } = await db.query(
      `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, delivery_status, state, fields, created_at, updated_at, version)
       SELECT gen_random_uuid(), $1, '00000000-0000-4000-9000-00000000ffff', 'be', 'outgoing', 'WRITE-COST-' || g, 'Invoice', 'Scheduled', 'delivered',
              jsonb_build_object('IssueDate', current_date::text, 'TotalIncludingVat', 100, 'DocumentCurrencyCode', 'EUR'), clock_timestamp(), clock_timestamp(), 1
       FROM generate_series(1, $2::int) g RETURNING id`,
      [tenantId, rows],
    );
    const t1 = performance.now();
    const ids = inserted.map((r) => r.id);
    for (const status of ['Sent', 'Delivered']) {
      await db.query(`UPDATE documents SET delivery_status = $2, updated_at = clock_timestamp(), version = version + 1 WHERE id = ANY($1::uuid[])`, [ids, status]);
    }
    const t2 = performance.now();
    const { rows: [stats] } = await db.query(
      `SELECT pg_stat_get_xact_tuples_updated('documents'::regclass)::int AS updated, pg_stat_get_xact_tuples_hot_updated('documents'::regclass)::int AS hot`,
    );
    return { rows, insertPerSecond: rows / ((t1 - t0) / 1000), updatePerSecond: (2 * rows) / ((t2 - t1) / 1000), updated: stats.updated, hot: stats.hot };
  } finally {
    await db.query('ROLLBACK');
  }
}

/** The table's indexes and their sizes, and its cumulative updates (HOT among them). */
export async function tableFigures(db) {
  await db.query('SELECT pg_stat_clear_snapshot()');
  const { rows: indexes } = await db.query(
    `SELECT c.relname AS name, pg_relation_size(c.oid) AS bytes FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = 'documents'::regclass ORDER BY c.relname`,
  );
  const { rows: [t] } = await db.query(
    `SELECT n_tup_ins::bigint AS ins, n_tup_upd::bigint AS upd, n_tup_hot_upd::bigint AS hot, pg_relation_size('documents') AS heap
     FROM pg_stat_user_tables WHERE relname = 'documents'`,
  );
  return { indexes, inserted: Number(t.ins), updated: Number(t.upd), hot: Number(t.hot), heapBytes: Number(t.heap) };
}

/**
 * The phase's measurements, the fixture already written: the list cases while `submit()` (the 50/s load) runs,
 * then the console's page loads (`consoleRounds` rounds, none when 0), with nothing else running or, when
 * `consoleUnder` is 'submissions', while `submit({ label, signal })` runs until they end, then the plans, the
 * write cost and the table's figures. `submit` resolves with the load's result. `tenantDocuments`: the tenant's share of the fixture. `during` wraps the list's timed window (the bench's
 * probe of the machine: only while the list is read and the submissions go).
 */
export async function documentsListRun({ db, url, apiKey, tenantId, tenantDocuments, referenceUrl, duration, submit, assertAlive, fullPlans, consoleRounds = 0, consoleUnder = 'quiet', during = (work) => work() }) {
  const s = await samples(db, tenantId, tenantDocuments);
  const cases = listCases(s);
  // One pass first, not measured: the gateway's first query of each shape (planning, the pool's connections).
  await timedLists({ url, apiKey, cases, referenceUrl, duration, assertAlive, rounds: 1 });
  const before = await tableFigures(db);
  const [lists, load] = await during(() => Promise.all([timedLists({ url, apiKey, cases, referenceUrl, duration, assertAlive }), submit()]));
  const after = await tableFigures(db);
  const byCase = Object.fromEntries(Object.entries(lists.results).map(([name, r]) => [name, { ...r, latency: distribution(r.ms), n: r.ms.length }]));
  const pageLoads = consoleRounds > 0 ? await consoleLoads({ db, url, apiKey, tenantId, numbers: s.numbers, rounds: consoleRounds, submit: consoleUnder === 'submissions' ? submit : undefined, assertAlive }) : undefined;
  return {
    console: pageLoads,
    cases: byCase,
    reference: { latency: distribution(lists.reference.ms), n: lists.reference.ms.length, statuses: lists.reference.statuses },
    load,
    duringLoad: { updated: after.updated - before.updated, hot: after.hot - before.hot, inserted: after.inserted - before.inserted },
    table: after,
    plans: await plans(db, tenantId, cases, { full: fullPlans }),
    write: await writeCost(db, tenantId),
  };
}
