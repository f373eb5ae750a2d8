import { PreparedStatements } from './prepared-statements';

describe('PreparedStatements', () => {
  it('names a text once and gives the same name to it again', () => {
    const prepared = new PreparedStatements();
    const insert = 'INSERT INTO events (event_id) VALUES ($1)';
    const name = prepared.nameOf(insert);
    expect(name).toMatch(/^einvoice_write_\d+$/);
    expect(prepared.nameOf(insert)).toBe(name);
    expect(prepared.nameOf('INSERT INTO outbox (event_id) VALUES ($1)')).not.toBe(name);
  });

  it('keeps at most its bound of texts; the others go unnamed', () => {
    const prepared = new PreparedStatements(2);
    expect(prepared.nameOf('INSERT INTO a VALUES ($1)')).toBeDefined();
    expect(prepared.nameOf('INSERT INTO b VALUES ($1)')).toBeDefined();
    expect(prepared.nameOf('INSERT INTO c VALUES ($1)')).toBeUndefined();
    expect(prepared.nameOf('INSERT INTO a VALUES ($1)')).toBeDefined();
  });

  it('prepares neither a text longer than its bound nor one that returns rows', () => {
    const prepared = new PreparedStatements(256, 40);
    expect(prepared.nameOf(`INSERT INTO events (event_id, data) VALUES ($1, $2)`)).toBeUndefined();
    expect(new PreparedStatements().nameOf('UPDATE documents SET state = $1 WHERE id = $2 RETURNING *')).toBeUndefined();
  });
});
