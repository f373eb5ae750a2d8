// #48: the webhook dispatcher's tail is woken on `account_events` AFTER the commit of a unit of work that wrote a
// document (the projections announce it), not by a NOTIFY inside the writing transaction: that one holds a
// database-wide lock through the commit's WAL flush, so every transaction writing a document committed one at a
// time (migration 1732200002010).
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createLogger } from '@einvoice/domain';
import { ACCOUNT_EVENTS_CHANNEL, type EventStore, PgListener, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../support/database';
import { waitUntil } from '../support/wait';
import { appendReportRequest, toyReportRequest } from '../support/toy-reports';

describe('#48 account events: the tail\'s wake-up is sent after the commit', () => {
  let dataSource: DataSource;
  let store: EventStore;
  let listener: PgListener;
  let heard = 0;
  let listening = false;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    listener = new PgListener({ connectionString: loadInfrastructureConfig().databaseUrl, applicationName: 'einvoice-int-test-listener', log: createLogger('test', 'error') });
    listener.subscribe(ACCOUNT_EVENTS_CHANNEL, { notified: () => (heard += 1), resubscribed: () => (listening = true) });
    await listener.start();
    await waitUntil('the listener is up', async () => listening, 10_000);
  });

  afterAll(async () => {
    await listener?.stop();
    await dataSource?.destroy();
  });

  it('the trigger records the step but sends no NOTIFY of its own', async () => {
    const [{ definition }] = await dataSource.query(`SELECT pg_get_functiondef('account_event_capture()'::regprocedure) AS definition`);
    expect(definition).toContain('account_event_record');
    expect(definition).not.toMatch(/pg_notify/i);
  });

  it('a unit of work that writes a document (a report\'s row) announces account_events once committed', async () => {
    const before = heard;
    const request = toyReportRequest(`AW-${randomUUID().slice(0, 8)}`);
    await appendReportRequest(store, request);
    const [event] = await dataSource.query(`SELECT type FROM account_events WHERE document_id = $1`, [request.documentId]);
    expect(event).toEqual({ type: 'document.accepted' });
    await waitUntil('account_events heard', async () => heard > before, 10_000);
  });
});
