import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { openTestDatabase } from '../../../../../test/support/database';
import { documentSubmitted } from '../../../../../test/support/fixtures';
import { AppError, WrongExpectedVersionError } from '../../errors';
import { documentDecider, documentStreamId } from '../../document';
import type { DocumentSubmittedData } from '../../document';
import { EventStore } from './event-store';
import { handleCommand } from './handle-command';

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
});
