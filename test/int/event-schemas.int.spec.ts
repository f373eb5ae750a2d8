// #8: event schema evolution on real PostgreSQL. A stream holding a schema-1 event is read in the
// current shape (upcasters), commands decide on it, and new events are written at the current version.
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { type AuthorityReportAcceptedData, type AuthorityReportRequestedData, authorityReportDecider, authorityReportStreamId } from '@einvoice/domain';
import { type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../support/database';

describe('#8 upcasters on the read path (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => dataSource?.destroy());

  const requested = (reportId: string): AuthorityReportRequestedData => ({
    reportId, documentId: randomUUID(), tenantId: randomUUID(), supplierId: randomUUID(), area: 'ar', ruleSetId: 'afip:wsfev1:1.0', documentNumber: `N-${reportId.slice(0, 8)}`,
    documentType: 'invoice', fields: {}, document: { bytes: '{}', mediaType: 'application/json', sha256: 'h' }, payload: {}, requestedAt: new Date().toISOString(),
  });
  const insert = (streamId: string, position: number, type: string, schemaVersion: number, data: object) =>
    dataSource.query(`INSERT INTO events (event_id, stream_id, stream_position, type, schema_version, data, metadata) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      randomUUID(), streamId, position, type, schemaVersion, data, { tenantId: 't' },
    ]);

  it('reads a schema-1 AuthorityReportAccepted (no `final`: every acceptance was final then) in the current shape and decides on it', async () => {
    const reportId = randomUUID();
    const streamId = authorityReportStreamId(reportId);
    const request = requested(reportId);
    await insert(streamId, 1, 'AuthorityReportRequested', 1, request);
    await insert(streamId, 2, 'AuthorityReportAccepted', 1, { reportId, documentId: request.documentId, receipt: { cae: '1' }, recovered: false, acceptedAt: new Date().toISOString() });
    const [, accepted] = await store.readStream(streamId);
    expect(accepted.schemaVersion).toBe(2);
    expect((accepted.data as AuthorityReportAcceptedData).final).toBe(true);
    // Final, so the report is accepted for good: a cancellation may be asked for.
    const recorded = await store.transaction((uow) =>
      handleCommand(uow, authorityReportDecider, streamId, { type: 'RequestReportCancellation', data: { reportId, reason: 'Wrong buyer', requestedAt: new Date().toISOString() } }, { tenantId: 't' }),
    );
    expect(recorded.map((e) => e.type)).toEqual(['AuthorityReportCancellationRequested']);
  });

  it('writes a new AuthorityReportAccepted at the current schema version', async () => {
    const reportId = randomUUID();
    const streamId = authorityReportStreamId(reportId);
    await store.transaction((uow) => handleCommand(uow, authorityReportDecider, streamId, { type: 'RequestAuthorityReport', data: requested(reportId) }, { tenantId: 't' }));
    await store.transaction((uow) =>
      handleCommand(uow, authorityReportDecider, streamId, {
        type: 'RecordAuthorityAnswer',
        data: { reportId, answer: { kind: 'accepted', receipt: {}, recovered: false, final: true, at: new Date().toISOString() } },
      }, { tenantId: 't' }),
    );
    const [row] = await dataSource.query(`SELECT schema_version FROM events WHERE stream_id = $1 AND type = 'AuthorityReportAccepted'`, [streamId]);
    expect(Number(row.schema_version)).toBe(2);
  });
});
