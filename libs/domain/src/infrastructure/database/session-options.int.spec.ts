import { createDataSource } from './data-source';

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
});
