// #8: event schema evolution on real PostgreSQL. A stream holding a schema-1 event is read in the
// current shape (upcasters), commands decide on it, and new events are written at the current version.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type MyInvoisDocumentsSubmittedData, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../support/database';

describe('#8 upcasters on the read path (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  const submitted = (submissionId: string, documents: Array<Record<string, unknown>>) => ({
    submissionId, tenantId: randomUUID(), supplierId: randomUUID(), kind: 'invoice', documents, submittedAt: new Date().toISOString(),
  });
  const doc = { documentId: randomUUID(), invoiceCodeNumber: 'INV-1', format: 'JSON', document: '{}', documentHash: 'h' };

  it('reads a schema-1 MyInvoisDocumentsSubmitted in the current shape and decides on it', async () => {
    const submissionId = randomUUID();
    const streamId = myInvoisSubmissionStreamId(submissionId);
    // As an earlier version wrote it: schema 1, the copy sent at submission named `peppolDocumentId`.
    await dataSource.query(
      `INSERT INTO events (event_id, stream_id, stream_position, type, schema_version, data, metadata) VALUES ($1, $2, 1, 'MyInvoisDocumentsSubmitted', 1, $3, $4)`,
      [randomUUID(), streamId, submitted(submissionId, [{ ...doc, peppolDocumentId: 'copy-1' }]), { tenantId: 't' }],
    );
    const [event] = await store.readStream(streamId);
    expect(event.schemaVersion).toBe(2);
    expect((event.data as MyInvoisDocumentsSubmittedData).documents[0].peppol).toEqual({ documentId: 'copy-1', sentAtSubmission: true });
    const recorded = await store.transaction((uow) =>
      handleCommand(uow, myInvoisSubmissionDecider, streamId, {
        type: 'RecordSubmissionAttempt',
        data: { submissionId, attempt: 1, attemptedAt: new Date().toISOString(), codeNumbers: ['INV-1'] },
      }, { tenantId: 't' }),
    );
    expect(recorded.map((e) => e.type)).toEqual(['MyInvoisSubmissionAttempted']);
  });

  it('writes a new MyInvoisDocumentsSubmitted at the current schema version', async () => {
    const submissionId = randomUUID();
    const data = submitted(submissionId, [doc]) as unknown as MyInvoisDocumentsSubmittedData;
    await store.transaction((uow) => handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(submissionId), { type: 'SubmitToMyInvois', data }, { tenantId: 't' }));
    const [row] = await dataSource.query(`SELECT schema_version FROM events WHERE stream_id = $1`, [myInvoisSubmissionStreamId(submissionId)]);
    expect(Number(row.schema_version)).toBe(2);
  });
});
