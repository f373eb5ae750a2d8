import { randomUUID } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import Ajv2020 from 'ajv/dist/2020';
import { ACCOUNT_EVENT_TYPES, type AccountEvent, accountEventJsonSchema } from '@einvoice/domain';
import type { Connections } from '../../apps/gateway/src/infrastructure/infrastructure.module';
import { AccountEvents, type EventsPage, eventsPageSql } from '../../apps/gateway/src/account/events.service';
import { eventsQuery } from '../../apps/gateway/src/account/events-query';
import { openTestDatabase } from '../support/database';
import { eventually } from '../support/wait';

/**
 * The account's events (#48) on the real database: the trigger on `documents` records each step of any
 * area's document (every area's documents are rows of that table), `GET /v1/events`'s pages go forward in
 * commit order without skipping an event whose transaction commits late, filter, stay within the tenant,
 * bound the work of a rare filter, and keep working from a cursor whose events the retention deleted.
 */
describe('#48 account events (documents trigger, commit-ordered pages)', () => {
  let dataSource: DataSource;
  let events: AccountEvents;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const validators = new Map(ACCOUNT_EVENT_TYPES.map((type) => [type, ajv.compile(accountEventJsonSchema(type))]));

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    events = new AccountEvents({ dataSource } as unknown as Connections);
  });
  afterAll(async () => dataSource?.destroy());

  interface Account {
    readonly tenantId: string;
    readonly supplierId: string;
  }
  const account = (): Account => ({ tenantId: randomUUID(), supplierId: randomUUID() });

  /** A documents row as the projections write it: a Peppol document Scheduled, a reported one pending. */
  async function insertDocument(
    db: DataSource | QueryRunner,
    who: Account,
    number: string,
    options: { area?: string; direction?: 'outgoing' | 'incoming'; report?: boolean; supplierId?: string } = {},
  ): Promise<string> {
    const id = randomUUID();
    const report = options.report ?? false;
    await db.query(
      `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, state, delivery_status, fields,
         report_state, peppol_copy, created_at, updated_at, version)
       VALUES ($1, $2, $3, $4, $5, $6, '380', $7, $8, '{}', $9, $10, now(), now(), 1)`,
      [
        id, who.tenantId, options.supplierId ?? who.supplierId, options.area ?? 'be', options.direction ?? 'outgoing', number,
        report ? 'pending' : options.direction === 'incoming' ? 'received' : 'scheduled',
        report ? null : options.direction === 'incoming' ? 'Delivered' : 'Scheduled',
        report ? 'pending' : null, report ? false : null,
      ],
    );
    return id;
  }
  const update = (id: string, set: string, parameters: unknown[] = []) => dataSource.query(`UPDATE documents SET ${set} WHERE id = $1`, [id, ...parameters]);

  const page = (who: Account, query: Record<string, string> = {}, scanLimit?: number): Promise<EventsPage> => events.page(who.tenantId, eventsQuery(query), scanLimit);
  /**
   * A page once it holds `n` events: a page shows only what transactions older than every running one
   * wrote, and other transactions run on this cluster too, so a page may briefly hold back.
   */
  const pageOf = (who: Account, n: number, query: Record<string, string> = {}) =>
    eventually(`${n} events`, async () => {
      const answer = await page(who, query);
      return answer.data.length >= n ? answer : undefined;
    });
  const valid = (event: AccountEvent) => {
    const validate = validators.get(event.type)!;
    return validate(event) ? [] : validate.errors;
  };

  it('records each step of every area\'s documents as its catalogue type, valid against its schema', async () => {
    const who = account();
    const be = await insertDocument(dataSource, who, 'BE-1');
    await update(be, `delivery_status = 'Sent', state = 'sent'`); // not an event of the catalogue
    await update(be, `delivery_status = 'Delivered', state = 'delivered', delivery = $2`, [{ channel: 'local', mls: { responseCode: 'AP', receivedAt: '2026-12-02T08:00:00.000Z' } }]);
    const de = await insertDocument(dataSource, who, 'DE-1', { area: 'de' });
    await update(de, `delivery_status = 'Failed', state = 'failed', delivery = $2`, [{ failure: { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'Not in the SML.' }, mls: null }]);
    const pl = await insertDocument(dataSource, who, 'PL-1', { area: 'pl', report: true });
    await update(pl, `report_state = 'processing'`); // not an event either
    await update(pl, `report_state = 'reported', authority = $2`, [{ receipt: { ksefNumber: '5260250274-20261202-0100A0B0C0D0-E1' } }]);
    const jo = await insertDocument(dataSource, who, 'JO-1', { area: 'jo', report: true });
    await update(jo, `report_state = 'rejected', authority = $2`, [{ error: { code: 'JOFOTARA.REJECTED', message: 'Refused.', details: [{ code: 'E0023', message: 'Seller not registered.' }] } }]);
    const my = await insertDocument(dataSource, who, 'MY-1', { area: 'my', report: true });
    await update(my, `report_state = 'reported', authority = $2`, [{ receipt: { longId: 'LONG-1' } }]);
    await update(my, `authority = authority || $2`, [{ buyerRejection: { reason: 'Wrong goods', requestedAt: '2026-12-02T08:00:00.000Z' } }]);
    await update(my, `report_state = 'cancelling'`);
    await update(my, `report_state = 'reported'`); // a refused cancellation: back to reported, no second document.reported
    await update(my, `report_state = 'cancelling'`);
    await update(my, `report_state = 'cancelled'`);
    const sg = await insertDocument(dataSource, who, 'SG-IN-1', { area: 'sg', direction: 'incoming' });

    const { data } = await pageOf(who, 13, { limit: '500' });
    expect(data.map((e) => [e.document_number, e.type, e.data.status])).toEqual([
      ['BE-1', 'document.accepted', 'accepted'],
      ['BE-1', 'document.delivered', 'delivered'],
      ['DE-1', 'document.accepted', 'accepted'],
      ['DE-1', 'document.delivery_failed', 'failed'],
      ['PL-1', 'document.accepted', 'accepted'],
      ['PL-1', 'document.reported', 'reported'],
      ['JO-1', 'document.accepted', 'accepted'],
      ['JO-1', 'document.report_failed', 'refused'],
      ['MY-1', 'document.accepted', 'accepted'],
      ['MY-1', 'document.reported', 'reported'],
      ['MY-1', 'document.rejected', 'reported'],
      ['MY-1', 'document.cancelled', 'cancelled'],
      ['SG-IN-1', 'document.received', 'received'],
    ]);
    for (const event of data) expect([event.type, valid(event)]).toEqual([event.type, []]);
    const byType = (type: string, number: string) => data.find((e) => e.type === type && e.document_number === number)!;
    expect(byType('document.delivered', 'BE-1')).toMatchObject({ area: 'be', supplier_id: who.supplierId, document_id: be, data: { exchange: { status: 'delivered', mls: { responseCode: 'AP' } } } });
    expect(byType('document.delivery_failed', 'DE-1').data.exchange).toEqual({ status: 'failed', reason: { code: 'PEPPOL.RECEIVER_NOT_FOUND', message: 'Not in the SML.' } });
    expect(byType('document.reported', 'PL-1').data.authority).toEqual({ status: 'reported', reference: '5260250274-20261202-0100A0B0C0D0-E1' });
    expect(byType('document.report_failed', 'JO-1').data.authority).toEqual({ status: 'refused', codes: [{ code: 'E0023', message: 'Seller not registered.' }] });
    expect(byType('document.rejected', 'MY-1').data.authority).toMatchObject({ buyer_rejection: { reason: 'Wrong goods', requested_at: '2026-12-02T08:00:00.000Z' } });
    expect(byType('document.received', 'SG-IN-1')).toMatchObject({ document_id: sg, data: { exchange: { status: 'received' } } });
    expect(new Set(data.map((e) => e.id)).size).toBe(13);
  });

  it('pages forward with next_cursor; an empty page answers the cursor given, or null without one', async () => {
    const who = account();
    expect(await page(who)).toEqual({ status: 'success', data: [], next_cursor: null });
    for (let i = 0; i < 5; i++) await insertDocument(dataSource, who, `P-${i}`);
    const first = await pageOf(who, 2, { limit: '2' });
    expect(first.data.map((e) => e.document_number)).toEqual(['P-0', 'P-1']);
    const second = await pageOf(who, 2, { after: first.next_cursor!, limit: '2' });
    expect(second.data.map((e) => e.document_number)).toEqual(['P-2', 'P-3']);
    const third = await pageOf(who, 1, { after: second.next_cursor! });
    expect(third.data.map((e) => e.document_number)).toEqual(['P-4']);
    const caughtUp = await page(who, { after: third.next_cursor! });
    expect(caughtUp).toEqual({ status: 'success', data: [], next_cursor: third.next_cursor });
    // The same cursor read again answers the same page: a cursor is a position, valid across restarts.
    expect((await page(who, { after: first.next_cursor!, limit: '2' })).data).toEqual(second.data);
  });

  it('never skips an event whose transaction took its position first but commits after a later one', async () => {
    const who = account();
    const late = dataSource.createQueryRunner();
    await late.connect();
    await late.startTransaction();
    let seen: string[] = [];
    let cursor: string | null = null;
    try {
      await insertDocument(late, who, 'LATE'); // takes its xid first, commits last
      await insertDocument(dataSource, who, 'EARLY-COMMIT');
      // While LATE's transaction runs, the page holds back what came after it: nothing is handed out ahead of it.
      const during = await page(who);
      seen = during.data.map((e) => e.document_number);
      cursor = during.next_cursor;
      expect(seen).toEqual([]);
      await late.commitTransaction();
    } finally {
      await late.release();
    }
    const after = await pageOf(who, 2, cursor ? { after: cursor } : {});
    expect(after.data.map((e) => e.document_number)).toEqual(['LATE', 'EARLY-COMMIT']);
  });

  it('under concurrent writers, paging as it goes, every event arrives exactly once', async () => {
    const who = account();
    const writers = Array.from({ length: 6 }, (_, w) =>
      (async () => {
        for (let i = 0; i < 15; i++) {
          const runner = dataSource.createQueryRunner();
          await runner.connect();
          await runner.startTransaction();
          await insertDocument(runner, who, `W${w}-${i}`);
          // Transactions stay open for different times, so commit order differs from xid order.
          await new Promise((resolve) => setTimeout(resolve, (w * 7 + i) % 5));
          await runner.commitTransaction();
          await runner.release();
        }
      })(),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let finished = false;
    const done = Promise.all(writers).then(() => (finished = true));
    // Until every event was seen, or a minute after the writers finished (other databases' transactions
    // on this cluster hold pages back while they run: the horizon is the cluster's).
    let deadline = Number.POSITIVE_INFINITY;
    while (seen.length < 90 && Date.now() < deadline) {
      const answer: EventsPage = await page(who, cursor ? { after: cursor, limit: '7' } : { limit: '7' });
      seen.push(...answer.data.map((e) => e.document_number));
      cursor = answer.next_cursor;
      if (finished && deadline === Number.POSITIVE_INFINITY) deadline = Date.now() + 60_000;
      if (answer.data.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await done;
    expect(seen).toHaveLength(90);
    expect(new Set(seen).size).toBe(90);
  });

  it('filters by type, area and supplier (lists), and only ever shows the caller\'s tenant', async () => {
    const who = account();
    const other = account();
    const secondSupplier = randomUUID();
    const be = await insertDocument(dataSource, who, 'F-BE');
    await update(be, `delivery_status = 'Delivered', state = 'delivered'`);
    const pl = await insertDocument(dataSource, who, 'F-PL', { area: 'pl', report: true, supplierId: secondSupplier });
    await update(pl, `report_state = 'invalid', authority = $2`, [{ error: { code: 'KSEF.INVALID', message: 'Invalid NIP.' } }]);
    await insertDocument(dataSource, other, 'OTHER-BE');
    await pageOf(who, 4);
    const numbers = async (query: Record<string, string>) => (await page(who, query)).data.map((e) => `${e.document_number} ${e.type}`);
    expect(await numbers({ type: 'document.delivered,document.report_failed' })).toEqual(['F-BE document.delivered', 'F-PL document.report_failed']);
    expect(await numbers({ area: 'PL' })).toEqual(['F-PL document.accepted', 'F-PL document.report_failed']);
    expect(await numbers({ area: 'be,jo', type: 'document.accepted' })).toEqual(['F-BE document.accepted']);
    expect(await numbers({ supplier_id: secondSupplier.toUpperCase() })).toEqual(['F-PL document.accepted', 'F-PL document.report_failed']);
    expect(await numbers({ supplier_id: randomUUID() })).toEqual([]);
    // Another tenant's key sees its own events only.
    expect((await pageOf(other, 1)).data.map((e) => e.document_number)).toEqual(['OTHER-BE']);
    expect((await page(other, { area: 'pl' })).data).toEqual([]);
  });

  it('a rare filter looks at a bounded number of events per page, and its next_cursor moves past them', async () => {
    const who = account();
    for (let i = 0; i < 7; i++) await insertDocument(dataSource, who, `R-${i}`);
    const rare = await insertDocument(dataSource, who, 'RARE', { area: 'jo', report: true });
    await update(rare, `report_state = 'reported'`);
    await pageOf(who, 9, { limit: '500' });
    // 3 events looked at per page (the bound, at least `limit`): the first pages answer nothing but move on; none is skipped.
    const seen: string[] = [];
    const cursors: Array<string | null> = [];
    let cursor: string | null = null;
    for (let round = 0; round < 10; round++) {
      const answer = await page(who, { area: 'jo', limit: '2', ...(cursor ? { after: cursor } : {}) }, 3);
      seen.push(...answer.data.map((e) => e.type));
      if (answer.next_cursor === cursor) break;
      cursor = answer.next_cursor;
      cursors.push(cursor);
    }
    expect(seen).toEqual(['document.accepted', 'document.reported']);
    expect(cursors).toHaveLength(3); // 9 events, 3 per page
    // The page's query reads the tenant's index in order, at most `scan` entries.
    const { sql } = eventsPageSql(who.tenantId, eventsQuery({ area: 'jo' }), 3);
    expect(sql).toContain('LIMIT $4');
  });

  it('a cursor whose events the retention deleted still works: the page continues from its position', async () => {
    const who = account();
    for (let i = 0; i < 3; i++) await insertDocument(dataSource, who, `D-${i}`);
    const first = await pageOf(who, 2, { limit: '2' });
    await dataSource.query(`DELETE FROM account_events WHERE tenant_id = $1 AND document_number IN ('D-0', 'D-1')`, [who.tenantId]);
    expect((await pageOf(who, 1, { after: first.next_cursor! })).data.map((e) => e.document_number)).toEqual(['D-2']);
    expect((await page(who)).data.map((e) => e.document_number)).toEqual(['D-2']);
  });

  it('refuses a bad query with one 400 naming each parameter', () => {
    expect(() => eventsQuery({ after: 'not-a-cursor', type: 'document.accepted,document.paid', area: 'be,xx', supplier_id: '42', limit: '501', status: 'x' })).toThrow(
      expect.objectContaining({
        kind: 'validation',
        issues: expect.arrayContaining([
          expect.objectContaining({ path: 'status', code: 'FIELD.INVALID_VALUE' }),
          expect.objectContaining({ path: 'limit', code: 'FIELD.INVALID_VALUE' }),
          expect.objectContaining({ path: 'after', code: 'FIELD.INVALID_VALUE' }),
          expect.objectContaining({ path: 'type', code: 'FIELD.INVALID_VALUE' }),
          expect.objectContaining({ path: 'area', code: 'FIELD.INVALID_VALUE' }),
          expect.objectContaining({ path: 'supplier_id', code: 'FIELD.INVALID_FORMAT' }),
        ]),
      }),
    );
  });
});
