import type { DataSource, QueryRunner } from 'typeorm';

/**
 * The session that holds this process's advisory locks on a data source: one connection for all of
 * them (a lock outlives the transactions its work commits, so it cannot live on theirs), taken from the
 * pool while any lock is held or being tried and given back when none is. A session's locks are
 * re-entrant, so the process also keeps which it holds: a second try of a held lock here is refused,
 * as another process's would be. A crash ends the session and frees every lock it held.
 */
class LockSession {
  private runner?: Promise<QueryRunner>;
  private users = 0;
  private turn: Promise<unknown> = Promise.resolve();
  private readonly held = new Set<string>();

  constructor(private readonly dataSource: DataSource) {}

  async tryWith(key: number, name: string, work: () => Promise<void>): Promise<boolean> {
    const id = `${key}/${name}`;
    if (this.held.has(id)) return false;
    this.held.add(id);
    this.users++;
    try {
      const runner = await this.session();
      const [{ locked }] = await this.query(runner, `SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked`, [key, name]);
      if (!locked) return false;
      try {
        await work();
      } finally {
        // A session that broke meanwhile took the lock with it: nothing to give back.
        await this.query(runner, `SELECT pg_advisory_unlock($1, hashtext($2))`, [key, name]).catch(() => undefined);
      }
      return true;
    } finally {
      this.held.delete(id);
      if (--this.users === 0) this.close();
    }
  }

  private session(): Promise<QueryRunner> {
    this.runner ??= (async () => {
      const runner = this.dataSource.createQueryRunner();
      await runner.connect();
      return runner;
    })();
    // A failed connect is not kept: the next try connects again.
    this.runner.catch(() => (this.runner = undefined));
    return this.runner;
  }

  private async query(runner: QueryRunner, sql: string, params: unknown[]): Promise<Array<{ locked: boolean }>> {
    // One statement at a time on the session (pg deprecates queueing queries on a busy client).
    const turn = this.turn.then(() => runner.query(sql, params) as Promise<Array<{ locked: boolean }>>);
    this.turn = turn.catch(() => undefined);
    try {
      return await turn;
    } catch (error) {
      // A broken session (its locks are gone with it): the next try opens another.
      if (this.runner && (await this.runner.catch(() => undefined)) === runner) {
        this.runner = undefined;
        void runner.release().catch(() => undefined);
      }
      throw error;
    }
  }

  private close(): void {
    const runner = this.runner;
    this.runner = undefined;
    void runner?.then((r) => r.release()).catch(() => undefined);
  }
}

const sessions = new WeakMap<DataSource, LockSession>();

/**
 * Runs `work` while holding the session advisory lock (`key`, hashtext(`name`)), tried and never
 * waited for; false, without running it, when another session, or this process already, holds it.
 * The lock outlives the transactions `work` commits, and a crash frees it. Every lock of the process
 * is held on one connection of its own (LockSession), not one connection per lock.
 */
export async function withTriedAdvisoryLock(dataSource: DataSource, key: number, name: string, work: () => Promise<void>): Promise<boolean> {
  let session = sessions.get(dataSource);
  if (!session) {
    session = new LockSession(dataSource);
    sessions.set(dataSource, session);
  }
  return session.tryWith(key, name, work);
}
