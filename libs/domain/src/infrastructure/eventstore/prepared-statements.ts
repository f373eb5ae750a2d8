/**
 * Names of the statements PostgreSQL keeps prepared on each connection (issue 11). A unit of
 * work's writes travel as one statement of a few data-modifying CTEs (deferred-writes.ts); sent
 * unnamed, the server parses, analyses and plans it on every call: the gateway's submission
 * statement ran at 2,494–2,861 a second unnamed against 3,610–3,788 named (20 connections, 50
 * callers, this machine; the issue note has the command). Named, pg parses it once per
 * connection and then only binds and executes.
 *
 * Only writes are prepared: their result has no columns of a table, so a migration that adds a
 * column (a rolling deploy) never meets a cached plan whose result type changed (PostgreSQL's
 * "cached plan must not change result type"). The same text gets the same name on every
 * connection of the process. What is kept is bounded: at most `maxStatements` texts per process
 * (each connection holds the ones it used) and none longer than `maxTextLength` (a bulk's statement
 * of hundreds of rows, whose text varies with its size, goes unnamed).
 */
const RETURNING = /\bRETURNING\b/i;

export class PreparedStatements {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly maxStatements = 256,
    private readonly maxTextLength = 8 * 1024,
  ) {}

  /** The name to prepare `text` under, or undefined to send it unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= this.maxStatements || text.length > this.maxTextLength || RETURNING.test(text)) return undefined;
    const name = `einvoice_write_${this.names.size + 1}`;
    this.names.set(text, name);
    return name;
  }
}
