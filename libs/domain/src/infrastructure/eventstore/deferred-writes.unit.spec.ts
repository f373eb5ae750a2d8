import { type Write, combineWrites, needsFlushBefore, rowInsertOf, tableOf } from './deferred-writes';

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

  it('makes the writes of one single-row INSERT text one INSERT of their rows, in order, where the first stood', () => {
    const submission = (id: string): Write[] => [
      { sql: 'INSERT INTO events (id, data) VALUES ($1, $2::jsonb)', params: [id, '{}'] },
      { sql: "INSERT INTO documents (id, state, a, b) VALUES ($1, 'x(y)', $2, $2) ON CONFLICT (id) DO UPDATE SET state = 'z' WHERE documents.a IS NULL", params: [id, 1] },
      { sql: 'UPDATE suppliers SET n = n + 1 WHERE id = $1', params: [id] },
    ];
    const combined = combineWrites([...submission('a'), ...submission('b')]);
    expect(combined.sql).toBe(
      [
        'WITH w0 AS (INSERT INTO events (id, data) VALUES ($1, $2::jsonb), ($6, $7::jsonb)),',
        "w1 AS (INSERT INTO documents (id, state, a, b) VALUES ($3, 'x(y)', $4, $4), ($8, 'x(y)', $9, $9) ON CONFLICT (id) DO UPDATE SET state = 'z' WHERE documents.a IS NULL),",
        'w2 AS (UPDATE suppliers SET n = n + 1 WHERE id = $5),',
        'w3 AS (UPDATE suppliers SET n = n + 1 WHERE id = $10)',
        'SELECT 1',
      ].join('\n'),
    );
    expect(combined.params).toEqual(['a', '{}', 'a', 1, 'a', 'b', '{}', 'b', 1, 'b']);
  });

  it('leaves alone an INSERT whose rows could not be joined', () => {
    for (const sql of [
      'INSERT INTO t (a) VALUES ($1) ON CONFLICT (a) DO UPDATE SET b = $1',
      'INSERT INTO t (a) VALUES ($1), ($1)',
      'INSERT INTO t (a) SELECT $1',
      'INSERT INTO t VALUES ($1)',
    ]) {
      expect(rowInsertOf(sql)).toBeUndefined();
      expect(combineWrites([{ sql, params: [1] }, { sql, params: [2] }]).sql).toBe(`WITH w0 AS (${sql}),\nw1 AS (${sql.replace(/\$1/g, '$2')})\nSELECT 1`);
    }
    expect(rowInsertOf("INSERT INTO t (a, b) VALUES ($1, 'it''s (')")).toEqual({ head: 'INSERT INTO t (a, b) VALUES ', row: "($1, 'it''s (')", tail: '' });
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
