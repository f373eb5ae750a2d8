import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import { documentSubmitted } from '../../../../../test/support/fixtures';
import { AppError, WrongExpectedVersionError } from '../../errors';
import { documentDecider, documentStreamId } from '../../document';
import type { DocumentSubmittedData } from '../../document';
import type { RecordedEvent } from '../../events';
import { EventStore, isAlreadyProcessed, poolOf } from './event-store';
import { handleCommand } from './handle-command';
import { nextOutboxRows } from './outbox-rows';
import { decodeEvent, encodeEvent } from '../kafka/codec';

const submitted = documentSubmitted;

describe('EventStore on PostgreSQL', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => {
    await dataSource.destroy();
  });

  const count = async (sql: string, params: unknown[]) => Number((await dataSource.query(sql, params))[0].n);

  it('appends events, their outbox rows and read models in one transaction', async () => {
    const data = submitted();
    const streamId = documentStreamId(data.documentId);
    const [event] = await store.transaction((uow) =>
      handleCommand(uow, documentDecider, streamId, { type: 'SubmitDocument', data }, { tenantId: data.tenantId }),
    );
    expect(event).toMatchObject({ streamId, streamPosition: 1, type: 'DocumentSubmitted' });
    expect(await count(`SELECT count(*) AS n FROM outbox WHERE event_id = $1`, [event.eventId])).toBe(1);
    const [row] = await dataSource.query(`SELECT delivery_status FROM documents WHERE id = $1`, [data.documentId]);
    expect(row.delivery_status).toBe('Scheduled');
  });

  it('lets exactly one of many concurrent appends at the same expected version win; the rest are conflicts, not crashes', async () => {
    const streamId = `document-${randomUUID()}`;
    const attempts = 20;
    const results = await Promise.allSettled(
      Array.from({ length: attempts }, (_, i) =>
        store.transaction((uow) =>
          uow.append(streamId, 'no_stream', [{ type: 'TestHappened', data: { i } }], { tenantId: 't' }),
        ),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(attempts - 1);
    for (const failure of lost) {
      expect(failure.reason).toBeInstanceOf(WrongExpectedVersionError);
      expect((failure.reason as AppError).retriable).toBe(true);
    }
    expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [streamId])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM outbox WHERE aggregate_id = $1`, [streamId])).toBe(1);
  });

  it('rejects an append at a stale expected version', async () => {
    const streamId = `document-${randomUUID()}`;
    await store.transaction((uow) => uow.append(streamId, 'no_stream', [{ type: 'A', data: {} }], { tenantId: 't' }));
    await expect(
      store.transaction((uow) => uow.append(streamId, 0, [{ type: 'B', data: {} }], { tenantId: 't' })),
    ).rejects.toMatchObject({ code: 'STREAM.WRONG_EXPECTED_VERSION', details: { expected: 0 } });
    await expect(
      store.transaction((uow) => uow.append(streamId, 3, [{ type: 'B', data: {} }], { tenantId: 't' })),
    ).rejects.toMatchObject({ code: 'STREAM.WRONG_EXPECTED_VERSION', details: { expected: 3, actual: 1 } });
  });

  it('#11 reads several streams in one query, each in order, by probes of the primary key (never a scan of every event)', async () => {
    const [first, second, empty] = [randomUUID(), randomUUID(), randomUUID()].map((id) => `document-${id}`);
    await store.transaction((uow) => uow.append(first, 'no_stream', [{ type: 'A', data: { n: 1 } }, { type: 'B', data: { n: 2 } }], { tenantId: 't' }));
    await store.transaction((uow) => uow.append(second, 'no_stream', [{ type: 'TestHappened', data: { n: 3 } }], { tenantId: 't' }));
    await store.transaction((uow) => uow.append(first, 2, [{ type: 'TestHappened', data: { n: 4 } }], { tenantId: 't' }));

    const spy = jest.spyOn(dataSource, 'query');
    const streams = await store.readStreams([second, first, empty, first]);
    const [sql, params] = spy.mock.calls[0] as [string, unknown[]];
    spy.mockRestore();
    expect([...streams.keys()].sort()).toEqual([first, second].sort());
    expect(streams.get(first)!.map((e) => [e.streamPosition, e.type])).toEqual([[1, 'A'], [2, 'B'], [3, 'TestHappened']]);
    expect(streams.get(second)!.map((e) => e.data)).toEqual([{ n: 3 }]);

    // Planned as PostgreSQL plans it wherever events was never analyzed (autovacuum off): generic, no statistics.
    const plan = JSON.stringify(await dataSource.query(`EXPLAIN (FORMAT JSON) ${sql}`, params));
    expect(plan).toContain('events_stream_position_pkey');
    expect(plan).not.toMatch(/"Node Type":"Seq Scan"[^}]*"Relation Name":"events"/);
  });

  it('#2 a duplicate document ID of a supplier is a DOCUMENT.DUPLICATE_ID conflict and leaves no event or outbox row behind', async () => {
    const first = submitted();
    const second = submitted({ supplierId: first.supplierId, documentNumber: first.documentNumber, tenantId: first.tenantId });
    const submit = (data: DocumentSubmittedData) =>
      store.transaction((uow) =>
        handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }),
      );
    await submit(first);
    await expect(submit(second)).rejects.toMatchObject({ kind: 'conflict', code: 'DOCUMENT.DUPLICATE_ID' });
    const streamId = documentStreamId(second.documentId);
    expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [streamId])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM outbox WHERE aggregate_id = $1`, [streamId])).toBe(0);
  });

  it('records a processed event once per consumer group, so a redelivered event has no second effect', async () => {
    const eventId = randomUUID();
    const group = `group-${randomUUID()}`;
    const first = await store.transaction((uow) => uow.markProcessed(group, eventId));
    const again = await store.transaction((uow) => uow.markProcessed(group, eventId));
    const otherGroup = await store.transaction((uow) => uow.markProcessed(`${group}-other`, eventId));
    expect([first, again, otherGroup]).toEqual([true, false, true]);
  });

  it('rolls back the processed mark with the effect when the effect fails', async () => {
    const eventId = randomUUID();
    const group = `group-${randomUUID()}`;
    await expect(
      store.transaction(async (uow) => {
        await uow.markProcessed(group, eventId);
        throw new Error('effect failed');
      }),
    ).rejects.toThrow('effect failed');
    expect(await store.transaction((uow) => uow.markProcessed(group, eventId))).toBe(true);
  });

  /** The statements the store sends while `work` runs (the pool's clients, wrapped while lent). */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const pool = poolOf(dataSource);
    const connect = pool.connect.bind(pool) as (callback?: unknown) => Promise<import('pg').PoolClient>;
    const sent: string[] = [];
    const spy = jest.spyOn(pool, 'connect').mockImplementation((async (callback?: unknown) => {
      // pool.query (e.g. the relay notifier's) connects with a callback: not the store's, left alone.
      if (callback) return connect(callback);
      const client = await connect();
      const { query, release } = client;
      // A prepared write comes as a query config ({ name, text, values }): its text is what was sent.
      client.query = ((sql: string | { text: string }, params?: unknown[]) => (sent.push(typeof sql === 'string' ? sql : sql.text), Reflect.apply(query, client, [sql, params]))) as typeof client.query;
      client.release = ((error?: Error) => ((client.query = query), (client.release = release), release.call(client, error))) as typeof client.release;
      return client;
    }) as never);
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return sent;
  }

  it('#11 a command on a new stream, its outbox row and its projection go as ONE statement in autocommit (no BEGIN, no COMMIT)', async () => {
    const data = submitted();
    const streamId = documentStreamId(data.documentId);
    const sent = await statementsOf(() =>
      store.transaction((uow) => handleCommand(uow, documentDecider, streamId, { type: 'SubmitDocument', data }, { tenantId: data.tenantId }, { newStream: true })),
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^WITH w0 AS \(INSERT INTO events .*\),\nw1 AS \(INSERT INTO outbox .*\),\nw2 AS \(INSERT INTO documents/s);
    expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [streamId])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM documents WHERE id = $1`, [data.documentId])).toBe(1);
  });

  it('#11 a command on an existing stream: the stream read, then one statement; a writer that came in between makes it a conflict', async () => {
    const data = submitted();
    const streamId = documentStreamId(data.documentId);
    await store.transaction((uow) => handleCommand(uow, documentDecider, streamId, { type: 'SubmitDocument', data }, { tenantId: data.tenantId }));
    const deliver = { type: 'RecordDelivery' as const, data: { documentId: data.documentId, receiverParticipantId: 'x', channel: 'remote' as const, messageId: 'm', mls: { responseCode: 'AP' as const, receivedAt: new Date().toISOString() }, deliveredAt: new Date().toISOString() } };
    const sent = await statementsOf(() => store.transaction((uow) => handleCommand(uow, documentDecider, streamId, deliver, { tenantId: data.tenantId })));
    expect(sent.map((sql) => sql.split(' ').slice(0, 4).join(' '))).toEqual(['SELECT event_id, stream_id, stream_position,', 'WITH w0 AS (INSERT']);
    // Read, then someone else appends, then our write: refused, nothing of it stored.
    await expect(
      store.transaction(async (uow) => {
        const history = await uow.readStream(streamId);
        await store.transaction((other) => other.append(streamId, history.length, [{ type: 'A', data: {} }], { tenantId: 't' }));
        await uow.append(streamId, history.length, [{ type: 'B', data: {} }], { tenantId: 't' });
      }),
    ).rejects.toBeInstanceOf(WrongExpectedVersionError);
    expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1 AND type = 'B'`, [streamId])).toBe(0);
  });

  it('#11 a query inside the unit of work sees the writes held back before it (they are sent first, in the transaction)', async () => {
    const group = `group-${randomUUID()}`;
    const eventId = randomUUID();
    let seen = 0;
    const sent = await statementsOf(() =>
      store.transaction(async (uow) => {
        await uow.recordProcessed(group, eventId);
        seen = (await uow.query<{ n: number }>(`SELECT count(*)::int AS n FROM processed_events WHERE consumer_group = $1`, [group]))[0].n;
      }),
    );
    expect(seen).toBe(1);
    expect(sent.map((sql) => sql.split(' ')[0])).toEqual(['BEGIN', 'INSERT', 'SELECT', 'COMMIT']);
  });

  it('#11 a processed mark already there fails the whole unit of work (isAlreadyProcessed), effects included', async () => {
    const group = `group-${randomUUID()}`;
    const eventId = randomUUID();
    await store.transaction((uow) => uow.recordProcessed(group, eventId));
    const streamId = `document-${randomUUID()}`;
    const again = store.transaction(async (uow) => {
      await uow.append(streamId, 'no_stream', [{ type: 'A', data: {} }], { tenantId: 't' });
      await uow.recordProcessed(group, eventId);
    });
    const error = await again.catch((e: unknown) => e);
    expect(isAlreadyProcessed(error)).toBe(true);
    expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [streamId])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM outbox WHERE aggregate_id = $1`, [streamId])).toBe(0);
  });

  it('#11 units of writes that commit at the same moment share one statement (group commit); one that fails gets its own error, the others are written', async () => {
    const group = `group-${randomUUID()}`;
    const taken = randomUUID();
    await store.transaction((uow) => uow.recordProcessed(group, taken));
    const streams = Array.from({ length: 5 }, () => `document-${randomUUID()}`);
    let results: PromiseSettledResult<unknown>[] = [];
    const sent = await statementsOf(async () => {
      results = await Promise.allSettled([
        ...streams.map((streamId) => store.transaction((uow) => uow.append(streamId, 'no_stream', [{ type: 'A', data: {} }], { tenantId: 't' }))),
        // Already there: fails, in the group's statement and then alone.
        store.transaction((uow) => uow.recordProcessed(group, taken)),
      ]);
    });
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(isAlreadyProcessed((results[5] as PromiseRejectedResult).reason)).toBe(true);
    // The group's statement (every unit's writes), then each unit alone after it failed.
    const grouped = sent.filter((sql) => (sql.match(/ AS \(INSERT INTO /g) ?? []).length > 2);
    expect(grouped.length).toBeGreaterThanOrEqual(1);
    for (const streamId of streams) expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [streamId])).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM processed_events WHERE consumer_group = $1`, [group])).toBe(1);

    // Without the failing unit: written together, in one transaction (one xmin).
    const together = Array.from({ length: 4 }, () => `document-${randomUUID()}`);
    const sentTogether = await statementsOf(() => Promise.all(together.map((streamId) => store.transaction((uow) => uow.append(streamId, 'no_stream', [{ type: 'A', data: {} }], { tenantId: 't' })))));
    expect(sentTogether.length).toBeLessThan(together.length);
    expect(await count(`SELECT count(DISTINCT xmin::text) AS n FROM events WHERE stream_id = ANY($1::text[])`, [together])).toBe(sentTogether.length);
  });

  it('#11 the writes of one INSERT text in a statement are one INSERT of their rows, in order: each stream\'s outbox rows follow its positions', async () => {
    const streams = Array.from({ length: 3 }, () => `document-${randomUUID()}`);
    const events = [0, 1, 2].map((n) => ({ type: 'A', data: { n } }));
    const sent = await statementsOf(() => Promise.all(streams.map((streamId) => store.transaction((uow) => uow.append(streamId, 'no_stream', events, { tenantId: 't' })))));
    const writes = sent.filter((sql) => sql.includes('INSERT INTO events'));
    expect(writes.length).toBeGreaterThanOrEqual(1);
    for (const sql of writes) {
      expect(sql.match(/INSERT INTO events/g)).toHaveLength(1);
      expect(sql.match(/INSERT INTO outbox/g)).toHaveLength(1);
    }
    for (const streamId of streams) {
      const rows: Array<{ stream_position: number }> = await dataSource.query(
        `SELECT e.stream_position FROM outbox o JOIN events e ON e.event_id = o.event_id WHERE o.aggregate_id = $1 ORDER BY o.id`,
        [streamId],
      );
      expect(rows.map((r) => Number(r.stream_position))).toEqual([1, 2, 3]);
    }
  });

  it('#11 concurrent submissions (events, outbox, their documents rows) share one statement; a duplicate document ID among them gets its own conflict', async () => {
    // As the gateway submits: a new stream, nothing read first.
    const submit = (data: DocumentSubmittedData) =>
      store.transaction((uow) =>
        handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }, { newStream: true }),
      );
    const burst = Array.from({ length: 4 }, () => submitted());
    const sent = await statementsOf(() => Promise.all(burst.map(submit)));
    // The documents upsert names its row: without it each submission was a statement of its own.
    expect(sent.length).toBeLessThan(burst.length);
    const ids = burst.map((d) => d.documentId);
    expect(await count(`SELECT count(DISTINCT xmin::text) AS n FROM documents WHERE id = ANY($1::uuid[])`, [ids])).toBe(sent.length);

    const first = submitted();
    const again = submitted({ supplierId: first.supplierId, documentNumber: first.documentNumber, tenantId: first.tenantId });
    const others = [submitted(), submitted()];
    const results = await Promise.allSettled([first, again, ...others].map(submit));
    // The group failed as a whole; sent again each alone, one of the two took the number (either may win the race).
    expect(results.slice(2).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const lost = results.findIndex((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((results[lost] as PromiseRejectedResult).reason).toMatchObject({ kind: 'conflict', code: 'DOCUMENT.DUPLICATE_ID' });
    const loser = [first, again][lost];
    expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = $1`, [documentStreamId(loser.documentId)])).toBe(0);
  });

  it('#11 an event\'s data and a document\'s fields are compressed with LZ4 when the server has it (migration Lz4Payloads)', async () => {
    const [{ lz4 }] = await dataSource.query(`SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`);
    const columns: Array<{ attname: string; attcompression: string }> = await dataSource.query(
      `SELECT attname, attcompression FROM pg_attribute WHERE (attrelid, attname) IN (('events'::regclass, 'data'), ('documents'::regclass, 'fields')) ORDER BY attname`,
    );
    expect(columns.map((c) => [c.attname, c.attcompression])).toEqual([['data', lz4 ? 'l' : ''], ['fields', lz4 ? 'l' : '']]);
    // A large value stored compressed, and read back as written.
    const data = submitted({ fields: { note: 'invoice line '.repeat(2_000) } });
    await store.transaction((uow) => handleCommand(uow, documentDecider, documentStreamId(data.documentId), { type: 'SubmitDocument', data }, { tenantId: data.tenantId }, { newStream: true }));
    const [row] = await dataSource.query(`SELECT pg_column_compression(data) AS method, data->'fields'->>'note' AS note FROM events WHERE stream_id = $1`, [documentStreamId(data.documentId)]);
    expect(row).toEqual({ method: lz4 ? 'lz4' : 'pglz', note: data.fields.note });
  });

  it('#11 an outbox row names its event (no second copy); the relay reads the event as stored, global position included', async () => {
    const streamId = `document-${randomUUID()}`;
    const [appended] = await store.transaction((uow) => uow.append(streamId, 'no_stream', [{ type: 'TestHappened', data: { n: 1 } }], { tenantId: 't' }));
    const [stored] = await dataSource.query(`SELECT o.payload, e.global_position FROM outbox o JOIN events e USING (event_id) WHERE o.event_id = $1`, [appended.eventId]);
    expect(stored.payload).toBeNull();
    const runner = dataSource.createQueryRunner();
    try {
      const rows = await nextOutboxRows({ query: (sql, params) => runner.query(sql, params) }, '%', 100_000, 1 << 30);
      const row = rows.find((r) => r.payload.eventId === appended.eventId);
      // Published as written by the relay (its data PostgreSQL's text, not parsed): the same event once decoded.
      expect(decodeEvent(Buffer.from(encodeEvent(row!.payload)))).toEqual({ ...appended, globalPosition: String(stored.global_position), recordedAt: expect.any(String) });
      expect(row?.stored_bytes).toBeGreaterThan(0);
    } finally {
      await runner.release();
    }
  });

  describe('#11 a unit of work\'s connections (unit-session.ts)', () => {
    // A store of its own, whose commits notify no one: every checkout of its pool is a unit's.
    let own: { dataSource: DataSource; store: EventStore };
    beforeAll(async () => {
      own = await openTestDatabase('test', { wakeRelay: { afterCommit: () => true } });
    });
    afterAll(async () => {
      await own.dataSource.destroy();
    });

    it('holds none between its statements until it begins a transaction, and one from then to its end', async () => {
      const pool = poolOf(own.dataSource);
      const checkedOut = () => pool.totalCount - pool.idleCount;
      const seen: number[] = [];
      const pids = await own.store.transaction(async (uow) => {
        await uow.read('SELECT 1');
        seen.push(checkedOut());
        const [{ pid: first }] = await uow.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        seen.push(checkedOut());
        const [{ pid: second }] = await uow.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
        return [first, second];
      });
      expect(seen).toEqual([0, 1]);
      expect(pids[0]).toBe(pids[1]);
      expect(checkedOut()).toBe(0);
    });

    it('units committing together take one connection for their one statement', async () => {
      const pool = poolOf(own.dataSource);
      let checkouts = 0;
      const onAcquire = () => (checkouts += 1);
      pool.on('acquire', onAcquire);
      try {
        const streams = Array.from({ length: 8 }, () => `document-${randomUUID()}`);
        await Promise.all(streams.map((streamId) => own.store.transaction((uow) => uow.append(streamId, 'no_stream', [{ type: 'TestHappened', data: { n: 1 } }], { tenantId: 't' }))));
        expect(checkouts).toBe(1);
        expect(await count(`SELECT count(*) AS n FROM events WHERE stream_id = ANY($1)`, [streams])).toBe(8);
      } finally {
        pool.off('acquire', onAcquire);
      }
    });
  });

  it('#11 an outbox row carries its event\'s area, which the relay reads from it; a row written before the column has it read from the data', async () => {
    const topic = `area-${randomUUID()}`;
    const append = async (data: Record<string, unknown>) =>
      (await store.transaction((uow) => uow.append(`document-${randomUUID()}`, 'no_stream', [{ type: 'TestHappened', data }], { tenantId: 't' })))[0];
    const [named, none, legacy, unreadable] = [await append({ area: 'be' }), await append({ n: 1 }), await append({ area: 'de' }), await append({ area: 'sg' })];
    const ids = [named, none, legacy, unreadable].map((e) => e.eventId);
    expect((await dataSource.query(`SELECT area FROM outbox WHERE event_id = ANY($1::uuid[]) ORDER BY id`, [ids])).map((r: { area: string }) => r.area)).toEqual(['be', '', 'de', 'sg']);
    await dataSource.query(`UPDATE outbox SET topic = $1 || '.documents' WHERE event_id = ANY($2::uuid[])`, [topic, ids]);
    // As a row of a process that knew no area column; and one whose column the relay must believe over its data.
    await dataSource.query(`UPDATE outbox SET area = NULL WHERE event_id = $1`, [legacy.eventId]);
    await dataSource.query(`UPDATE outbox SET area = 'my' WHERE event_id = $1`, [unreadable.eventId]);
    const runner = dataSource.createQueryRunner();
    try {
      const rows = await nextOutboxRows({ query: (sql, params) => runner.query(sql, params) }, `${topic}.%`, 10, 1 << 30);
      expect(rows.map((r) => r.payload.data)).toEqual([{ area: 'be' }, {}, { area: 'de' }, { area: 'my' }]);
    } finally {
      await runner.release();
    }
  });

  it('#11 the relay reads rows in id order up to its byte budget (the first row always), each with its event whole', async () => {
    // Incompressible data, so each row's stored size is about its length; the rows get a topic of their own.
    const topic = `budget-${randomUUID()}`;
    const sizes = [40_000, 30_000, 20_000];
    const appended: RecordedEvent[] = [];
    for (const size of sizes) {
      const [event] = await store.transaction((uow) =>
        uow.append(`document-${randomUUID()}`, 'no_stream', [{ type: 'TestHappened', data: { blob: randomBytes(size).toString('base64').slice(0, size) } }], { tenantId: 't' }),
      );
      appended.push(event);
    }
    await dataSource.query(`UPDATE outbox SET topic = $1 || '.documents' WHERE event_id = ANY($2::uuid[])`, [topic, appended.map((e) => e.eventId)]);
    const runner = dataSource.createQueryRunner();
    const read = (limit: number, maxBytes: number) => nextOutboxRows({ query: (sql, params) => runner.query(sql, params) }, `${topic}.%`, limit, maxBytes);
    const ids = (rows: Awaited<ReturnType<typeof read>>) => rows.map((r) => r.payload.eventId);
    try {
      const all = await read(10, 1 << 30);
      expect(ids(all)).toEqual(appended.map((e) => e.eventId));
      all.forEach((row, i) => {
        expect(row.stored_bytes).toBeGreaterThan(sizes[i]);
        expect(decodeEvent(Buffer.from(encodeEvent(row.payload))).data).toEqual(appended[i].data);
      });
      // A row is taken while the rows before it stay under the budget: the first two of 40 KB + 30 KB under 50 KB.
      expect(ids(await read(10, 50_000))).toEqual(appended.slice(0, 2).map((e) => e.eventId));
      // The first row however large; the limit counts rows.
      expect(ids(await read(10, 1))).toEqual([appended[0].eventId]);
      expect(ids(await read(2, 1 << 30))).toEqual(appended.slice(0, 2).map((e) => e.eventId));
    } finally {
      await runner.release();
    }
  });

  it('#11 announces what a unit of work commits after the commit, once per channel and payload of a burst, and nothing of one rolled back', async () => {
    const channel = `announce_${randomUUID().replace(/-/g, '')}`;
    const listener = await poolOf(dataSource).connect();
    const heard: string[] = [];
    let heardD!: () => void;
    const gotD = new Promise<void>((resolve) => (heardD = resolve));
    listener.on('notification', (n) => {
      if (n.channel !== channel) return;
      heard.push(n.payload ?? '');
      if (n.payload === 'd') heardD();
    });
    await listener.query(`LISTEN ${channel}`);
    try {
      await store.transaction(async (uow) => {
        uow.announce(channel, 'a');
        uow.announce(channel, 'b');
        uow.announce(channel, 'a');
      });
      await expect(store.transaction(async (uow) => {
        uow.announce(channel, 'c');
        throw new Error('rolled back');
      })).rejects.toThrow('rolled back');
      await store.transaction(async (uow) => uow.announce(channel, 'd'));
      // The announcements go out in order: once d is heard, c would have been.
      await gotD;
      expect(heard.sort()).toEqual(['a', 'b', 'd']);
    } finally {
      await listener.query(`UNLISTEN ${channel}`);
      listener.release();
    }
  });
});
