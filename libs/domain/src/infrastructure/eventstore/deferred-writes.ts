/**
 * Writes whose result nobody reads, held back and sent together as ONE statement (data-modifying
 * CTEs), with the transaction's next read or at commit (issue 11: a round trip to PostgreSQL
 * costs more CPU on both sides than the work of a small INSERT). A transaction made only of
 * such writes is that one statement in autocommit: atomic, one round trip, one commit.
 *
 * The sub-statements of one statement all run on the same snapshot and do not see each other's
 * rows, so a write joins the pending ones only when that cannot change its effect: plain INSERTs
 * go together, and so do writes that each name the one row they touch (`row`) when the rows differ
 * (a batch of reports' documents rows); any other UPDATE, DELETE or upsert goes into a statement of
 * its own after the writes to its table (the caller flushes first: `HeldWrites.admits`).
 */
export interface Write {
  readonly sql: string;
  readonly params: readonly unknown[];
  /**
   * The one row the write touches, when it says so (an UPDATE or upsert by primary key): writes to
   * different rows of a table see nothing of each other's, so they may share a statement.
   */
  readonly row?: string;
}

const PLAIN_INSERT = /^\s*INSERT\s+INTO\s+([a-z_][a-z0-9_.]*)/i;
const MODIFY = /^\s*(?:UPDATE\s+([a-z_][a-z0-9_.]*)|DELETE\s+FROM\s+([a-z_][a-z0-9_.]*))/i;

/** The texts seen so far: a few dozen statements of the code, asked about on every write (bounded for generated texts). */
const tables = new Map<string, { table: string; plainInsert: boolean }>();

/** The table a write changes, and whether it is a plain INSERT (no ON CONFLICT). */
export function tableOf(sql: string): { table: string; plainInsert: boolean } {
  const known = tables.get(sql);
  if (known) return known;
  const found = parseTableOf(sql);
  if (tables.size < 1024) tables.set(sql, found);
  return found;
}

function parseTableOf(sql: string): { table: string; plainInsert: boolean } {
  const insert = PLAIN_INSERT.exec(sql);
  if (insert) return { table: insert[1].toLowerCase(), plainInsert: !/\bON\s+CONFLICT\b/i.test(sql) };
  const modify = MODIFY.exec(sql);
  if (modify) return { table: (modify[1] ?? modify[2]).toLowerCase(), plainInsert: false };
  throw new Error(`a deferred write must be INSERT, UPDATE or DELETE: ${sql.slice(0, 80)}`);
}

/** True when `next` may not share a statement with `pending` (see the module comment): the rule as one question, for tests. */
export function needsFlushBefore(pending: readonly Write[], next: Write): boolean {
  const held = new HeldWrites();
  for (const write of pending) held.add(write);
  return !held.admits(next);
}

/**
 * What some writes change, table by table, so that whether another may share their statement is told
 * in one pass (the module comment's rule): a write conflicts with a held one of its table unless both
 * are plain INSERTs, or both name their row and the rows differ. One unit of work's pending writes,
 * and a group of units committed together (commit-groups.ts), are asked the same way.
 */
export class HeldWrites {
  private readonly byTable = new Map<string, { plainUnscoped: number; otherUnscoped: number; plainRows: Set<string>; otherRows: Set<string> }>();

  admits(write: Write): boolean {
    const { table, plainInsert } = tableOf(write.sql);
    const held = this.byTable.get(table);
    if (!held) return true;
    if (plainInsert) {
      // Only the other kinds can conflict with a plain INSERT.
      return held.otherUnscoped === 0 && (write.row === undefined ? held.otherRows.size === 0 : !held.otherRows.has(write.row));
    }
    if (write.row === undefined) return false;
    return held.plainUnscoped === 0 && held.otherUnscoped === 0 && !held.plainRows.has(write.row) && !held.otherRows.has(write.row);
  }

  add(write: Write): void {
    const { table, plainInsert } = tableOf(write.sql);
    let held = this.byTable.get(table);
    if (!held) this.byTable.set(table, (held = { plainUnscoped: 0, otherUnscoped: 0, plainRows: new Set(), otherRows: new Set() }));
    if (write.row === undefined) {
      if (plainInsert) held.plainUnscoped++;
      else held.otherUnscoped++;
    } else {
      (plainInsert ? held.plainRows : held.otherRows).add(write.row);
    }
  }
}

/**
 * One statement doing every write in order, then `finalSelect` (e.g. a pg_notify) or nothing.
 * Parameters are renumbered; the statements use `$n` for parameters and nothing else with `$`.
 */
export function combineWrites(writes: readonly Write[], finalSelect?: string): Write {
  if (writes.length === 1 && !finalSelect) return writes[0];
  const params: unknown[] = [];
  for (const write of writes) for (const param of write.params) params.push(param);
  // The parameters' count is part of the key: the renumbering depends on it.
  const key = `${writes.map((write) => `${write.params.length}\u0002${write.sql}`).join('\u0000')}\u0001${finalSelect ?? ''}`;
  let sql = combinedTexts.get(key);
  if (sql === undefined) {
    sql = combinedText(writes, finalSelect);
    if (combinedTexts.size < 512) combinedTexts.set(key, sql);
  }
  return { sql, params };
}

/**
 * The texts combined so far, by their writes' texts: the same few shapes come again and again (a
 * submission's three writes, a group of n of them), and renumbering every parameter of every write
 * was the larger part of sending them (bounded for generated texts).
 */
const combinedTexts = new Map<string, string>();

function combinedText(writes: readonly Write[], finalSelect?: string): string {
  let offset = 0;
  const parts = writes.map((write, i) => {
    if (/RETURNING/i.test(write.sql)) throw new Error('a deferred write returns nothing: no RETURNING');
    const at = offset;
    offset += write.params.length;
    return `w${i} AS (${write.sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`)})`;
  });
  const tail = finalSelect ?? 'SELECT 1';
  return parts.length ? `WITH ${parts.join(',\n')}\n${tail}` : tail;
}
