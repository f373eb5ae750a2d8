import { PreparedStatements } from './prepared-statements';

describe('PreparedStatements', () => {
  it('names a text once and gives the same name to it again', () => {
    const prepared = new PreparedStatements();
    const insert = 'INSERT INTO events (event_id) VALUES ($1)';
    const name = prepared.nameOf(insert);
    expect(name).toMatch(/^einvoice_[A-Za-z0-9_-]{32}$/);
    // Derived from the text: another registry (another store on the same pool) names it alike.
    expect(new PreparedStatements().nameOf(insert)).toBe(name);
    expect(prepared.nameOf(insert)).toBe(name);
    expect(prepared.nameOf('INSERT INTO outbox (event_id) VALUES ($1)')).not.toBe(name);
  });

  it('keeps at most its bound of texts; the others go unnamed', () => {
    const prepared = new PreparedStatements(2);
    const unbounded = new PreparedStatements();
    const [a, b, c] = ['INSERT INTO a VALUES ($1)', 'INSERT INTO b VALUES ($1)', 'INSERT INTO c VALUES ($1)'];
    expect(prepared.nameOf(a)).toBe(unbounded.nameOf(a));
    expect(prepared.nameOf(b)).toBe(unbounded.nameOf(b));
    expect(unbounded.nameOf(a)).not.toBe(unbounded.nameOf(b));
    expect(prepared.nameOf(c)).toBeUndefined();
    // A text already named keeps its name past the bound.
    expect(prepared.nameOf(a)).toBe(unbounded.nameOf(a));
  });

  it('prepares no text longer than its bound', () => {
    expect(new PreparedStatements(256, 40).nameOf(`INSERT INTO events (event_id, data) VALUES ($1, $2)`)).toBeUndefined();
  });

  it('prepares no statement whose row type a migration could change (RETURNING, SELECT *), and reads that name their columns', () => {
    const prepared = new PreparedStatements();
    expect(prepared.nameOf('UPDATE documents SET state = $1 WHERE id = $2 RETURNING id')).toBeUndefined();
    expect(prepared.nameOf('SELECT * FROM events WHERE stream_id = $1')).toBeUndefined();
    expect(prepared.nameOf('SELECT e.* FROM events e WHERE e.stream_id = $1')).toBeUndefined();
    expect(prepared.nameOf('SELECT DISTINCT * FROM events')).toBeUndefined();
    expect(prepared.nameOf('SELECT count(*)::int AS n FROM events WHERE stream_id = $1')).toMatch(/^einvoice_[A-Za-z0-9_-]{32}$/);
    expect(prepared.nameOf('SELECT event_id, data FROM events WHERE stream_id = $1')).toMatch(/^einvoice_[A-Za-z0-9_-]{32}$/);
  });
});
