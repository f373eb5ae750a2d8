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
 * One statement doing every write, then `finalSelect` (e.g. a pg_notify) or nothing: the writes of
 * one single-row INSERT text as one INSERT of their rows (rowInsertOf), the others one sub-statement
 * each. Parameters are renumbered; the statements use `$n` for parameters and nothing else with `$`.
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
  // Each write's statement, or, for the writes of one single-row INSERT text, one INSERT of all their
  // rows (in the writes' order), where the first of them stood.
  const statements: Array<{ text: string } | { head: string; tail: string; rows: string[] }> = [];
  const insertsByText = new Map<string, { head: string; tail: string; rows: string[] }>();
  let offset = 0;
  for (const write of writes) {
    if (/RETURNING/i.test(write.sql)) throw new Error('a deferred write returns nothing: no RETURNING');
    const at = offset;
    offset += write.params.length;
    const renumbered = (text: string) => text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + at}`);
    const insert = rowInsertOf(write.sql);
    if (!insert) {
      statements.push({ text: renumbered(write.sql) });
      continue;
    }
    let merged = insertsByText.get(write.sql);
    if (!merged) {
      merged = { head: insert.head, tail: insert.tail, rows: [] };
      insertsByText.set(write.sql, merged);
      statements.push(merged);
    }
    merged.rows.push(renumbered(insert.row));
  }
  const parts = statements.map((statement, i) => `w${i} AS (${'text' in statement ? statement.text : `${statement.head}${statement.rows.join(', ')}${statement.tail}`})`);
  const tail = finalSelect ?? 'SELECT 1';
  return parts.length ? `WITH ${parts.join(',\n')}\n${tail}` : tail;
}

/** Single-row INSERT texts seen so far, split (bounded for generated texts); null: not one. */
const rowInserts = new Map<string, RowInsert | null>();

interface RowInsert {
  /** `INSERT INTO t (columns) VALUES ` */
  readonly head: string;
  /** The one row, `(...)`, with its parameters. */
  readonly row: string;
  /** What follows the row (an ON CONFLICT clause without parameters), or nothing. */
  readonly tail: string;
}

/**
 * `INSERT INTO t (columns) VALUES (row)`, optionally followed by an ON CONFLICT clause with no
 * parameter of its own, split so that the rows of several such writes make one multi-row INSERT
 * (issue 11: a group of 16 submissions was 48 CTEs, one per write, and PostgreSQL planned each:
 * `pg_stat_statements` gave planning 30% of the time of the grouped statements). The sub-statements
 * of one statement see the same snapshot and none of each other's rows, and so do the rows of one
 * INSERT: one INSERT of n rows writes what n of them did. Its rows are inserted in their order, so
 * serial ids (the outbox's, which the relay publishes in) follow the writes' order.
 */
export function rowInsertOf(sql: string): RowInsert | undefined {
  let found = rowInserts.get(sql);
  if (found === undefined) {
    found = parseRowInsert(sql) ?? null;
    if (rowInserts.size < 1024) rowInserts.set(sql, found);
  }
  return found ?? undefined;
}

const INSERT_HEAD = /^\s*INSERT\s+INTO\s+[a-z_][a-z0-9_.]*\s*\([^()]*\)\s*VALUES\s*(?=\()/i;

function parseRowInsert(sql: string): RowInsert | undefined {
  const head = INSERT_HEAD.exec(sql)?.[0];
  if (head === undefined) return undefined;
  const end = closingParenthesis(sql, head.length);
  if (end === undefined) return undefined;
  const tail = sql.slice(end + 1);
  // Nothing but an ON CONFLICT clause may follow, without parameters (they would be one row's).
  if (!/^\s*(?:ON\s+CONFLICT\b[^$]*)?$/i.test(tail)) return undefined;
  return { head, row: sql.slice(head.length, end + 1), tail };
}

/** Index of the `)` closing the `(` at `start`, skipping quoted literals and identifiers; undefined if none. */
function closingParenthesis(sql: string, start: number): number | undefined {
  let depth = 0;
  for (let i = start; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      const close = sql.indexOf(c, i + 1);
      if (close < 0) return undefined;
      // A doubled quote inside a literal is the quote itself: the scan goes on after it either way.
      i = close;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth === 0) {
      return i;
    }
  }
  return undefined;
}
