import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import type { EncodedEvent } from '../kafka/codec';
import type { EventText } from './event-texts';
import type { EventStore } from './event-store';
import { nextOutboxRows, topicPattern } from './outbox-rows';

describe('#11 the relay\'s read with the texts its process wrote', () => {
  const prefix = `rows${Date.now().toString(36)}`;
  let dataSource: DataSource;
  let store: EventStore;
  const committed: EventText[] = [];

  beforeAll(async () => {
    // The store hands the relay each unit's texts as it commits (EventStore's `wakeRelay`): here, to this list.
    ({ dataSource, store } = await openTestDatabase(prefix, { wakeRelay: { afterCommit: () => true, beforeCommit: (texts) => committed.push(...texts) } }));
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('publishes a known event with its written text, unread, and another with PostgreSQL\'s text of it: the same JSON', async () => {
    const streamId = `document-${randomUUID()}`;
    const data = (n: number) => ({ n, area: 'be', text: `«${n}» "quoted"\n`, nested: { list: [1, 2.5, null, true] } });
    for (const n of [1, 2]) await store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: data(n) }], { tenantId: 't' }));
    expect(committed.map((t) => JSON.parse(t.text))).toEqual([data(1), data(2)]);

    const session = { query: (sql: string, params?: unknown[]) => dataSource.query(sql, params) };
    // The first event's text is known, as the relay holds it; a marker shows which text a row was given.
    const known = new Map([[committed[0].eventId, committed[0].text.replace('"n":1', '"n":1,"fromCache":true')]]);
    const rows = (await nextOutboxRows(session, topicPattern(prefix), 10, 16 * 1024 * 1024, known)).filter((r) => r.aggregate_id === streamId);
    const published = rows.map((r) => JSON.parse((r.payload as EncodedEvent).text));
    expect(published.map((e) => e.eventId)).toEqual(committed.map((t) => t.eventId));
    expect(published[0].data).toEqual({ ...data(1), fromCache: true });
    expect(published[1].data).toEqual(data(2));
    // Everything else of the message comes from the rows either way.
    expect(published.map((e) => [e.streamId, e.streamPosition, e.type])).toEqual([[streamId, 1, 'TestHappened'], [streamId, 2, 'TestHappened']]);
    expect((rows[0].payload as EncodedEvent).data).toEqual({ area: 'be' });
  });
});
