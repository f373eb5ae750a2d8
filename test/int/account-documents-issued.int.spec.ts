// #47: `GET /v1/documents?issued_from=&issued_to=` reads a range past the newest documents through its own index
// (apps/gateway/src/account/documents.service.ts issuedListSql; a bounded range day by day, rangeByDaySql): the
// page is the same whichever way it is found.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ISSUED_AHEAD_DAYS, ISSUED_DAYS_MAX, ISSUED_WINDOW, listSql } from '../../apps/gateway/src/account/documents.service';
import type { DocumentFilter } from '../../apps/gateway/src/account/documents-query';
import { openTestDatabase } from '../support/database';

describe('#47 issue-date ranges of the documents list (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const tenantId = randomUUID();
  /** Document n (1 = the newest) was created n days before 2026-06-30 and issued that day. */
  const count = ISSUED_WINDOW + 60;
  const dayOf = (n: number) => new Date(Date.UTC(2026, 5, 30) - n * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
    await dataSource.query(
      `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, delivery_status, state, fields, created_at, updated_at, version)
       SELECT gen_random_uuid(), $1, $2, 'be', 'outgoing', 'ISSUED-' || n, 'Invoice', 'Delivered', 'delivered',
              jsonb_build_object('IssueDate', (date '2026-06-30' - n)::text), timestamptz '2026-06-30T12:00:00Z' - n * interval '1 day',
              timestamptz '2026-06-30T12:00:00Z' - n * interval '1 day', 1
       FROM generate_series(1, $3::int) n`,
      [tenantId, randomUUID(), count],
    );
  });
  afterAll(async () => dataSource?.destroy());

  async function numbers(filter: DocumentFilter, startingAfterNumber?: string): Promise<string[]> {
    const [cursor] = startingAfterNumber
      ? await dataSource.query(`SELECT id FROM documents WHERE tenant_id = $1 AND document_number = $2`, [tenantId, startingAfterNumber])
      : [];
    const { sql, parameters } = listSql(tenantId, filter, { limit: 5, startingAfter: cursor?.id });
    const rows: Array<{ document_number: string }> = await dataSource.query(sql, parameters);
    return rows.map((r) => r.document_number);
  }
  const expected = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `ISSUED-${from + i}`);

  it('finds a recent range among the newest documents', async () => {
    expect(await numbers({ issuedFrom: dayOf(12), issuedTo: dayOf(3) })).toEqual(expected(3, 8));
  });

  it('finds a range past the newest documents, newest first, and pages through it', async () => {
    const [oldest, newest] = [count - 5, ISSUED_WINDOW + 20];
    const range = { issuedFrom: dayOf(oldest), issuedTo: dayOf(newest) };
    expect(await numbers(range)).toEqual(expected(newest, newest + 5));
    expect(await numbers(range, `ISSUED-${newest + 4}`)).toEqual(expected(newest + 5, newest + 10));
    expect(await numbers({ issuedTo: dayOf(count - 2) })).toEqual(expected(count - 2, count));
  });

  it('a range with no document is an empty page', async () => {
    expect(await numbers({ issuedFrom: '2020-01-01', issuedTo: '2020-12-31' })).toEqual([]);
  });

  describe('a bounded range, day by day', () => {
    const mixed = randomUUID();
    const suppliers = [randomUUID(), randomUUID()];
    /**
     * Document k (1 = the newest) of `mixed`: created k hours before 2026-06-30T12:00Z, issued 0-3 days before
     * its creation day (so a day's documents are spread among other days' in the list's order), area be or de,
     * incoming one in five; every 50th has an issue date that is not a plain date (`…Z`), which sorts between
     * two days. 420 documents: ~17 days, past the ISSUED_WINDOW newest.
     */
    interface Row { number: string; created: number; issued: string; area: string; direction: string; supplier: string }
    const rows: Row[] = Array.from({ length: 420 }, (_, i) => {
      const k = i + 1;
      const created = Date.UTC(2026, 5, 30, 12) - k * 3_600_000;
      const issued = new Date(created - (k % 4) * 86_400_000).toISOString().slice(0, 10) + (k % 50 === 0 ? 'Z' : '');
      return { number: `MIXED-${k}`, created, issued, area: k % 3 === 0 ? 'de' : 'be', direction: k % 5 === 0 ? 'incoming' : 'outgoing', supplier: suppliers[k % 2] };
    });

    /**
     * `late`'s documents: the ISSUED_WINDOW + 20 newest (created hourly before 2026-06-30T12:00Z) back-dated to
     * 2026-01-15, as a batch of old invoices sent late; before them 80 created daily, issued the day they were
     * created (2026-06-20 back), every tenth a day later with a `Z`, and five dated 2026-08-01, ahead.
     */
    const late = randomUUID();
    const lateRows: Row[] = Array.from({ length: ISSUED_WINDOW + 100 }, (_, i) => {
      const k = i + 1;
      const recent = k <= ISSUED_WINDOW + 20;
      const created = recent ? Date.UTC(2026, 5, 30, 12) - k * 3_600_000 : Date.UTC(2026, 5, 20, 12) - (k - ISSUED_WINDOW - 20) * 43_200_000;
      const day = new Date(created).toISOString().slice(0, 10);
      const issued = recent ? '2026-01-15' : k % 16 === 0 ? '2026-08-01' : k % 10 === 0 ? `${new Date(created + 86_400_000).toISOString().slice(0, 10)}Z` : day;
      return { number: `LATE-${k}`, created, issued, area: 'be', direction: 'outgoing', supplier: suppliers[0] };
    });

    beforeAll(async () => {
      for (const [tenant, of] of [[mixed, rows], [late, lateRows]] as const) {
        await dataSource.query(
          `INSERT INTO documents (id, tenant_id, supplier_id, area, direction, document_number, document_type, delivery_status, state, fields, created_at, updated_at, version)
           SELECT gen_random_uuid(), $1, r.supplier, r.area, r.direction, r.number, 'Invoice', 'Delivered', 'delivered',
                  jsonb_build_object('IssueDate', r.issued), r.created, r.created, 1
           FROM jsonb_to_recordset($2::jsonb) AS r(number text, created timestamptz, issued text, area text, direction text, supplier uuid)`,
          [tenant, JSON.stringify(of.map((r) => ({ ...r, created: new Date(r.created).toISOString() })))],
        );
      }
    });

    /** Every page of the list (limit 5), each read with the previous page's last document as its cursor. */
    async function pages(filter: DocumentFilter, now?: number, tenant = mixed): Promise<string[][]> {
      const all: string[][] = [];
      let cursor: string | undefined;
      for (;;) {
        const { sql, parameters } = listSql(tenant, filter, { limit: 5, startingAfter: cursor }, now);
        const page: Array<{ id: string; document_number: string }> = await dataSource.query(sql, parameters);
        all.push(page.slice(0, 5).map((r) => r.document_number));
        if (page.length <= 5) return all;
        cursor = page[4].id;
      }
    }
    /** The same pages from the rows themselves: the filter's documents, newest first, five at a time. */
    function expectedPages(keep: (row: Row) => boolean, of = rows): string[][] {
      const numbers = of.filter(keep).sort((a, b) => b.created - a.created).map((r) => r.number);
      const all: string[][] = [];
      for (let i = 0; i === 0 || i < numbers.length; i += 5) all.push(numbers.slice(i, i + 5));
      return all;
    }
    const within = (from: string, to: string) => (row: Row) => row.issued >= from && row.issued <= to;

    it('pages through a range past the newest documents as the rows say, across its days, the odd issue date included', async () => {
      const [from, to] = ['2026-06-13', '2026-06-19'];
      const expected = expectedPages(within(from, to));
      expect(expected.flat()).toContain('MIXED-300'); // issued 2026-06-18Z: between two days
      expect(expected.length).toBeGreaterThan(20);
      expect(await pages({ issuedFrom: from, issuedTo: to })).toEqual(expected);
    });

    it('reads a bounded or a recent open range day by day, a longer one or one with another filter as before', async () => {
      const now = Date.UTC(2026, 5, 30, 12);
      const plan = async (filter: DocumentFilter) => {
        const { sql, parameters } = listSql(mixed, filter, { limit: 5 }, now);
        const lines: Array<{ 'QUERY PLAN': string }> = await dataSource.query(`EXPLAIN ${sql}`, parameters);
        return lines.map((l) => l['QUERY PLAN']).join('\n');
      };
      expect(await plan({ issuedFrom: '2026-06-13', issuedTo: '2026-06-19' })).toContain('generate_series');
      expect(await plan({ issuedFrom: '2026-06-13' })).toContain('generate_series');
      expect(await plan({ issuedFrom: '2025-01-01' })).not.toContain('generate_series');
      expect(await plan({ issuedFrom: '2025-01-01', issuedTo: '2026-06-19' })).not.toContain('generate_series');
      expect(await plan({ issuedFrom: '2026-06-13', issuedTo: '2026-06-19', areas: ['de'] })).not.toContain('generate_series');
      expect(await plan({ issuedFrom: '2026-06-13', areas: ['de'] })).not.toContain('generate_series');
    });

    it('pages through an open range past the newest documents as the rows say: its days, then what is dated after them', async () => {
      const from = '2026-06-05';
      // Today ISSUED_AHEAD_DAYS before 2026-06-12: the days read one by one end on 2026-06-12; 2026-06-12Z, 06-13, … 08-01 come "later".
      const now = Date.UTC(2026, 5, 12, 12) - ISSUED_AHEAD_DAYS * 86_400_000;
      const expected = expectedPages((r) => r.issued >= from, lateRows);
      const flat = expected.flat();
      expect(flat.filter((n) => lateRows.find((r) => r.number === n)!.issued.endsWith('Z')).length).toBeGreaterThan(1);
      expect(flat.filter((n) => lateRows.find((r) => r.number === n)!.issued === '2026-08-01').length).toBeGreaterThan(1);
      expect(flat.some((n) => lateRows.find((r) => r.number === n)!.issued <= '2026-06-12')).toBe(true);
      expect(await pages({ issuedFrom: from }, now, late)).toEqual(expected);
      // Today itself (every day to 2026-07-31 one by one, 2026-08-01 later), and an issued_from past the days (read as before).
      expect(await pages({ issuedFrom: from }, Date.UTC(2026, 5, 30, 12), late)).toEqual(expected);
      expect(await pages({ issuedFrom: '2026-07-20' }, now, late)).toEqual(expectedPages((r) => r.issued >= '2026-07-20', lateRows));
      // With the created range and the cursor (index conditions) as well.
      const createdTo = '2026-06-15';
      expect(await pages({ issuedFrom: from, createdTo }, now, late)).toEqual(expectedPages((r) => r.issued >= from && r.created < Date.UTC(2026, 5, 16), lateRows));
    });

    it('gives the same pages with every other filter combined', async () => {
      const [from, to] = ['2026-06-12', '2026-06-20'];
      const cases: Array<[DocumentFilter, (row: Row) => boolean]> = [
        [{ createdFrom: '2026-06-14', createdTo: '2026-06-18' }, (r) => r.created >= Date.UTC(2026, 5, 14) && r.created < Date.UTC(2026, 5, 19)],
        [{ areas: ['de'] }, (r) => r.area === 'de'],
        [{ areas: ['de', 'be'], direction: 'incoming' }, (r) => r.direction === 'incoming'],
        [{ supplierId: suppliers[1] }, (r) => r.supplier === suppliers[1]],
        [{ status: 'received' }, (r) => r.direction === 'incoming'],
        [{ number: 'MIXED-333' }, (r) => r.number === 'MIXED-333'],
      ];
      for (const [filter, keep] of cases) {
        const expected = expectedPages((r) => within(from, to)(r) && keep(r));
        expect({ filter, pages: await pages({ ...filter, issuedFrom: from, issuedTo: to }) }).toEqual({ filter, pages: expected });
      }
    });

    it('a range of one day, the longest range read by day and one day longer give the rows\' pages', async () => {
      const day = '2026-06-15';
      expect(await pages({ issuedFrom: day, issuedTo: day })).toEqual(expectedPages(within(day, day)));
      const longest = new Date(Date.UTC(2026, 5, 19) - (ISSUED_DAYS_MAX - 1) * 86_400_000).toISOString().slice(0, 10);
      const longer = new Date(Date.UTC(2026, 5, 19) - ISSUED_DAYS_MAX * 86_400_000).toISOString().slice(0, 10);
      for (const from of [longest, longer]) expect(await pages({ issuedFrom: from, issuedTo: '2026-06-19' })).toEqual(expectedPages(within(from, '2026-06-19')));
      // 2026-06-18Z sorts after 2026-06-18: outside a range ending that day, as it always was.
      for (const [from, to] of [['2026-06-18', '2026-06-18'], ['2026-06-17', '2026-06-18'], ['2026-06-18', '2026-06-19']]) expect(await pages({ issuedFrom: from, issuedTo: to })).toEqual(expectedPages(within(from, to)));
    });
  });
});
