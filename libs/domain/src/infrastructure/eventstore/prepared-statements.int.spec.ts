import { openTestDatabase } from '../../../../../test/support/database';
import { documentSubmitted } from '../../../../../test/support/fixtures';
import { documentDecider, documentStreamId } from '../../document';
import { randomUUID } from 'node:crypto';
import { EventStore } from './event-store';
import { handleCommand } from './handle-command';

/** One connection, so that what it keeps prepared can be read on it. */
const storeOnOneConnection = (prepareStatements: boolean) => openTestDatabase('test', { poolSize: 1, prepareStatements });

async function submit(store: EventStore): Promise<string> {
  const data = documentSubmitted();
  await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }, { newStream: true }));
  return data.documentId;
}

/** The submission statements the connection keeps prepared. */
const preparedOnTheConnection = async (store: EventStore) =>
  (await store.transaction((uow) => uow.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'einvoice_%'`)))
    .filter((row) => row.statement.includes('INSERT INTO events'));

describe('EventStore: a unit of work\'s writes prepared on its connection', () => {
  it('prepares the submission\'s statement once and runs it again under its name', async () => {
    const { dataSource, store } = await storeOnOneConnection(true);
    try {
      const first = await submit(store);
      const second = await submit(store);
      expect(await preparedOnTheConnection(store)).toHaveLength(1);
      const rows = await dataSource.query(`SELECT count(*)::int AS n FROM documents WHERE id = ANY($1::uuid[])`, [[first, second]]);
      expect(rows[0].n).toBe(2);
      const events = await dataSource.query(`SELECT count(*)::int AS n FROM events WHERE stream_id = ANY($1::text[])`, [[documentStreamId(first), documentStreamId(second)]]);
      expect(events[0].n).toBe(2);
    } finally {
      await dataSource.destroy();
    }
  });

  it('gives two stores on one pool names that never clash (a text its own name, whichever store prepared it)', async () => {
    const { dataSource, store } = await storeOnOneConnection(true);
    try {
      // Another store on the same pool (the gateway's carry-over does this): other statements, the same connection.
      const other = new EventStore(dataSource, { topicFor: () => 'test.documents', projector: async () => undefined });
      await other.transaction((uow) => uow.append(`document-${randomUUID()}`, 'no_stream', [{ type: 'TestHappened', data: {} }], { tenantId: 't' }));
      await submit(store);
      await other.transaction((uow) => uow.append(`document-${randomUUID()}`, 'no_stream', [{ type: 'TestHappened', data: {} }], { tenantId: 't' }));
      expect(await preparedOnTheConnection(store)).toHaveLength(2);
    } finally {
      await dataSource.destroy();
    }
  });

  it('keeps a read that names its columns prepared, and not one that selects * or is told not to be', async () => {
    const { dataSource, store } = await storeOnOneConnection(true);
    try {
      const documentId = await submit(store);
      const named = `SELECT id, state FROM documents WHERE id = $1`;
      const star = `SELECT * FROM documents WHERE id = $1`;
      const planned = `SELECT id, version FROM documents WHERE id = $1`;
      expect(await store.read(named, [documentId])).toEqual([{ id: documentId, state: 'scheduled' }]);
      expect(await store.read(star, [documentId])).toHaveLength(1);
      expect(await store.read(planned, [documentId], { prepare: false })).toHaveLength(1);
      const kept = await store.read<{ statement: string }>(`SELECT statement FROM pg_prepared_statements`);
      expect(kept.map((row) => row.statement)).toEqual(expect.arrayContaining([named]));
      expect(kept.map((row) => row.statement)).not.toContain(star);
      // Told not to (a plan that must follow the table's size): planned on each call, never kept.
      expect(kept.map((row) => row.statement)).not.toContain(planned);
    } finally {
      await dataSource.destroy();
    }
  });

  it('follows DATABASE_PREPARED_STATEMENTS when not told (every store of the process, the CLI\'s included)', async () => {
    process.env.DATABASE_PREPARED_STATEMENTS = 'off';
    const { dataSource, store } = await openTestDatabase('test', { poolSize: 1 }).finally(() => delete process.env.DATABASE_PREPARED_STATEMENTS);
    try {
      await submit(store);
      expect(await preparedOnTheConnection(store)).toHaveLength(0);
    } finally {
      await dataSource.destroy();
    }
  });

  it('prepares nothing when told not to (a pooler that cannot carry named statements)', async () => {
    const { dataSource, store } = await storeOnOneConnection(false);
    try {
      await submit(store);
      await submit(store);
      expect(await preparedOnTheConnection(store)).toHaveLength(0);
      expect(await store.read(`SELECT count(*)::int AS n FROM pg_prepared_statements`)).toEqual([{ n: 0 }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
