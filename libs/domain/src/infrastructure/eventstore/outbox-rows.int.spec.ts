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
  /** The relay the next unit's texts are handed to (EventStore's `wakeRelay.texts`). */
  let handedTo: string | undefined;

  beforeAll(async () => {
    // The store hands the relay each unit's texts as it commits (EventStore's `wakeRelay`): here, to this list.
    ({ dataSource, store } = await openTestDatabase(prefix, { wakeRelay: { afterCommit: () => true, texts: { keepTexts: (texts) => committed.push(...texts), textsHandedTo: () => handedTo } } }));
  }, 60_000);

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('publishes an event handed to this relay with the text it holds, unread; one whose text it lost, or handed to none or another, with PostgreSQL\'s: the same JSON', async () => {
    const streamId = `document-${randomUUID()}`;
    const data = (n: number) => ({ n, area: 'be', text: `«${n}» "quoted"\n`, nested: { list: [1, 2.5, null, true] } });
    for (const [n, relay] of [[1, 'this'], [2, 'this'], [3, undefined], [4, 'another']] as const) {
      handedTo = relay;
      await store.transaction((uow) => uow.append(streamId, 'any', [{ type: 'TestHappened', data: data(n) }], { tenantId: 't' }));
    }
    expect(committed.map((t) => JSON.parse(t.text))).toEqual([data(1), data(2), data(3), data(4)]);
    const handedToColumn = await dataSource.query(`SELECT handed_to FROM outbox WHERE aggregate_id = $1 ORDER BY id`, [streamId]);
    expect(handedToColumn.map((r: { handed_to: string | null }) => r.handed_to)).toEqual(['this', 'this', null, 'another']);

    const statements: string[] = [];
    const session = { query: (sql: string, params?: unknown[]) => (statements.push(sql), dataSource.query(sql, params)) };
    // The relay holds the first event's text (a marker shows which text a row was given), and lost the second's.
    const held = new Map([[committed[0].eventId, committed[0].text.replace('"n":1', '"n":1,"fromCache":true')]]);
    const rows = (await nextOutboxRows(session, topicPattern(prefix), 10, 16 * 1024 * 1024, { holder: 'this', get: (eventId) => held.get(eventId) }))
      .filter((r) => r.aggregate_id === streamId);
    const published = rows.map((r) => JSON.parse((r.payload as EncodedEvent).text));
    expect(published.map((e) => e.eventId)).toEqual(committed.map((t) => t.eventId));
    expect(published.map((e) => e.data)).toEqual([{ ...data(1), fromCache: true }, data(2), data(3), data(4)]);
    // The lost text, and only it, by a second read of the events.
    expect(statements).toHaveLength(2);
    // Everything else of the message comes from the rows either way.
    expect(published.map((e) => [e.streamId, e.streamPosition, e.type])).toEqual([1, 2, 3, 4].map((n) => [streamId, n, 'TestHappened']));
    expect((rows[0].payload as EncodedEvent).data).toEqual({ area: 'be' });

    // Nothing held, nothing handed: one read, each text from PostgreSQL.
    statements.length = 0;
    const plain = (await nextOutboxRows(session, topicPattern(prefix), 10, 16 * 1024 * 1024)).filter((r) => r.aggregate_id === streamId);
    expect(plain.map((r) => JSON.parse((r.payload as EncodedEvent).text).data)).toEqual([data(1), data(2), data(3), data(4)]);
    expect(statements).toHaveLength(1);
  });
});
