import type { RecordedEvent } from '@einvoice/domain';
import { peppolDocumentOf } from './peppol-copy';
import { myInvoisDocumentsSubmittedSchema } from './schema';
import type { MyInvoisDocumentsSubmittedData } from './events';

/** What the event registry does with the schema (libs/domain/src/infrastructure/plugins/event-registry.ts). */
const registry = {
  versionOf: (type: string) => (type === 'MyInvoisDocumentsSubmitted' ? myInvoisDocumentsSubmittedSchema.current : 1),
  upcast(event: RecordedEvent): RecordedEvent {
    if (event.type !== 'MyInvoisDocumentsSubmitted' || event.schemaVersion >= myInvoisDocumentsSubmittedSchema.current) return event;
    return { ...event, data: myInvoisDocumentsSubmittedSchema.upcasters[1](event.data as Record<string, unknown>), schemaVersion: 2 };
  },
};

const v1 = (documents: Array<Record<string, unknown>>, schemaVersion = 1): RecordedEvent => ({
  eventId: 'e',
  streamId: 'myinvois-1',
  streamPosition: 1,
  globalPosition: '1',
  type: 'MyInvoisDocumentsSubmitted',
  schemaVersion,
  data: { submissionId: 's', tenantId: 't', supplierId: 'p', kind: 'invoice', documents, submittedAt: 'x' },
  metadata: { tenantId: 't' },
  recordedAt: 'x',
});
const doc = { documentId: 'd-1', invoiceCodeNumber: 'INV-1', format: 'JSON', document: '{}', documentHash: 'h' };

describe('#8 MyInvoisDocumentsSubmitted schema evolution (upcasters)', () => {
  it('lifts a schema-1 copy sent at submission (peppolDocumentId) to peppol {documentId, sentAtSubmission}', () => {
    const lifted = registry.upcast(v1([{ ...doc, peppolDocumentId: 'copy-1' }]));
    expect(lifted.schemaVersion).toBe(2);
    expect((lifted.data as MyInvoisDocumentsSubmittedData).documents[0]).toEqual({ ...doc, peppol: { documentId: 'copy-1', sentAtSubmission: true } });
    // Readers need no test for the old shape: the copy already left, nothing is released again.
    const validated = { submissionId: 's', documentId: 'd-1', uuid: 'u', longId: 'l', validatedAt: 'x' };
    expect(peppolDocumentOf(lifted.data as MyInvoisDocumentsSubmittedData, validated)).toBeUndefined();
  });

  it('passes version-1 events that already hold a copy (or none) through unchanged, and leaves current ones alone', () => {
    const copy = { documentId: 'copy-2', documentType: '380', senderParticipantId: 'a', receiverParticipantId: 'b', xml: '<x/>', fields: {} };
    expect((registry.upcast(v1([{ ...doc, peppol: copy }, doc])).data as MyInvoisDocumentsSubmittedData).documents).toEqual([{ ...doc, peppol: copy }, doc]);
    const current = v1([doc], 2);
    expect(registry.upcast(current)).toBe(current);
    expect(registry.versionOf('MyInvoisDocumentsSubmitted')).toBe(2);
    expect(registry.versionOf('SomethingElse')).toBe(1);
  });
});
