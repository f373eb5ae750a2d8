import { createHash } from 'node:crypto';
import type { ClientBase, QueryResult } from 'pg';

/**
 * Names of the statements PostgreSQL keeps prepared on each connection (issue 11). Sent unnamed,
 * a statement is parsed, analysed and planned on every call: the gateway's submission statement
 * (a unit of work's writes as data-modifying CTEs, deferred-writes.ts) ran at 2,494–2,861 a second
 * unnamed against 3,610–3,788 named (20 connections, 50 callers, this machine; the issue note has
 * the command), and the delivery worker's first read took 0.14 ms to plan for 0.02 ms to run
 * (`pg_stat_statements.track_planning`). Named, pg parses it once per connection and then only
 * binds and executes.
 *
 * What is prepared never returns a row type that a migration could change under it (a rolling
 * deploy adding a column would meet PostgreSQL's "cached plan must not change result type"): a
 * statement with `RETURNING` or a `SELECT *` / `SELECT t.*` is sent unnamed; writes without
 * RETURNING and reads naming their columns are prepared. A name is derived from the text (its
 * SHA-256), so every store and connection of the process, however many share a pool, gives a text
 * the same name and never one name to two texts. What is kept is bounded: at most `maxStatements` texts per process
 * (each connection holds the ones it used) and none longer than `maxTextLength` (a bulk's statement
 * of hundreds of rows, whose text varies with its size, goes unnamed).
 *
 * A prepared statement's generic plan is made once per connection, from the tables as they are at its
 * first runs, and kept until the table's statistics change (an ANALYZE; never where autovacuum is
 * off, as on the bench's machine). A read or an update whose best plan changes as its table grows
 * from empty is sent unnamed by its caller (`prepare: false`): the relay's session kept a sequential
 * scan of the outbox for its marks, the delivery worker's first look a hashed subplan over every
 * processed event of its group (issue 11, auto_explain).
 */
const ROW_TYPE_MAY_CHANGE = /\bRETURNING\b|\bSELECT\s+(?:DISTINCT\s+)?(?:[a-z_][a-z0-9_]*\.)?\*/i;

export class PreparedStatements {
  /** The process's statements: one bound for every store of the process (EventStore's default). */
  static readonly ofProcess = new PreparedStatements();

  private readonly names = new Map<string, string>();

  constructor(
    private readonly maxStatements = 256,
    // A group of 16 submissions (commit-groups.ts) is ~12 KiB of text: kept prepared (at 8 KiB, groups
    // past 11 were parsed and planned on every call, 48 CTEs each).
    private readonly maxTextLength = 32 * 1024,
  ) {}

  /** The name to prepare `text` under, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= this.maxStatements || text.length > this.maxTextLength || ROW_TYPE_MAY_CHANGE.test(text)) return undefined;
    const name = `einvoice_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;
    this.names.set(text, name);
    return name;
  }
}

/**
 * Runs `sql` on a pg connection under its prepared name when `prepared` gives it one (the event store's
 * units of work, the relay's session), else unnamed; without `prepared` (DATABASE_PREPARED_STATEMENTS
 * off: a pooler that cannot carry named statements) always unnamed.
 */
export function queryPrepared(client: ClientBase, prepared: PreparedStatements | undefined, sql: string, params?: unknown[]): Promise<QueryResult> {
  const name = prepared?.nameOf(sql);
  return name === undefined ? client.query(sql, params) : client.query({ name, text: sql, values: params });
}
