import { CommitGroups, type GroupConnection } from './commit-groups';
import type { Write } from './deferred-writes';

/** A connection that records what it is sent, and fails statements whose text matches `failing`. */
function connection(name: string, sent: Array<{ on: string; sql: string; params: unknown[]; prepare?: boolean }>, failing?: RegExp): GroupConnection {
  return {
    async query(sql, params = [], options) {
      sent.push({ on: name, sql, params, prepare: options?.prepare });
      if (failing?.test(sql)) throw new Error(`failed on ${name}`);
      return { rows: [] };
    },
  };
}

const insert = (table: string, value: string): Write => ({ sql: `INSERT INTO ${table} (v) VALUES ($1)`, params: [value] });
const update = (table: string, row: string): Write => ({ sql: `UPDATE ${table} SET v = $2 WHERE id = $1`, params: [row, 'x'], row });

describe('CommitGroups', () => {
  it('sends the units that commit in the same turn as one statement on the first one\'s connection', async () => {
    const sent: Array<{ on: string; sql: string; params: unknown[]; prepare?: boolean }> = [];
    const groups = new CommitGroups();
    await Promise.all([
      groups.commit([insert('events', 'a1'), insert('outbox', 'a2')], connection('a', sent)),
      groups.commit([insert('events', 'b1'), update('documents', 'd1')], connection('b', sent)),
      groups.commit([insert('events', 'c1'), update('documents', 'd2')], connection('c', sent)),
    ]);
    expect(sent).toHaveLength(1);
    expect(sent[0].on).toBe('a');
    expect(sent[0].params).toEqual(['a1', 'a2', 'b1', 'd1', 'x', 'c1', 'd2', 'x']);
    expect(sent[0].sql).toContain('w3 AS (UPDATE documents SET v = $8 WHERE id = $7)');
    expect(sent[0].sql).toContain('w0 AS (INSERT INTO events (v) VALUES ($1), ($3), ($6))');
    // Units of different shapes: a text seldom seen twice, not kept prepared.
    expect(sent[0].prepare).toBeUndefined();
  });

  it('keeps a group of units of one shape prepared (its text depends only on how many met)', async () => {
    const sent: Array<{ on: string; sql: string; params: unknown[]; prepare?: boolean }> = [];
    const groups = new CommitGroups();
    await Promise.all(['a', 'b', 'c'].map((name) => groups.commit([insert('events', `${name}1`), update('documents', name)], connection(name, sent))));
    expect(sent).toHaveLength(1);
    expect(sent[0].prepare).toBe(true);
    expect(sent[0].params).toEqual(['a1', 'a', 'x', 'b1', 'b', 'x', 'c1', 'c', 'x']);
  });

  it('sends a unit alone, prepared, as without grouping', async () => {
    const sent: Array<{ on: string; sql: string; params: unknown[]; prepare?: boolean }> = [];
    await new CommitGroups().commit([insert('events', 'a1')], connection('a', sent));
    expect(sent).toEqual([{ on: 'a', sql: 'INSERT INTO events (v) VALUES ($1)', params: ['a1'], prepare: true }]);
  });

  it('starts another statement for a unit touching a row another one of the group touches', async () => {
    const sent: Array<{ on: string; sql: string; params: unknown[]; prepare?: boolean }> = [];
    const groups = new CommitGroups();
    await Promise.all([
      groups.commit([update('documents', 'd1')], connection('a', sent)),
      groups.commit([update('documents', 'd1')], connection('b', sent)),
      groups.commit([insert('events', 'c1')], connection('c', sent)),
    ]);
    expect(sent.map((s) => s.on)).toEqual(['a', 'b']);
    expect(sent[1].params).toEqual(['d1', 'x', 'c1']);
  });

  it('keeps a group within its size and parameter bounds', async () => {
    const sent: Array<{ on: string; sql: string; params: unknown[]; prepare?: boolean }> = [];
    const groups = new CommitGroups(2, 3);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => groups.commit([insert('events', name)], connection(name, sent))));
    expect(sent.map((s) => s.params)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    const wide = new CommitGroups(16, 3);
    sent.length = 0;
    await Promise.all([
      wide.commit([insert('events', 'a1'), insert('outbox', 'a2')], connection('a', sent)),
      wide.commit([insert('events', 'b1'), insert('outbox', 'b2')], connection('b', sent)),
    ]);
    expect(sent.map((s) => s.params)).toEqual([['a1', 'a2'], ['b1', 'b2']]);
  });

  it('when the group\'s statement fails, sends each unit alone: each gets its own answer', async () => {
    const sent: Array<{ on: string; sql: string; params: unknown[]; prepare?: boolean }> = [];
    const groups = new CommitGroups();
    // The statement that carries b's write fails, the group's and b's own.
    const results = await Promise.allSettled([
      groups.commit([insert('events', 'a1')], connection('a', sent, /poison/)),
      groups.commit([insert('poison', 'b1')], connection('b', sent, /poison/)),
      groups.commit([insert('events', 'c1')], connection('c', sent, /poison/)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('failed on b'));
    expect(sent.map((s) => s.on)).toEqual(['a', 'a', 'b', 'c']);
  });
});
