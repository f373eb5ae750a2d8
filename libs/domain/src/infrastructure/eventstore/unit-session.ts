import type { Pool, PoolClient } from 'pg';
import { QueryFailedError } from 'typeorm';
import { type PreparedStatements, queryPrepared } from './prepared-statements';
import type { SqlConnection } from './unit-of-work';

/**
 * A unit of work's connection (issue 11): a pooled connection taken for each statement while the unit
 * has no transaction open, and kept from its `begin` until `release`. A unit used to
 * take one as it started and hold it to its end, so a worker's handler held one while it waited on a
 * transmission, and a group of units committing together (commit-groups.ts: one statement on the
 * first one's connection) held one each for that one statement: the pool, not the work, bounded how
 * many units could be under way at once, and every unit paid a checkout, used or not.
 */
export class UnitSession implements SqlConnection {
  private client?: Promise<PoolClient>;
  /** Statements sent and not answered: the connection goes back only once none is left. */
  private inFlight = 0;
  private pinned = false;

  constructor(
    private readonly pool: Pool,
    private readonly prepared: PreparedStatements | undefined,
  ) {}

  /** Keeps the connection from here to `release`: a transaction's statements all go on the one that began it. */
  begin(): Promise<unknown> {
    this.pinned = true;
    return this.query('BEGIN');
  }

  async query(sql: string, params?: unknown[], options?: { readonly prepare?: boolean }) {
    this.inFlight += 1;
    try {
      const client = await (this.client ??= this.pool.connect());
      try {
        return await queryPrepared(client, options?.prepare ? this.prepared : undefined, sql, params);
      } catch (error) {
        // As TypeORM reports them (`driverError`), which callers inspect.
        throw new QueryFailedError(sql, params, error as Error);
      }
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0 && !this.pinned) this.release();
    }
  }

  /** Gives the connection back, if one is held; `broken`: it could not roll back, and is closed instead. */
  release(broken?: Error): void {
    const client = this.client;
    this.client = undefined;
    this.pinned = false;
    // A checkout that failed has nothing to give back.
    void client?.then((taken) => taken.release(broken), () => undefined);
  }
}
