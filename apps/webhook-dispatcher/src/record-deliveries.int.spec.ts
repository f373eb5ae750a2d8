// The dispatcher's Kafka side on real PostgreSQL and Redis: which deliveries a MyInvois event
// records (one per subscription wanting it and per document), in the processed-mark transaction.
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '@einvoice/domain';
import { workerContext as context } from '../../../test/support/myinvois-worker';
import { webhookSources } from '@einvoice/areas';
import { recorderFixture } from './test/recorder-fixture';

describe('webhook dispatcher: deliveries of received documents (real PostgreSQL and Redis; MyInvois\'s lifecycle: report-webhooks.int.spec.ts)', () => {
  const run = Date.now().toString(36);
  const fixture = recorderFixture('webhooks-record', webhookSources());
  const { recorder, subscribe, deliveriesOf } = fixture;
  const receivedBy = (supplierId: string): RecordedEvent => {
    const documentId = randomUUID();
    return {
      eventId: randomUUID(), streamId: `document-${documentId}`, streamPosition: 1, globalPosition: '1', type: 'DocumentReceived', schemaVersion: 1,
      data: { documentId, supplierId, documentNumber: `MY-IN-${run}` }, metadata: { tenantId: randomUUID() }, recordedAt: new Date().toISOString(),
    } as RecordedEvent;
  };

  it('DocumentReceived reaches a Malaysian supplier\'s subscription to PeppolReceived (its synonym), once', async () => {
    const supplierId = randomUUID();
    const subscription = await subscribe(supplierId, ['PeppolReceived']);
    const unrelated = await subscribe(supplierId, ['MyInvoisValid']);
    const received = receivedBy(supplierId);
    const handle = recorder();
    await handle(received, context);
    await handle(received, context);
    expect((await deliveriesOf(subscription)).map((r) => [r.event_type, r.event_id, JSON.parse(r.payload).EventType])).toEqual([['DocumentReceived', received.eventId, 'PeppolReceived']]);
    expect(await deliveriesOf(unrelated)).toEqual([]);
  });

  it('an event no subscription wants writes nothing (no transaction, no processed mark): a redelivery after a subscription came records its delivery', async () => {
    const supplierId = randomUUID();
    const received = receivedBy(supplierId);
    const groupId = `dispatcher-${randomUUID()}`;
    const handle = recorder(groupId);
    await handle(received, context);
    const marks = () => fixture.dataSource.query(`SELECT 1 FROM processed_events WHERE consumer_group = $1 AND event_id = $2`, [groupId, received.eventId]);
    expect(await marks()).toEqual([]);

    const subscription = await subscribe(supplierId, ['DocumentReceived']);
    await handle(received, context);
    expect((await deliveriesOf(subscription)).map((r) => r.event_id)).toEqual([received.eventId]);
    expect(await marks()).toHaveLength(1);
  });

  it('events handled at the same moment (their subscribers looked up in one query) each reach their own supplier\'s subscriptions, and only those', async () => {
    const suppliers = [randomUUID(), randomUUID(), randomUUID()];
    const wanted = await Promise.all(suppliers.map((supplierId) => subscribe(supplierId, ['DocumentReceived'])));
    const synonym = await subscribe(suppliers[0], ['PeppolReceived']);
    const other = await subscribe(suppliers[1], ['MyInvoisValid']);
    const events = suppliers.map(receivedBy);
    const handle = recorder();
    await Promise.all([...events, receivedBy(randomUUID())].map((event) => handle(event, context)));
    for (const [i, subscription] of wanted.entries()) expect((await deliveriesOf(subscription)).map((r) => r.event_id)).toEqual([events[i].eventId]);
    expect((await deliveriesOf(synonym)).map((r) => r.event_id)).toEqual([events[0].eventId]);
    expect(await deliveriesOf(other)).toEqual([]);
  });

  it('events committed together (one statement, issue 11) with one already handled among them: each of the others gets its delivery, the handled one keeps its one', async () => {
    const suppliers = [randomUUID(), randomUUID(), randomUUID()];
    const subscriptions = await Promise.all(suppliers.map((supplierId) => subscribe(supplierId, ['DocumentReceived'])));
    const events = suppliers.map(receivedBy);
    const handle = recorder();
    await handle(events[0], context);
    // The group's statement fails on the handled event's processed mark: each unit is then sent alone.
    await Promise.all(events.map((event) => handle(event, context)));
    for (const [i, subscription] of subscriptions.entries()) expect((await deliveriesOf(subscription)).map((r) => r.event_id)).toEqual([events[i].eventId]);
  });
});
