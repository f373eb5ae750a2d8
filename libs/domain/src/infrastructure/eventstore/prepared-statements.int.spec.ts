import { openTestDatabase } from '../../../../../test/support/database';
import { documentSubmitted } from '../../../../../test/support/fixtures';
import { documentDecider, documentStreamId } from '../../document';
import type { EventStore } from './event-store';
import { handleCommand } from './handle-command';

/** One connection, so that what it keeps prepared can be read on it. */
const storeOnOneConnection = (prepareWrites: boolean) => openTestDatabase('test', { poolSize: 1, prepareWrites });

async function submit(store: EventStore): Promise<string> {
  const data = documentSubmitted();
  await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }, { newStream: true }));
  return data.documentId;
}

const preparedOnTheConnection = (store: EventStore) =>
  store.transaction((uow) => uow.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'einvoice_write_%'`));

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

  it('prepares nothing when told not to (a pooler that cannot carry named statements)', async () => {
    const { dataSource, store } = await storeOnOneConnection(false);
    try {
      await submit(store);
      await submit(store);
      expect(await preparedOnTheConnection(store)).toHaveLength(0);
    } finally {
      await dataSource.destroy();
    }
  });
});
