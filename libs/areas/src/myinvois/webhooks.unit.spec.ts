import {
  type AuthorityReportBuyerRejected,
  type AuthorityReportCancelled,
  type AuthorityReportInvalidated,
  type AuthorityReportRejected,
  type AuthorityReportValidated,
  type RecordedEvent,
  deterministicUuid,
} from '@einvoice/domain';
import type { DocumentReportEvent, ReportedDocumentRow } from '../registry/webhooks';
import { type MyInvoisDocumentFacts, myInvoisPortalUrl, myInvoisReportWebhookSources, myInvoisValidationLink, myInvoisWebhookScope, myInvoisWebhooks } from './webhooks';

const portal = 'https://preprod.myinvois.hasil.gov.my';
const submissionId = '5f0c1d2e-0000-4000-8000-000000000001';
const eventId = '5f0c1d2e-0000-4000-8000-0000000000e1';
const supplierId = '5f0c1d2e-0000-4000-8000-0000000000aa';
const doc = (n: number, extra: Partial<MyInvoisDocumentFacts> = {}): MyInvoisDocumentFacts => ({
  documentId: `5f0c1d2e-0000-4000-8000-00000000000${n}`,
  supplierId,
  invoiceCodeNumber: `INV-${n}`,
  uuid: `UUID${n}`,
  longId: null,
  ...extra,
});
const event = (type: string, data: object): Pick<RecordedEvent, 'type' | 'data' | 'eventId'> => ({ type, data, eventId });
const bodies = (e: ReturnType<typeof event>, facts: MyInvoisDocumentFacts[]) => myInvoisWebhooks(e, facts, portal).map((w) => JSON.parse(w.body));

describe('MyInvois webhook bodies (README "Webhooks": one per document, envelope of seed 002)', () => {
  it('MyInvoisValid: the uuid, the ID, our id, longId and the validation link, Webhook-Id = the event id', () => {
    const validated = event('MyInvoisDocumentValidated', { submissionId, documentId: doc(1).documentId, uuid: 'UUID1', longId: 'LONG1', validatedAt: '2026-11-22T01:00:00.000Z' });
    const [webhook] = myInvoisWebhooks(validated, [doc(1)], portal);
    expect(webhook).toMatchObject({ webhookId: eventId, name: 'MyInvoisValid', supplierId });
    expect(webhook.body).toBe(
      JSON.stringify({
        Event: 'DocumentValidated', EventType: 'MyInvoisValid', EventGroup: 'Invoice', uuid: 'UUID1', DocumentId: 'INV-1', Status: 'valid',
        GatewayDocumentId: doc(1).documentId, LongId: 'LONG1', ValidationLink: `${portal}/UUID1/share/LONG1`, Reason: null, Error: null,
        OccurredAt: '2026-11-22T01:00:00.000Z',
      }),
    );
  });

  it('MyInvoisInvalid carries the authority\'s reason and no link; a document the event does not name gets nothing', () => {
    const invalidated = event('MyInvoisDocumentInvalidated', { submissionId, documentId: doc(2).documentId, uuid: 'UUID2', reason: 'Step03-Duplicated Submission Validator', invalidatedAt: 't' });
    expect(bodies(invalidated, [doc(1), doc(2)])).toEqual([
      expect.objectContaining({ EventType: 'MyInvoisInvalid', Status: 'invalid', DocumentId: 'INV-2', Reason: 'Step03-Duplicated Submission Validator', LongId: null, ValidationLink: null }),
    ]);
  });

  it('a submission refused as a whole: one MyInvoisRejected per document, each with its own stable Webhook-Id and the authority\'s error', () => {
    const error = { code: 'BadStructure', message: 'Submission is not valid', target: null, propertyPath: null, details: null };
    const refused = event('MyInvoisSubmissionRejected', { submissionId, error, rejectedAt: 't' });
    expect(myInvoisWebhookScope(refused)).toEqual({ submissionId, documentIds: null });
    const webhooks = myInvoisWebhooks(refused, [doc(1, { uuid: null }), doc(2, { uuid: null })], portal);
    expect(webhooks.map((w) => w.webhookId)).toEqual([
      deterministicUuid(`webhook-event:${eventId}:${doc(1).documentId}`),
      deterministicUuid(`webhook-event:${eventId}:${doc(2).documentId}`),
    ]);
    expect(new Set(webhooks.map((w) => w.webhookId)).size).toBe(2);
    expect(myInvoisWebhooks(refused, [doc(1, { uuid: null })], portal)[0].webhookId).toBe(webhooks[0].webhookId);
    expect(webhooks.map((w) => JSON.parse(w.body))).toEqual([
      expect.objectContaining({ EventType: 'MyInvoisRejected', Status: 'rejected', uuid: null, DocumentId: 'INV-1', Error: error, Reason: 'Submission is not valid' }),
      expect.objectContaining({ EventType: 'MyInvoisRejected', DocumentId: 'INV-2' }),
    ]);
  });

  it('an accepted submission: only the documents MyInvois refused get MyInvoisRejected; none refused is no webhook', () => {
    const error = { code: 'DS302', message: 'This document is already submitted', target: 'INV-2' };
    const accepted = (rejectedDocuments: object[]) =>
      event('MyInvoisSubmissionAccepted', { submissionId, submissionUid: 'S1', acceptedDocuments: [{ documentId: doc(1).documentId, uuid: 'UUID1', invoiceCodeNumber: 'INV-1' }], rejectedDocuments, acceptedAt: 't' });
    const some = accepted([{ documentId: doc(2).documentId, invoiceCodeNumber: 'INV-2', error }]);
    expect(myInvoisWebhookScope(some)).toEqual({ submissionId, documentIds: [doc(2).documentId] });
    expect(bodies(some, [doc(2, { uuid: null })])).toEqual([expect.objectContaining({ EventType: 'MyInvoisRejected', DocumentId: 'INV-2', Error: error })]);
    expect(myInvoisWebhookScope(accepted([]))).toBeUndefined();
  });

  it('MyInvoisCancelled and MyInvoisRejectedByBuyer keep the longId the document got at validation', () => {
    const facts = doc(3, { longId: 'LONG3' });
    const cancelled = event('MyInvoisDocumentCancelled', { submissionId, documentId: facts.documentId, uuid: 'UUID3', cancelledAt: 't1' });
    const byBuyer = event('MyInvoisDocumentRejectedByBuyer', { submissionId, documentId: facts.documentId, uuid: 'UUID3', reason: 'Goods not received', requestedAt: 't2' });
    expect(bodies(cancelled, [facts])).toEqual([expect.objectContaining({ Event: 'DocumentCancelled', EventType: 'MyInvoisCancelled', Status: 'cancelled', LongId: 'LONG3', OccurredAt: 't1' })]);
    expect(bodies(byBuyer, [facts])).toEqual([
      expect.objectContaining({ Event: 'DocumentRejectedByBuyer', EventType: 'MyInvoisRejectedByBuyer', Status: 'rejected_by_buyer', Reason: 'Goods not received', ValidationLink: `${portal}/UUID3/share/LONG3` }),
    ]);
  });

  it('events that change no state a supplier hears of are no webhook', () => {
    expect(myInvoisWebhookScope(event('MyInvoisSubmissionPolled', { submissionId, pollNo: 1, polledAt: 't' }))).toBeUndefined();
    expect(myInvoisWebhooks(event('MyInvoisDocumentCancellationRequested', { submissionId, documentId: doc(1).documentId }), [doc(1)], portal)).toEqual([]);
  });

  it('builds the validation link only with both ids, from the configured portal', () => {
    expect(myInvoisValidationLink('https://myinvois.hasil.gov.my/', 'U', 'L')).toBe('https://myinvois.hasil.gov.my/U/share/L');
    expect(myInvoisValidationLink(portal, 'U', null)).toBeNull();
    expect(myInvoisPortalUrl({})).toBe(portal);
    expect(myInvoisPortalUrl({ MYINVOIS_PORTAL_URL: 'https://myinvois.hasil.gov.my' })).toBe('https://myinvois.hasil.gov.my');
  });
});

describe('MyInvois webhooks from its documents\' report events (#8: same names and bodies as from its submissions)', () => {
  const row = (extra: Partial<ReportedDocumentRow> = {}): ReportedDocumentRow => ({
    id: doc(1).documentId,
    area: 'my',
    supplier_id: supplierId,
    tenant_id: '5f0c1d2e-0000-4000-8000-0000000000bb',
    document_number: 'INV-1',
    document_type: '01',
    report_state: 'processing',
    fields: {},
    authority: { receipt: { uuid: 'UUID1', submissionUid: 'S1', status: 'Submitted' } },
    created_at: new Date('2026-11-22T00:00:00.000Z'),
    ...extra,
  });
  const context = { query: async () => [], env: { MYINVOIS_PORTAL_URL: portal } };
  const reportEvent = <E extends DocumentReportEvent>(type: E['type'], data: E['data']): RecordedEvent<E> => ({
    eventId, streamId: 'report-r1', streamPosition: 3, globalPosition: '9', type, data, schemaVersion: 1, metadata: { tenantId: row().tenant_id }, recordedAt: 't',
  }) as RecordedEvent<E>;
  const reportId = '5f0c1d2e-0000-4000-8000-0000000000c1';
  const documentId = doc(1).documentId;
  const sources = myInvoisReportWebhookSources;

  it('AuthorityReportValidated → MyInvoisValid: the body the submission\'s event made, longId from the event\'s receipt, Webhook-Id = the event id', async () => {
    const validated = reportEvent<AuthorityReportValidated>('AuthorityReportValidated', { reportId, documentId, receipt: { status: 'Valid', longId: 'LONG1' }, validatedAt: '2026-11-22T01:00:00.000Z' });
    const [webhook, ...more] = await sources.AuthorityReportValidated!(validated, row(), context);
    expect(more).toEqual([]);
    expect(webhook).toEqual({ webhookId: eventId, name: 'MyInvoisValid', supplierId, body: expect.any(String) });
    const fromSubmission = event('MyInvoisDocumentValidated', { submissionId, documentId, uuid: 'UUID1', longId: 'LONG1', validatedAt: '2026-11-22T01:00:00.000Z' });
    expect(webhook.body).toBe(myInvoisWebhooks(fromSubmission, [doc(1)], portal)[0].body);
    expect(JSON.parse(webhook.body)).toMatchObject({ uuid: 'UUID1', DocumentId: 'INV-1', GatewayDocumentId: documentId, Status: 'valid', ValidationLink: `${portal}/UUID1/share/LONG1` });
  });

  it('AuthorityReportInvalidated → MyInvoisInvalid: the reason is the error\'s message, no error object, no link', async () => {
    const invalidated = reportEvent<AuthorityReportInvalidated>('AuthorityReportInvalidated', { reportId, documentId, error: { code: 'Invalid', message: 'Step03-Duplicated Submission Validator' }, invalidatedAt: 't1' });
    const [webhook] = await sources.AuthorityReportInvalidated!(invalidated, row({ report_state: 'invalid' }), context);
    expect(JSON.parse(webhook.body)).toEqual({
      Event: 'DocumentInvalidated', EventType: 'MyInvoisInvalid', EventGroup: 'Invoice', uuid: 'UUID1', DocumentId: 'INV-1', Status: 'invalid',
      GatewayDocumentId: documentId, LongId: null, ValidationLink: null, Reason: 'Step03-Duplicated Submission Validator', Error: null, OccurredAt: 't1',
    });
  });

  it('AuthorityReportRejected → MyInvoisRejected: no uuid yet, the error in MyInvois\'s shape (target and path kept, nulls where it said nothing)', async () => {
    const error = { code: 'DS302', message: 'This document is already submitted', target: 'INV-1', details: [{ code: 'CF321', message: 'Issuance date time is invalid', path: 'Invoice.IssueDate' }] };
    const rejected = reportEvent<AuthorityReportRejected>('AuthorityReportRejected', { reportId, documentId, error, rejectedAt: 't2' });
    const [webhook] = await sources.AuthorityReportRejected!(rejected, row({ report_state: 'rejected', authority: { error } }), context);
    expect(webhook.name).toBe('MyInvoisRejected');
    expect(JSON.parse(webhook.body)).toMatchObject({
      EventType: 'MyInvoisRejected', Status: 'rejected', uuid: null, LongId: null, DocumentId: 'INV-1', Reason: 'This document is already submitted', OccurredAt: 't2',
      Error: {
        code: 'DS302', message: 'This document is already submitted', target: 'INV-1', propertyPath: null,
        details: [{ code: 'CF321', message: 'Issuance date time is invalid', target: null, propertyPath: 'Invoice.IssueDate', details: null }],
      },
    });
  });

  it('AuthorityReportCancelled and AuthorityReportBuyerRejected keep the ids the document got at validation; the buyer\'s reason is the Reason', async () => {
    const validatedRow = row({ report_state: 'cancelled', authority: { receipt: { uuid: 'UUID1', submissionUid: 'S1', status: 'Valid', longId: 'LONG1' } } });
    const cancelled = reportEvent<AuthorityReportCancelled>('AuthorityReportCancelled', { reportId, documentId, cancelledAt: 't3' });
    const byBuyer = reportEvent<AuthorityReportBuyerRejected>('AuthorityReportBuyerRejected', { reportId, documentId, reason: 'Goods not received', requestedAt: 't4' });
    const [cancelledHook] = await sources.AuthorityReportCancelled!(cancelled, validatedRow, context);
    const [byBuyerHook] = await sources.AuthorityReportBuyerRejected!(byBuyer, validatedRow, context);
    expect(JSON.parse(cancelledHook.body)).toMatchObject({ Event: 'DocumentCancelled', EventType: 'MyInvoisCancelled', Status: 'cancelled', LongId: 'LONG1', Reason: null, OccurredAt: 't3' });
    expect(JSON.parse(byBuyerHook.body)).toMatchObject({
      Event: 'DocumentRejectedByBuyer', EventType: 'MyInvoisRejectedByBuyer', Status: 'rejected_by_buyer', Reason: 'Goods not received', ValidationLink: `${portal}/UUID1/share/LONG1`, OccurredAt: 't4',
    });
  });

  it('the state comes from the event, not the row: a validation recorded after the document was cancelled is still MyInvoisValid', async () => {
    const validated = reportEvent<AuthorityReportValidated>('AuthorityReportValidated', { reportId, documentId, receipt: { status: 'Valid', longId: 'LONG1' }, validatedAt: 't5' });
    const [webhook] = await sources.AuthorityReportValidated!(validated, row({ report_state: 'cancelled' }), context);
    expect(JSON.parse(webhook.body)).toMatchObject({ EventType: 'MyInvoisValid', Status: 'valid' });
  });

  it('being taken for processing (Submitted) and the other report events are no MyInvois webhook', () => {
    expect(Object.keys(sources).sort()).toEqual(['AuthorityReportBuyerRejected', 'AuthorityReportCancelled', 'AuthorityReportInvalidated', 'AuthorityReportRejected', 'AuthorityReportValidated']);
  });
});
