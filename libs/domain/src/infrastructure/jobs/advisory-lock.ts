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
    return (await this.tryWithAll(key, [name], () => work())).length === 1;
  }

  /** Tries the locks of `names` in one statement, runs `work` with those it got (not at all with none), frees them after. */
  async tryWithAll(key: number, names: readonly string[], work: (held: string[]) => Promise<void>): Promise<string[]> {
    const free = [...new Set(names)].filter((name) => !this.held.has(`${key}/${name}`));
    if (!free.length) return [];
    for (const name of free) this.held.add(`${key}/${name}`);
    this.users++;
    try {
      const runner = await this.session();
      const rows = await this.query(runner, `SELECT n AS name FROM unnest($2::text[]) AS n WHERE pg_try_advisory_lock($1, hashtext(n))`, [key, free]);
      const locked = rows.map((row) => String(row.name));
      if (!locked.length) return [];
      try {
        await work(locked);
      } finally {
        // A session that broke meanwhile took the locks with it: nothing to give back.
        await this.query(runner, `SELECT pg_advisory_unlock($1, hashtext(n)) FROM unnest($2::text[]) AS n`, [key, locked]).catch(() => undefined);
      }
      return locked;
    } finally {
      for (const name of free) this.held.delete(`${key}/${name}`);
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

  private async query(runner: QueryRunner, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
    // One statement at a time on the session (pg deprecates queueing queries on a busy client).
    const turn = this.turn.then(() => runner.query(sql, params) as Promise<Array<Record<string, unknown>>>);
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

function sessionOf(dataSource: DataSource): LockSession {
  let session = sessions.get(dataSource);
  if (!session) {
    session = new LockSession(dataSource);
    sessions.set(dataSource, session);
  }
  return session;
}

/**
 * Runs `work` while holding the session advisory lock (`key`, hashtext(`name`)), tried and never
 * waited for; false, without running it, when another session, or this process already, holds it.
 * The lock outlives the transactions `work` commits, and a crash frees it. Every lock of the process
 * is held on one connection of its own (LockSession), not one connection per lock.
 */
export async function withTriedAdvisoryLock(dataSource: DataSource, key: number, name: string, work: () => Promise<void>): Promise<boolean> {
  return sessionOf(dataSource).tryWith(key, name, work);
}

/**
 * withTriedAdvisoryLock for many names of one `key` at once (one statement to try them all, one to
 * free them): `work` runs with the names whose locks this process got, which it returns; those
 * another session, or this process already, holds are left out.
 */
export async function withTriedAdvisoryLocks(dataSource: DataSource, key: number, names: readonly string[], work: (held: string[]) => Promise<void>): Promise<string[]> {
  return sessionOf(dataSource).tryWithAll(key, names, work);
}
