import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MyInvoisSubmissionCommand, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/domain';
import { EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import { openTestDatabase } from '../../../../test/support/database';
import { watchedSuppliers } from './rejection-watch';

const HOUR = 3_600_000;
const now = Date.parse('2026-03-20T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe('#4 MyInvois rejection watch: which documents a scan asks about (real PostgreSQL)', () => {
  let dataSource: DataSource;
  let store: EventStore;

  beforeAll(async () => {
    ({ dataSource, store } = await openTestDatabase());
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  /** One submission of one document through the decider, up to `outcome` (as the reporting worker records it). */
  async function document(supplierId: string, submittedAt: number, outcome: 'valid' | 'invalid' | 'rejected_by_buyer' | 'cancelled' | 'submitted', validatedAt = submittedAt + 60_000) {
    const submissionId = randomUUID();
    const documentId = randomUUID();
    const uuid = `U${randomUUID().replace(/-/g, '').slice(0, 25).toUpperCase()}`;
    const commands: MyInvoisSubmissionCommand[] = [
      {
        type: 'SubmitToMyInvois',
        data: {
          submissionId, tenantId: randomUUID(), supplierId, kind: 'invoice', submittedAt: iso(submittedAt),
          documents: [{ documentId, invoiceCodeNumber: `INV-${documentId}`, format: 'JSON', document: '{}', documentHash: 'h' }],
        },
      },
      {
        type: 'RecordSubmissionAccepted',
        data: { submissionId, submissionUid: 'UID', acceptedDocuments: [{ documentId, uuid, invoiceCodeNumber: `INV-${documentId}` }], rejectedDocuments: [], acceptedAt: iso(submittedAt + 1_000) },
      },
    ];
    if (outcome !== 'submitted') {
      const status = outcome === 'invalid' ? 'Invalid' : 'Valid';
      commands.push({ type: 'RecordPoll', data: { submissionId, pollNo: 1, maxPolls: 10, documents: [{ uuid, status, longId: 'L' }], polledAt: iso(validatedAt) } });
    }
    if (outcome === 'rejected_by_buyer') commands.push({ type: 'RecordRejectionByBuyer', data: { submissionId, uuid, reason: 'No', requestedAt: iso(validatedAt + HOUR) } });
    if (outcome === 'cancelled') {
      commands.push({ type: 'RequestCancellation', data: { submissionId, documentId, uuid, reason: 'x', requestedAt: iso(validatedAt + HOUR) } });
      commands.push({ type: 'RecordCancellation', data: { submissionId, uuid, at: iso(validatedAt + HOUR) } });
    }
    for (const command of commands) {
      await store.transaction((uow) => handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(submissionId), command, { tenantId: 't' }));
    }
    return { submissionId, documentId, uuid };
  }

  it('asks, per supplier, about its valid documents validated less than 72 h ago, from the oldest one\'s submission − 1 min to now', async () => {
    const supplier = randomUUID();
    const open = await document(supplier, now - 10 * HOUR);
    const newer = await document(supplier, now - 2 * HOUR);
    await document(supplier, now - 80 * HOUR); // validated 80 h ago: MyInvois no longer takes a rejection
    await document(supplier, now - 20 * HOUR, 'rejected_by_buyer'); // recorded before: not asked again
    await document(supplier, now - 30 * HOUR, 'invalid');
    await document(supplier, now - 30 * HOUR, 'cancelled');
    await document(supplier, now - 1 * HOUR, 'submitted');
    const quiet = randomUUID();
    await document(quiet, now - 5 * HOUR, 'invalid');

    const watched = (await watchedSuppliers(dataSource, now)).filter((s) => s.supplierId === supplier || s.supplierId === quiet);

    expect(watched).toHaveLength(1);
    expect(watched[0].supplierId).toBe(supplier);
    expect([...watched[0].documents.values()]).toEqual([open, newer]);
    expect(watched[0].submissionDateFrom).toBe('2026-03-20T01:59:00Z');
    expect(watched[0].submissionDateTo).toBe('2026-03-20T12:00:00Z');
  });

  it('a document validated 71 h 59 min ago is watched; at 72 h 1 min it is not', async () => {
    const supplier = randomUUID();
    const inside = await document(supplier, now - 80 * HOUR, 'valid', now - 72 * HOUR + 60_000);
    await document(supplier, now - 80 * HOUR, 'valid', now - 72 * HOUR - 60_000);
    const [watched] = (await watchedSuppliers(dataSource, now)).filter((s) => s.supplierId === supplier);
    expect([...watched.documents.keys()]).toEqual([inside.uuid]);
    // Submitted 80 h ago: the window starts there, a minute earlier.
    expect(watched.submissionDateFrom).toBe(iso(now - 80 * HOUR - 60_000).replace('.000Z', 'Z'));
  });
});
