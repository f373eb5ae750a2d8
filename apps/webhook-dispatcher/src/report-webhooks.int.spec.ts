// The dispatcher's Kafka side on real PostgreSQL and Redis for the generic report events (#8): each
// event is routed to the area of its document's `documents` row, so a type several areas share makes
// MyInvois's webhooks for MyInvois documents only.
import { randomUUID } from 'node:crypto';
import {
  type AuthorityReportCommand,
  type AuthorityReportRequestedData,
  type RecordedEvent,
  authorityReportDecider,
  authorityReportStreamId,
} from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois, registeredAreas, webhookSources } from '@einvoice/areas';
import { workerContext as context } from '../../../test/support/myinvois-worker';
import { portal, recorderFixture } from './test/recorder-fixture';

// The registry's areas with the test-only one (the toy area's reports make no webhooks).
const sources = webhookSources(registeredAreas({ EINVOICE_TEST_AREAS: '1' }));

describe('#8 webhook dispatcher: deliveries of report events, by the area of their document (real PostgreSQL and Redis)', () => {
  const run = Date.now().toString(36);
  const fixture = recorderFixture('webhooks-report', sources);
  const { recorder, subscribe, deliveriesOf } = fixture;

  /** A report of `area` for `supplierId`, as the gateway appends it, then the commands that move it (as the reporting worker does). */
  async function report(area: string, supplierId: string, tenantId: string, number: string, commands: (reportId: string, at: string) => AuthorityReportCommand[]) {
    const data: AuthorityReportRequestedData = {
      reportId: randomUUID(), documentId: randomUUID(), tenantId, supplierId, area, ruleSetId: `${area}:invoice:1.0`, documentNumber: number, documentType: 'invoice',
      fields: { ID: number }, document: { bytes: '{}', mediaType: 'application/json', sha256: '44136fa3' }, payload: {}, requestedAt: new Date().toISOString(),
    };
    const streamId = authorityReportStreamId(data.reportId);
    for (const command of [{ type: 'RequestAuthorityReport', data } as AuthorityReportCommand, ...commands(data.reportId, new Date().toISOString())]) {
      await fixture.store.transaction((uow) => handleCommand(uow, authorityReportDecider, streamId, command, { tenantId }));
    }
    const history = (await fixture.store.transaction((uow) => uow.readStream(streamId))) as RecordedEvent[];
    return { documentId: data.documentId, history, eventOf: (type: string) => history.find((e) => e.type === type)! };
  }

  it('a MyInvois document validated then cancelled, another refused: MyInvois\'s bodies from the events; a toy document\'s cancellation makes none', async () => {
    const supplierId = randomUUID();
    const tenantId = randomUUID();
    const subscriptionId = await subscribe(supplierId, [...myinvois.MYINVOIS_EVENT_NAMES], tenantId);

    const valid = await report('my', supplierId, tenantId, `OK-${run}`, (reportId, at) => [
      { type: 'RecordAuthorityAnswer', data: { reportId, answer: { kind: 'accepted', receipt: { uuid: `U-${run}`, submissionUid: 'S1', status: 'Submitted' }, recovered: false, final: false, at } } },
      { type: 'RecordReportPoll', data: { reportId, pollNo: 1, maxPolls: 3, verdict: { kind: 'accepted', receipt: { status: 'Valid', longId: `L-${run}` } }, polledAt: at, nextPollAt: at } },
      { type: 'RequestReportCancellation', data: { reportId, reason: 'Wrong buyer', requestedAt: at } },
      { type: 'RecordCancellationAnswer', data: { reportId, at } },
    ]);
    const error = { code: 'DS302', message: 'This document is already submitted', target: `NO-${run}` };
    const refused = await report('my', supplierId, tenantId, `NO-${run}`, (reportId, at) => [{ type: 'RecordAuthorityAnswer', data: { reportId, answer: { kind: 'rejected', error, at } } }]);
    // Same supplier, same shared event type, another area (without report webhooks).
    const toy = await report('toy', supplierId, tenantId, `TOY-${run}`, (reportId, at) => [
      { type: 'RecordAuthorityAnswer', data: { reportId, answer: { kind: 'accepted', receipt: {}, recovered: false, final: true, at } } },
      { type: 'RequestReportCancellation', data: { reportId, reason: 'Wrong buyer', requestedAt: at } },
      { type: 'RecordCancellationAnswer', data: { reportId, at } },
    ]);

    // Handled after all of them committed: the valid document's row is `cancelled` by now.
    const handle = recorder();
    const everything = [...valid.history, ...refused.history, ...toy.history];
    for (const event of everything) await handle(event, context);

    const rows = await deliveriesOf(subscriptionId);
    expect(rows.map((r) => [r.event_type, r.event_id])).toEqual([
      ['MyInvoisCancelled', valid.eventOf('AuthorityReportCancelled').eventId],
      ['MyInvoisRejected', refused.eventOf('AuthorityReportRejected').eventId],
      ['MyInvoisValid', valid.eventOf('AuthorityReportValidated').eventId],
    ]);
    const [cancelled, rejected, validated] = rows.map((r) => JSON.parse(r.payload));
    expect(validated).toEqual({
      Event: 'DocumentValidated', EventType: 'MyInvoisValid', EventGroup: 'Invoice', uuid: `U-${run}`, DocumentId: `OK-${run}`, Status: 'valid',
      GatewayDocumentId: valid.documentId, LongId: `L-${run}`, ValidationLink: `${portal}/U-${run}/share/L-${run}`, Reason: null, Error: null,
      OccurredAt: (valid.eventOf('AuthorityReportValidated').data as { validatedAt: string }).validatedAt,
    });
    expect(cancelled).toMatchObject({ EventType: 'MyInvoisCancelled', Status: 'cancelled', uuid: `U-${run}`, LongId: `L-${run}`, GatewayDocumentId: valid.documentId });
    expect(rejected).toMatchObject({
      EventType: 'MyInvoisRejected', Status: 'rejected', uuid: null, DocumentId: `NO-${run}`, GatewayDocumentId: refused.documentId,
      Reason: error.message, Error: { ...error, propertyPath: null, details: null },
    });
    for (const row of rows) expect((await fixture.queue.getJob(row.id))?.data).toEqual({ deliveryId: row.id });

    // At-least-once: the same events again add nothing.
    for (const event of everything) await handle(event, context);
    expect((await deliveriesOf(subscriptionId)).map((r) => r.id)).toEqual(rows.map((r) => r.id));
  });
});
