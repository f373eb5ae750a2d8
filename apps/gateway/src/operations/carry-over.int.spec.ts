// `cli migrate`'s carry-over on real PostgreSQL: MyInvois documents of before #8 (the submission
// aggregate's streams, written here as that model stored them) become reports with their documents
// rows, once; only an unanswered cancellation reaches the outbox.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createLogger, documentDecider, documentStreamId, timeOrderedUuid } from '@einvoice/domain';
import { type EventStore, handleCommand, platformEventRegistry } from '@einvoice/domain/infrastructure';
import { type AreaDefinition, areaEventPlugins, findArea, myinvois } from '@einvoice/areas';
import { openTestDatabase } from '../../../../test/support/database';
import { documentSubmitted } from '../../../../test/support/fixtures';
import { runReportCarryOvers } from './carry-over';

describe('#8 carrying MyInvois documents of before the reporting pipeline onto it (real PostgreSQL)', () => {
  const run = Date.now().toString(36);
  let dataSource: DataSource;
  let store: EventStore;
  const registry = platformEventRegistry(areaEventPlugins());
  const log = createLogger('test', 'error');

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** MyInvois as registered, its carry-over under a name of this run (the table records names once per database). */
  const areaOfRun = (): AreaDefinition => {
    const my = findArea('my') as AreaDefinition;
    const carryOver = myinvois.myInvoisCarryOver(my.ruleSetId);
    return { ...my, authority: { ...my.authority!, carryOvers: [{ ...carryOver, name: `${carryOver.name}:${run}:${randomUUID()}` }] } };
  };

  /** Appends events to a stream as the earlier model did (its types are no longer registered). */
  async function legacyStream(streamId: string, events: Array<{ type: string; data: Record<string, unknown>; schemaVersion?: number }>) {
    for (const [index, e] of events.entries()) {
      await dataSource.query(
        `INSERT INTO events (event_id, stream_id, stream_position, type, schema_version, data, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [timeOrderedUuid(), streamId, index + 1, e.type, e.schemaVersion ?? 1, e.data, { tenantId: randomUUID() }],
      );
    }
  }

  it('writes each document as a report once, with its documents row where the earlier model left it; only a cancellation in flight is published', async () => {
    const submissionId = randomUUID();
    const tenantId = randomUUID();
    const supplierId = randomUUID();
    const doc = (code: string, peppol?: Record<string, unknown>) => ({
      documentId: randomUUID(), invoiceCodeNumber: `${code}-${run}`, format: 'JSON', document: `{"ID":"${code}"}`, documentHash: `h-${code}`, ...(peppol ? { peppol } : {}),
    });
    const copyId = timeOrderedUuid();
    const valid = doc('V');
    const waiting = doc('W');
    const cancelling = doc('X', { documentId: copyId, documentType: '380', senderParticipantId: 'iso6523-actorid-upis::0230:S', receiverParticipantId: 'iso6523-actorid-upis::0230:R', xml: '<Invoice/>', fields: { ID: 'X' } });
    const never = doc('N');
    // X's PINT MY copy went over Peppol when it became valid: its own documents row, as the earlier model made it.
    await store.transaction((uow) =>
      handleCommand(uow, documentDecider, documentStreamId(copyId), {
        type: 'SubmitDocument',
        data: documentSubmitted({ documentId: copyId, tenantId, supplierId, area: 'my', documentNumber: cancelling.invoiceCodeNumber }),
      }, { tenantId }, { newStream: true }),
    );
    await legacyStream(`myinvois-${submissionId}`, [
      { type: 'MyInvoisDocumentsSubmitted', schemaVersion: 2, data: { submissionId, tenantId, supplierId, kind: 'invoice', documents: [valid, waiting, cancelling, never], submittedAt: new Date(Date.now() - 60_000).toISOString() } },
      {
        type: 'MyInvoisSubmissionAccepted',
        data: {
          submissionId, submissionUid: `SUB-${run}`, rejectedDocuments: [], acceptedAt: new Date(Date.now() - 59_000).toISOString(),
          acceptedDocuments: [valid, waiting, cancelling].map((d) => ({ documentId: d.documentId, uuid: `U-${d.invoiceCodeNumber}`, invoiceCodeNumber: d.invoiceCodeNumber })),
        },
      },
      { type: 'MyInvoisDocumentValidated', data: { submissionId, documentId: valid.documentId, uuid: `U-${valid.invoiceCodeNumber}`, longId: 'LONG-V', validatedAt: new Date(Date.now() - 50_000).toISOString() } },
      { type: 'MyInvoisDocumentValidated', data: { submissionId, documentId: cancelling.documentId, uuid: `U-${cancelling.invoiceCodeNumber}`, longId: 'LONG-X', validatedAt: new Date(Date.now() - 50_000).toISOString() } },
      { type: 'MyInvoisDocumentCancellationRequested', data: { submissionId, documentId: cancelling.documentId, uuid: `U-${cancelling.invoiceCodeNumber}`, reason: 'Wrong buyer', requestedAt: new Date(Date.now() - 10_000).toISOString() } },
    ]);

    const area = areaOfRun();
    const [result] = await runReportCarryOvers(dataSource, [area], { registry, kafkaPrefix: 'test', log });
    expect(result).toMatchObject({ carried: 4, skipped: 0 });

    const rowOf = async (id: string) =>
      (await dataSource.query(`SELECT report_id, report_state, batch_key, delivery_status, authority, next_poll_at <= now() AS poll_due FROM documents WHERE id = $1`, [id]))[0];
    expect(await rowOf(valid.documentId)).toMatchObject({ report_state: 'reported', batch_key: submissionId, authority: { receipt: { uuid: `U-${valid.invoiceCodeNumber}`, submissionUid: `SUB-${run}`, status: 'Valid', longId: 'LONG-V' } } });
    // Waiting for its verdict: the poll sweep asks at once.
    expect(await rowOf(waiting.documentId)).toMatchObject({ report_state: 'processing', poll_due: true });
    // Never answered: the batch sweep sends it.
    expect(await rowOf(never.documentId)).toMatchObject({ report_state: 'pending', batch_key: submissionId });
    // Its copy's row carries the report: the delivery and the cancellation side by side; no row of its own.
    expect(await rowOf(copyId)).toMatchObject({ report_state: 'cancelling', delivery_status: 'Scheduled' });
    expect(await rowOf(cancelling.documentId)).toBeUndefined();

    const published = await dataSource.query(
      `SELECT o.message_type FROM outbox o JOIN documents d ON o.aggregate_id = 'report-' || d.report_id WHERE d.id = ANY($1::uuid[])`,
      [[valid.documentId, waiting.documentId, never.documentId, copyId]],
    );
    expect(published.map((r: { message_type: string }) => r.message_type)).toEqual(['AuthorityReportCancellationRequested']);

    // Once per name; run again under a new name (a run cut short), nothing is written twice.
    expect(await runReportCarryOvers(dataSource, [{ ...area }], { registry, kafkaPrefix: 'test', log })).toEqual([]);
    const again = await runReportCarryOvers(dataSource, [areaOfRun()], { registry, kafkaPrefix: 'test', log });
    expect(again[0]).toMatchObject({ carried: 0 });
    const requested = await dataSource.query(
      `SELECT count(*)::int AS n FROM events e JOIN documents d ON e.stream_id = 'report-' || d.report_id WHERE d.id = ANY($1::uuid[]) AND e.type = 'AuthorityReportRequested'`,
      [[valid.documentId, waiting.documentId, never.documentId, copyId]],
    );
    expect(requested[0].n).toBe(4);
  });
  it('writes each buyer\'s rejection request of before #8 as the report the gateway now makes (direction incoming), with MyInvois\'s answer; nothing is published', async () => {
    const tenantId = randomUUID();
    const buyerId = randomUUID();
    const uuid = `RJ${run}`.toUpperCase();
    const error = { code: 'Forbidden', message: 'Rejection is allowed for recipient of the document only.' };
    const at = (s: number) => new Date(Date.now() - 60_000 + s * 1000).toISOString();
    await legacyStream(`myinvois-rejection-${randomUUID()}`, [
      { type: 'MyInvoisBuyerRejectionRequested', data: { rejectionId: 'r', tenantId, supplierId: buyerId, uuid, reason: 'Wrong', requestedAt: at(0) } },
      { type: 'MyInvoisBuyerRejectionRefused', data: { rejectionId: 'r', uuid, kind: 'forbidden', error, refusedAt: at(1) } },
      { type: 'MyInvoisBuyerRejectionRequested', data: { rejectionId: 'r', tenantId, supplierId: buyerId, uuid, reason: 'Not ordered', requestedAt: at(2) } },
    ]);
    const my = findArea('my') as AreaDefinition;
    const carryOver = myinvois.myInvoisRejectionCarryOver(my.ruleSetId);
    const area = { ...my, authority: { ...my.authority!, carryOvers: [{ ...carryOver, name: `${carryOver.name}:${run}:${randomUUID()}` }] } };

    const [result] = await runReportCarryOvers(dataSource, [area], { registry, kafkaPrefix: 'test', log });
    expect(result.carried).toBeGreaterThanOrEqual(2);

    const rows = await dataSource.query(
      `SELECT id, direction, document_type, report_state, batch_key, fields, authority FROM documents WHERE supplier_id = $1 AND document_number = $2 ORDER BY created_at`,
      [buyerId, uuid],
    );
    expect(rows).toEqual([
      expect.objectContaining({ id: myinvois.rejectionReportId(buyerId, uuid, 0), direction: 'incoming', document_type: 'rejection', report_state: 'rejected', authority: expect.objectContaining({ error, receipt: { refusal: 'forbidden' } }) }),
      // Never answered: the batch sweep sends it (its own batch).
      expect.objectContaining({ id: myinvois.rejectionReportId(buyerId, uuid, 1), direction: 'incoming', report_state: 'pending', batch_key: `rejection:${myinvois.rejectionReportId(buyerId, uuid, 1)}`, fields: { uuid, reason: 'Not ordered' } }),
    ]);
    const published = await dataSource.query(`SELECT count(*)::int AS n FROM outbox WHERE aggregate_id = ANY($1::text[])`, [rows.map((r: { id: string }) => `report-${r.id}`)]);
    expect(published[0].n).toBe(0);
  });
});
