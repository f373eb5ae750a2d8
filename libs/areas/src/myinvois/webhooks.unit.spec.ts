import { type RecordedEvent, deterministicUuid } from '@einvoice/domain';
import { type MyInvoisDocumentFacts, myInvoisPortalUrl, myInvoisValidationLink, myInvoisWebhookScope, myInvoisWebhooks } from './webhooks';

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
