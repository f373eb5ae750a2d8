// #47: `GET /v1/documents?issued_from=&issued_to=` reads a range past the newest documents through its own index
// (apps/gateway/src/account/documents.service.ts issuedListSql): the page is the same whichever way it is found.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ISSUED_WINDOW, listSql } from '../../apps/gateway/src/account/documents.service';
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
});
