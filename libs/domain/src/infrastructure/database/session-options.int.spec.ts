import { Client } from 'pg';
import { createDataSource } from './data-source';
import { RELAY_SESSION_OPTIONS } from './session-options';

describe('the apps\' PostgreSQL sessions', () => {
  it('#11 start with JIT compilation off (a misestimated OLTP read was compiled with LLVM on every call)', async () => {
    const dataSource = createDataSource({ databaseUrl: process.env.DATABASE_URL as string, poolSize: 2, applicationName: 'einvoice-session-options-spec' });
    await dataSource.initialize();
    try {
      // Two reads at once: two sessions of the pool, each with the setting.
      const answers = await Promise.all([dataSource.query(`SHOW jit`), dataSource.query(`SELECT current_setting('jit') AS jit, pg_sleep(0.05)`)]);
      expect(answers.map((rows) => rows[0].jit)).toEqual(['off', 'off']);
    } finally {
      await dataSource.destroy();
    }
  });

  it('#11 the outbox relay\'s session also plans no bitmap scan (one walks the dead entries\' heap pages on every read)', async () => {
    const client = new Client({ connectionString: process.env.DATABASE_URL as string, options: RELAY_SESSION_OPTIONS });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT current_setting('jit') AS jit, current_setting('enable_bitmapscan') AS bitmap`);
      expect(rows).toEqual([{ jit: 'off', bitmap: 'off' }]);
      // The pending rows' read as the relay plans it: by the partial index, never a bitmap.
      const { rows: plan } = await client.query(
        `EXPLAIN SELECT id FROM outbox WHERE processed_at IS NULL AND abandoned_at IS NULL AND topic LIKE 'x.%' ORDER BY id LIMIT 500`,
      );
      const text = plan.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      expect(text).not.toContain('Bitmap');
      expect(text).toContain('outbox_pending_idx');
    } finally {
      await client.end();
    }
  });
});
