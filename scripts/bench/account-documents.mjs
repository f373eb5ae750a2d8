// `GET /v1/documents`'s queries straight on PostgreSQL, without the stack (#47 "Speed"): how its index set was
// chosen (docs/documents-list-speed.md). On a database holding the bulk fixture (documents-fixture.mjs: not the
// normal path; `--fixture` writes it into a migrated database), the statements given as arguments run first (an
// index dropped or made: the variant measured), then each list case of the bench's documents-list phase, ROUNDS
// times (10) in turn, as the gateway builds it (listSql): p50 and max per case and the scans its plan chose
// (EXPLAIN ANALYZE; PLANS=1 prints them whole); then the write cost (documents-list.mjs writeCost) twice and the
// table's indexes. Needs the apps built (`npm run build`, a test run or a bench run):
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/einvoice_x_bench node scripts/bench/account-documents.mjs [--fixture] ['DROP INDEX ...' ...]
// The database's name must end in _test or _bench. A bench run with BENCH_KEEP_DB=1 leaves one with the fixture.
import { createRequire } from 'node:module';
import { writeFixture } from './documents-fixture.mjs';
import { listCases, listSqlOf, samples, tableFigures, writeCost } from './documents-list.mjs';
import { distribution, num } from './stats.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const url = process.env.DATABASE_URL ?? '';
if (!/_(test|bench)(\?|$)/.test(url)) throw new Error('DATABASE_URL must name a database whose name ends in _test or _bench');
const rounds = Number(process.env.ROUNDS ?? 10);

const db = new Client({ connectionString: url });
await db.connect();
try {
  if (process.argv.includes('--fixture')) await writeFixture(db, '00000000-0000-4000-8000-000000000001', { progress: (n, total) => console.error(`fixture ${n}/${total}`) });
  for (const statement of process.argv.slice(2).filter((a) => a !== '--fixture')) {
    console.error(statement);
    await db.query(statement);
  }
  // The fixture's big tenant: the one with the most documents.
  const { rows: [{ tenant_id: tenantId }] } = await db.query('SELECT tenant_id FROM documents GROUP BY 1 ORDER BY count(*) DESC LIMIT 1');
  const cases = listCases(await samples(db, tenantId));
  const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let n = 0; n < rounds; n++) {
    for (const [name, queryOf] of Object.entries(cases)) {
      const { sql, parameters } = listSqlOf(tenantId, queryOf(n));
      const started = performance.now();
      await db.query(sql, parameters);
      times[name].push(performance.now() - started);
    }
  }
  for (const [name, queryOf] of Object.entries(cases)) {
    const { sql, parameters } = listSqlOf(tenantId, queryOf(1));
    const plan = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters)).rows.map((r) => r['QUERY PLAN']);
    const scans = [...new Set(plan.map((l) => /((?:Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)(?: Backward)? (?:using|on) \S+)/.exec(l)?.[1]).filter(Boolean))];
    const d = distribution(times[name]);
    console.log(`${name.padEnd(38)} p50 ${num(d.p50).padStart(8)} ms  max ${num(d.max).padStart(8)} ms  ${scans.join(' + ')}`);
    if (process.env.PLANS === '1') console.log(`${plan.map((l) => `    ${l}`).join('\n')}\n`);
  }
  for (let i = 0; i < 2; i++) {
    const w = await writeCost(db, tenantId);
    console.log(`write cost: ${w.rows} rows, INSERT ${num(w.insertPerSecond, 0)} rows/s, UPDATE ${num(w.updatePerSecond, 0)} rows/s, ${w.hot}/${w.updated} HOT`);
  }
  const table = await tableFigures(db);
  console.log(`indexes (${table.indexes.length}): ${table.indexes.map((i) => `${i.name} ${num(i.bytes / 2 ** 20, 0)} MB`).join(', ')}`);
} finally {
  await db.end();
}
