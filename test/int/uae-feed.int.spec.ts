import { randomUUID } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import type { Connections } from '../../apps/gateway/src/infrastructure/infrastructure.module';
import { UaeFeedsService } from '../../apps/gateway/src/areas/uae/uae-feeds.service';
import type { SupplierRecord } from '../../apps/gateway/src/suppliers/supplier-lookup';
import { openTestDatabase } from '../support/database';
import { eventually } from '../support/wait';

/**
 * The UAE event feeds (issue 10 "Event feeds") on the real read model: the trigger turns every change
 * of a UAE document's status fields into an event, pages go forward without skipping an event whose
 * transaction commits late, acknowledgements only move forward.
 */
describe('UAE event feeds (documents trigger, cursors, acks)', () => {
  let dataSource: DataSource;
  let feeds: UaeFeedsService;

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    feeds = new UaeFeedsService({ dataSource } as unknown as Connections);
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  const participant = (): SupplierRecord => ({ id: randomUUID(), tenantId: randomUUID(), area: 'ae', profile: { registeredName: 'P', identifiers: [], country: 'AE' }, participantIds: [], active: true });

  /** A documents row as the platform's projections write it (outgoing: Scheduled, report pending). */
  async function insertDocument(db: DataSource | QueryRunner, supplier: SupplierRecord, identifier: string, direction: 'outgoing' | 'incoming' = 'outgoing'): Promise<string> {
    const id = randomUUID();
    await db.query(
      `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, state, delivery_status, fields, xml,
         report_state, created_at, updated_at, version)
       VALUES ($1, $2, $3, 'ae', $4, $5, '380', 'scheduled', 'Scheduled', $6, '<Invoice/>', 'pending', now(), now(), 1)`,
      [id, supplier.tenantId, supplier.id, direction, `2026:${identifier}`, { document_identifier: identifier }],
    );
    return id;
  }

  const page = (supplier: SupplierRecord, query: Record<string, string> = {}) => feeds.page(supplier, { direction: 'outgoing', ...query });
  /**
   * A page once it holds `n` events: a page shows only what transactions older than every running one
   * wrote, and other suites' transactions run on this cluster too, so a page may briefly hold back.
   */
  const pageOf = (supplier: SupplierRecord, n: number, query: Record<string, string> = {}) =>
    eventually(`${n} events`, async () => {
      const answer = await feeds.page(supplier, { direction: 'outgoing', ...query });
      return answer.events.length >= n ? answer : undefined;
    });

  it('turns each status change into one event, with the three status fields', async () => {
    const supplier = participant();
    const id = await insertDocument(dataSource, supplier, 'INV-1');
    await dataSource.query(`UPDATE documents SET report_state = 'processing', updated_at = now() WHERE id = $1`, [id]); // still queued: no event
    await dataSource.query(`UPDATE documents SET report_state = 'reported' WHERE id = $1`, [id]);
    await dataSource.query(`UPDATE documents SET delivery_status = 'Delivered', state = 'delivered' WHERE id = $1`, [id]);
    const { events, data } = await pageOf(supplier, 3);
    expect(data).toEqual({ direction: 'outgoing' });
    expect(events.map((e) => [e.type, e.status, e.reporting, e.exchange])).toEqual([
      ['document.accepted', 'accepted', { status: 'queued' }, { status: 'processing' }],
      ['document.reported', 'accepted', { status: 'reported' }, { status: 'processing' }],
      ['document.delivered', 'completed', { status: 'reported' }, { status: 'delivered' }],
    ]);
    expect(events.every((e) => e.document_id === id && e.document_identifier === 'INV-1' && e.direction === 'outgoing')).toBe(true);
    expect((await page(supplier, { direction: 'received' })).events).toEqual([]);
  });

  it('pages forward; an empty page keeps next_cursor; both vocabularies of direction', async () => {
    const supplier = participant();
    for (let i = 0; i < 5; i++) await insertDocument(dataSource, supplier, `P-${i}`);
    const first = await pageOf(supplier, 2, { direction: 'sent', limit: '2' });
    expect(first.events.map((e) => e.document_identifier)).toEqual(['P-0', 'P-1']);
    const second = await pageOf(supplier, 2, { cursor: first.next_cursor as string, limit: '2' });
    expect(second.events.map((e) => e.document_identifier)).toEqual(['P-2', 'P-3']);
    const third = await pageOf(supplier, 1, { cursor: second.next_cursor as string });
    expect(third.events.map((e) => e.document_identifier)).toEqual(['P-4']);
    const caughtUp = await page(supplier, { cursor: third.next_cursor as string });
    expect(caughtUp.events).toEqual([]);
    expect(caughtUp.next_cursor).toBe(third.next_cursor);
  });

  it('never skips an event whose transaction took its sequence number first but commits last', async () => {
    const supplier = participant();
    const late = dataSource.createQueryRunner();
    await late.connect();
    await late.startTransaction();
    try {
      await insertDocument(late, supplier, 'LATE'); // takes its seq now, commits at the end
      await insertDocument(dataSource, supplier, 'EARLY-COMMIT');
      // While LATE's transaction runs, the page holds back what came after it: nothing is handed out ahead of it.
      const during = await page(supplier);
      expect(during.events.map((e) => e.document_identifier)).toEqual([]);
      await late.commitTransaction();
    } finally {
      await late.release();
    }
    const after = await pageOf(supplier, 2);
    expect(after.events.map((e) => e.document_identifier)).toEqual(['LATE', 'EARLY-COMMIT']);
  });

  it('under concurrent writers, paging as it goes, every event arrives exactly once', async () => {
    const supplier = participant();
    const writers = Array.from({ length: 6 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 15; i++) {
          const runner = dataSource.createQueryRunner();
          await runner.connect();
          await runner.startTransaction();
          await insertDocument(runner, supplier, `W${w}-${i}`);
          // Transactions stay open for different times, so commit order differs from sequence order.
          await new Promise((resolve) => setImmediate(resolve));
          await runner.commitTransaction();
          await runner.release();
        }
      })(),
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    const done = Promise.all(writers);
    let finished = false;
    void done.then(() => (finished = true));
    // Page while the writers write; once they are done, until the feed has shown everything it holds.
    for (let idleAfterDone = 0; idleAfterDone < 20; ) {
      const { events, next_cursor } = await page(supplier, cursor ? { cursor, limit: '7' } : { limit: '7' });
      seen.push(...events.map((e) => e.document_identifier as string));
      cursor = next_cursor ?? undefined;
      if (finished && events.length === 0) {
        if (seen.length >= 90) break;
        idleAfterDone += 1;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    await done;
    expect(seen).toHaveLength(90);
    expect(new Set(seen).size).toBe(90);
  });

  it('orders by transaction id as a number, not as text (9 before 10, 999 before 1000)', async () => {
    const supplier = participant();
    for (const [xid, identifier] of [['1000', 'FOURTH'], ['9', 'FIRST'], ['999', 'THIRD'], ['10', 'SECOND']]) {
      await dataSource.query(
        `INSERT INTO uae_feed_events (xid, supplier_id, direction, document_id, document_identifier, type, status, reporting, exchange)
         VALUES ($1::xid8, $2, 'outgoing', $3, $4, 'document.accepted', 'accepted', '{"status":"queued"}', '{"status":"processing"}')`,
        [xid, supplier.id, randomUUID(), identifier],
      );
    }
    const first = await page(supplier, { limit: '2' });
    const second = await page(supplier, { cursor: first.next_cursor as string, limit: '2' });
    expect([...first.events, ...second.events].map((e) => e.document_identifier)).toEqual(['FIRST', 'SECOND', 'THIRD', 'FOURTH']);
  });

  it('acknowledges forward only; the position reads null before any ack', async () => {
    const supplier = participant();
    for (let i = 0; i < 3; i++) await insertDocument(dataSource, supplier, `A-${i}`);
    expect(await feeds.position(supplier, { direction: 'outgoing' })).toEqual({ status: 'success', data: { direction: 'outgoing', acked: null } });
    const { events } = await pageOf(supplier, 3);
    const acked = await feeds.acknowledge(supplier, { direction: 'sent', cursor: events[1].id });
    expect(acked.data).toEqual({ direction: 'outgoing', acked: events[1].id });
    // Behind the stored position: ignored.
    expect((await feeds.acknowledge(supplier, { direction: 'outgoing', cursor: events[0].id })).data.acked).toBe(events[1].id);
    // GET with ack_cursor acknowledges and pages after it.
    const next = await page(supplier, { ack_cursor: events[2].id });
    expect(next.events).toEqual([]);
    expect((await feeds.position(supplier, { direction: 'outgoing' })).data.acked).toBe(events[2].id);
    // A number is a missing parameter; a string that is no event of this feed is refused.
    await expect(feeds.acknowledge(supplier, { direction: 'outgoing', cursor: 12 })).rejects.toMatchObject({ kind: 'validation', issues: [{ path: 'cursor', code: 'FIELD.REQUIRED' }] });
    await expect(feeds.acknowledge(supplier, { direction: 'outgoing', cursor: 'bm90LWEtY3Vyc29y' })).rejects.toMatchObject({ kind: 'validation' });
    await expect(feeds.position(supplier, {})).rejects.toMatchObject({ kind: 'validation', issues: [{ path: 'direction', code: 'FIELD.REQUIRED' }] });
  });
});
