import { type Write, combineWrites, needsFlushBefore, tableOf } from './deferred-writes';

describe('deferred writes', () => {
  it('renumbers the parameters of each write into one statement, in order', () => {
    const combined = combineWrites(
      [
        { sql: 'INSERT INTO events (a, b) VALUES ($1, $2)', params: ['a', 'b'] },
        { sql: 'INSERT INTO outbox (c) VALUES ($1)', params: ['c'] },
        { sql: 'UPDATE documents SET x = $2 WHERE id = $1 AND v < $2', params: ['id', 3] },
      ],
      `SELECT pg_notify('outbox', '')`,
    );
    expect(combined.sql).toBe(
      "WITH w0 AS (INSERT INTO events (a, b) VALUES ($1, $2)),\nw1 AS (INSERT INTO outbox (c) VALUES ($3)),\nw2 AS (UPDATE documents SET x = $5 WHERE id = $4 AND v < $5)\nSELECT pg_notify('outbox', '')",
    );
    expect(combined.params).toEqual(['a', 'b', 'c', 'id', 3]);
  });

  it('gives writes of the same texts the same combined text (kept), each with its own parameters', () => {
    const shape = (a: unknown, b: unknown): Write[] => [
      { sql: 'INSERT INTO t (a, b) VALUES ($1, $2)', params: [a, b] },
      { sql: 'INSERT INTO u (c) VALUES ($1)', params: [b] },
    ];
    const first = combineWrites(shape(1, 2));
    const second = combineWrites(shape(3, 4));
    expect(second.sql).toBe(first.sql);
    expect(first.params).toEqual([1, 2, 2]);
    expect(second.params).toEqual([3, 4, 4]);
    expect(combineWrites(shape(1, 2), 'SELECT 2').sql).toMatch(/\nSELECT 2$/);
  });

  it('sends a single write as it is', () => {
    const write = { sql: 'INSERT INTO events (a) VALUES ($1)', params: [1] };
    expect(combineWrites([write])).toBe(write);
  });

  it('refuses a write that would return rows nobody reads', () => {
    expect(() => combineWrites([{ sql: 'INSERT INTO t (a) VALUES ($1) RETURNING a', params: [1] }, { sql: 'INSERT INTO u (a) VALUES ($1)', params: [1] }])).toThrow(/RETURNING/);
  });

  it('knows the table and kind of a write', () => {
    expect(tableOf('INSERT INTO documents (id) VALUES ($1)')).toEqual({ table: 'documents', plainInsert: true });
    expect(tableOf('INSERT INTO documents (id) VALUES ($1) ON CONFLICT (id) DO NOTHING')).toEqual({ table: 'documents', plainInsert: false });
    expect(tableOf('  UPDATE documents SET a = 1')).toEqual({ table: 'documents', plainInsert: false });
    expect(tableOf('DELETE FROM outbox WHERE id = $1')).toEqual({ table: 'outbox', plainInsert: false });
    expect(() => tableOf('SELECT 1')).toThrow(/INSERT, UPDATE or DELETE/);
  });

  // Sub-statements of one statement share a snapshot: an UPDATE would not see a pending INSERT of
  // its row, and two changes of one row in one statement are undefined. Those go one after the other.
  it('keeps plain inserts together and puts other writes after the pending writes of their table', () => {
    const insertDocument = { sql: 'INSERT INTO documents (id) VALUES ($1)', params: [1] };
    expect(needsFlushBefore([insertDocument], { sql: 'INSERT INTO documents (id) VALUES ($1)', params: [2] })).toBe(false);
    expect(needsFlushBefore([insertDocument], { sql: 'INSERT INTO events (id) VALUES ($1)', params: [2] })).toBe(false);
    expect(needsFlushBefore([insertDocument], { sql: 'UPDATE documents SET a = 1 WHERE id = $1', params: [1] })).toBe(true);
    expect(needsFlushBefore([insertDocument], { sql: 'INSERT INTO documents (id) VALUES ($1) ON CONFLICT DO NOTHING', params: [1] })).toBe(true);
    expect(needsFlushBefore([{ sql: 'UPDATE documents SET a = 1', params: [] }], insertDocument)).toBe(true);
    expect(needsFlushBefore([{ sql: 'UPDATE documents SET a = 1', params: [] }], { sql: 'INSERT INTO events (id) VALUES ($1)', params: [1] })).toBe(false);
  });

  it('lets writes that each name their one row share a statement when the rows differ', () => {
    const update = (id: string) => ({ sql: 'UPDATE documents SET a = 1 WHERE id = $1', params: [id], row: `documents/${id}` });
    expect(needsFlushBefore([update('a')], update('b'))).toBe(false);
    expect(needsFlushBefore([update('a'), update('b')], update('a'))).toBe(true);
    // A write that names no row may touch any: the others wait for it, and it for them.
    expect(needsFlushBefore([{ sql: 'INSERT INTO documents (id) VALUES ($1)', params: ['c'] }], update('c'))).toBe(true);
    expect(needsFlushBefore([update('a')], { sql: 'UPDATE documents SET a = 2', params: [] })).toBe(true);
  });

  it('tells in one pass what the pairwise rule says: a write conflicts with a held one of its table unless both are plain INSERTs, or both name different rows', () => {
    const pairwise = (held: Write, next: Write) => {
      const a = tableOf(held.sql);
      const b = tableOf(next.sql);
      if (a.table !== b.table || (a.plainInsert && b.plainInsert)) return false;
      return held.row === undefined || next.row === undefined || held.row === next.row;
    };
    const texts = ['INSERT INTO documents (id) VALUES ($1)', 'INSERT INTO documents (id) VALUES ($1) ON CONFLICT DO NOTHING', 'UPDATE documents SET a = 1 WHERE id = $1', 'INSERT INTO events (id) VALUES ($1)', 'DELETE FROM events WHERE id = $1'];
    const rows = [undefined, 'a', 'b'];
    let seed = 7;
    const pick = <T>(list: readonly T[]): T => list[(seed = (seed * 48271) % 2147483647) % list.length];
    const write = (): Write => ({ sql: pick(texts), params: [], row: pick(rows) });
    for (let i = 0; i < 2_000; i++) {
      const held = Array.from({ length: i % 5 }, write);
      const next = write();
      expect(needsFlushBefore(held, next)).toBe(held.some((h) => pairwise(h, next)));
    }
  });
});
