// #8: the bookkeeping tables do not grow forever. Rows past their window are pruned in batches;
// unpublished and parked outbox rows, recent rows and the event history stay.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { pruneBookkeeping } from '@einvoice/domain/infrastructure';
import { createTenant } from '../../apps/gateway/src/auth/api-keys';
import { openTestDatabase } from '../support/database';

describe('#8 retention of outbox, processed_events, idempotency_keys and (#48) account_events (real PostgreSQL)', () => {
  let dataSource: DataSource;
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

  beforeAll(async () => {
    ({ dataSource } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  async function outboxRow(processedHoursAgo: number | null, parked = false): Promise<string> {
    const eventId = randomUUID();
    await dataSource.query(
      `INSERT INTO outbox (event_id, topic, aggregate_type, aggregate_id, message_type, payload, metadata, created_at, processed_at, abandoned_at)
       VALUES ($1, 'retention.documents', 'document', $2, 'TestHappened', '{}', '{}', $3, $4, $5)`,
      [eventId, `document-${eventId}`, hoursAgo(500), processedHoursAgo === null ? null : hoursAgo(processedHoursAgo), parked ? hoursAgo(400) : null],
    );
    return eventId;
  }

  it('prunes what is past its window, in batches, and keeps the rest', async () => {
    const { tenant } = await createTenant(dataSource, 'retention');
    const oldPublished = await outboxRow(200);
    const recentPublished = await outboxRow(1);
    const neverPublished = await outboxRow(null);
    const parked = await outboxRow(null, true);
    const [oldMark, recentMark] = [randomUUID(), randomUUID()];
    await dataSource.query(`INSERT INTO processed_events (consumer_group, event_id, processed_at) VALUES ('retention', $1, $2), ('retention', $3, $4)`, [
      oldMark, hoursAgo(400), recentMark, hoursAgo(1),
    ]);
    await dataSource.query(
      `INSERT INTO idempotency_keys (tenant_id, key, request_hash, status_code, response, created_at) VALUES ($1, 'old', 'h', 201, '{}', $2), ($1, 'recent', 'h', 201, '{}', $3)`,
      [tenant.id, hoursAgo(25), hoursAgo(1)],
    );

    // #48: the account's events older than ACCOUNT_EVENTS_RETENTION_DAYS (30 by default).
    const [oldEvent, recentEvent] = [randomUUID(), randomUUID()];
    await dataSource.query(
      `INSERT INTO account_events (id, tenant_id, type, area, supplier_id, document_id, document_number, direction, created_at)
       VALUES ($1, $2, 'document.accepted', 'be', $3, $3, 'OLD', 'outgoing', $4), ($5, $2, 'document.accepted', 'be', $3, $3, 'RECENT', 'outgoing', $6)`,
      [oldEvent, tenant.id, randomUUID(), hoursAgo(31 * 24), recentEvent, hoursAgo(29 * 24)],
    );

    const pruned = await pruneBookkeeping(dataSource, { outboxHours: 168, processedEventsHours: 336, idempotencyKeyHours: 24, accountEventsDays: 30, batchSize: 1 });

    expect(pruned.outbox).toBeGreaterThanOrEqual(1);
    const outbox = (await dataSource.query(`SELECT event_id FROM outbox WHERE topic = 'retention.documents'`)).map((r: { event_id: string }) => r.event_id);
    expect(outbox.sort()).toEqual([recentPublished, neverPublished, parked].sort());
    expect(outbox).not.toContain(oldPublished);
    const marks = (await dataSource.query(`SELECT event_id FROM processed_events WHERE consumer_group = 'retention'`)).map((r: { event_id: string }) => r.event_id);
    expect(marks).toEqual([recentMark]);
    const keys = (await dataSource.query(`SELECT key FROM idempotency_keys WHERE tenant_id = $1`, [tenant.id])).map((r: { key: string }) => r.key);
    expect(keys).toEqual(['recent']);
    expect(pruned.accountEvents).toBeGreaterThanOrEqual(1);
    const events = (await dataSource.query(`SELECT id FROM account_events WHERE tenant_id = $1`, [tenant.id])).map((r: { id: string }) => r.id);
    expect(events).toEqual([recentEvent]);
  });
});
