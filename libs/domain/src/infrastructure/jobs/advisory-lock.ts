import type { DataSource } from 'typeorm';

/**
 * Runs `work` while holding the session advisory lock (`key`, hashtext(`name`)) on a connection of
 * its own, tried and never waited for; false, without running it, when another session holds the
 * lock. The lock outlives the transactions `work` commits, and a crash ends the session and frees it.
 */
export async function withTriedAdvisoryLock(dataSource: DataSource, key: number, name: string, work: () => Promise<void>): Promise<boolean> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const [{ locked }] = await runner.query(`SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked`, [key, name]);
    if (!locked) return false;
    try {
      await work();
    } finally {
      await runner.query(`SELECT pg_advisory_unlock($1, hashtext($2))`, [key, name]);
    }
    return true;
  } finally {
    await runner.release();
  }
}
