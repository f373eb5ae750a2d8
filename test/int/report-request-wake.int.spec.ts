// #11: a batched area's report request does not travel through the outbox and Kafka (the batch sweep
// finds its report in `documents`); it is announced on `report_requested` after its commit, which
// wakes the reporting worker's sweep. An unbatched area's request is published as before.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createLogger } from '@einvoice/domain';
import { type EventStore, PgListener, REPORT_REQUESTED_CHANNEL, loadInfrastructureConfig } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../support/database';
import { waitUntil } from '../support/wait';
import { appendReportRequest, toyReportRequest } from '../support/toy-reports';

describe('#11 report requests of batched areas: announced, not published', () => {
  let dataSource: DataSource;
  let store: EventStore;
  let listener: PgListener;
  const heard: string[] = [];
  let listening = false;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
    listener = new PgListener({ connectionString: loadInfrastructureConfig().databaseUrl, applicationName: 'einvoice-int-test-listener', log: createLogger('test', 'error') });
    listener.subscribe(REPORT_REQUESTED_CHANNEL, { notified: (area) => heard.push(area), resubscribed: () => (listening = true) });
    await listener.start();
    await waitUntil('the listener is up', async () => listening, 10_000);
  });

  afterAll(async () => {
    await listener?.stop();
    await dataSource?.destroy();
  });

  const outboxRowsOf = async (eventId: string) => Number((await dataSource.query(`SELECT count(*) AS n FROM outbox WHERE event_id = $1`, [eventId]))[0].n);

  it('MyInvois (batched): no outbox row, its area announced after the commit', async () => {
    const requested = await appendReportRequest(store, toyReportRequest(`W-${randomUUID().slice(0, 8)}`, { area: 'my', batchKey: randomUUID() }));
    expect(await outboxRowsOf(requested.eventId)).toBe(0);
    await waitUntil('report_requested heard for my', async () => heard.includes('my'), 10_000);
  });

  it('an unbatched area (the toy): published as before, and announced too', async () => {
    const requested = await appendReportRequest(store, toyReportRequest(`W-${randomUUID().slice(0, 8)}`));
    expect(await outboxRowsOf(requested.eventId)).toBe(1);
    await waitUntil('report_requested heard for toy', async () => heard.includes('toy'), 10_000);
  });
});
