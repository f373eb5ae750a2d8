import {
  type AuthorityReportBuyerRejected,
  type AuthorityReportCancelled,
  type AuthorityReportInvalidated,
  type AuthorityReportRejected,
  type AuthorityReportValidated,
  type RecordedEvent,
} from '@einvoice/domain';
import type { DocumentReportEvent, ReportedDocumentRow } from '../registry/webhooks';
import { myInvoisPortalUrl, myInvoisReportWebhookSources, myInvoisValidationLink } from './webhooks';

const portal = 'https://preprod.myinvois.hasil.gov.my';
const eventId = '5f0c1d2e-0000-4000-8000-0000000000e1';
const supplierId = '5f0c1d2e-0000-4000-8000-0000000000aa';
const documentId = '5f0c1d2e-0000-4000-8000-000000000101';

describe('MyInvois validation links', () => {
  it('builds the validation link only with both ids, from the configured portal', () => {
    expect(myInvoisValidationLink('https://myinvois.hasil.gov.my/', 'U', 'L')).toBe('https://myinvois.hasil.gov.my/U/share/L');
    expect(myInvoisValidationLink(portal, 'U', null)).toBeNull();
    expect(myInvoisPortalUrl({})).toBe(portal);
    expect(myInvoisPortalUrl({ MYINVOIS_PORTAL_URL: 'https://myinvois.hasil.gov.my' })).toBe('https://myinvois.hasil.gov.my');
  });
});


describe('MyInvois webhooks from its documents\' report events (#8: the names and bodies of its old submission events)', () => {
  const row = (extra: Partial<ReportedDocumentRow> = {}): ReportedDocumentRow => ({
    id: documentId,
    area: 'my',
    supplier_id: supplierId,
    tenant_id: '5f0c1d2e-0000-4000-8000-0000000000bb',
    direction: 'outgoing',
    document_number: 'INV-1',
    document_type: '01',
    report_state: 'processing',
    authority: { receipt: { uuid: 'UUID1', submissionUid: 'S1', status: 'Submitted' } },
    created_at: new Date('2026-11-22T00:00:00.000Z'),
    ...extra,
  });
  const context = { query: async () => [], env: { MYINVOIS_PORTAL_URL: portal }, reportedDocument: async () => row() };
  const reportEvent = <E extends DocumentReportEvent>(type: E['type'], data: E['data']): RecordedEvent<E> => ({
    eventId, streamId: 'report-r1', streamPosition: 3, globalPosition: '9', type, data, schemaVersion: 1, metadata: { tenantId: row().tenant_id }, recordedAt: 't',
  }) as RecordedEvent<E>;
  const reportId = '5f0c1d2e-0000-4000-8000-0000000000c1';
  const sources = myInvoisReportWebhookSources;

  it('AuthorityReportValidated → MyInvoisValid: the body the submission\'s event made, longId from the event\'s receipt, Webhook-Id = the event id', async () => {
    const validated = reportEvent<AuthorityReportValidated>('AuthorityReportValidated', { reportId, documentId, receipt: { status: 'Valid', longId: 'LONG1' }, validatedAt: '2026-11-22T01:00:00.000Z' });
    const [webhook, ...more] = await sources.AuthorityReportValidated!(validated, row(), context);
    expect(more).toEqual([]);
    expect(webhook).toEqual({ webhookId: eventId, name: 'MyInvoisValid', supplierId, body: expect.any(String) });
    // Byte for byte the body the MyInvois submission aggregate's event made before #8.
    expect(webhook.body).toBe(
      JSON.stringify({
        Event: 'DocumentValidated', EventType: 'MyInvoisValid', EventGroup: 'Invoice', uuid: 'UUID1', DocumentId: 'INV-1', Status: 'valid',
        GatewayDocumentId: documentId, LongId: 'LONG1', ValidationLink: `${portal}/UUID1/share/LONG1`, Reason: null, Error: null,
        OccurredAt: '2026-11-22T01:00:00.000Z',
      }),
    );
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

  it('a buyer\'s own rejection of a document it received (a report of direction incoming) refused by MyInvois is no webhook, as before #8', async () => {
    const error = { code: 'Forbidden', message: 'Rejection is allowed for recipient of the document only.' };
    const refused = reportEvent<AuthorityReportRejected>('AuthorityReportRejected', { reportId, documentId, error, rejectedAt: 't6' });
    const incoming = row({ direction: 'incoming', document_type: 'rejection', document_number: 'UUID9', report_state: 'rejected', authority: { error } });
    expect(await sources.AuthorityReportRejected!(refused, incoming, context)).toEqual([]);
    expect(await sources.AuthorityReportRejected!(refused, row({ report_state: 'rejected', authority: { error } }), context)).toHaveLength(1);
  });

  it('being taken for processing (Submitted) and the other report events are no MyInvois webhook', () => {
    expect(Object.keys(sources).sort()).toEqual(['AuthorityReportBuyerRejected', 'AuthorityReportCancelled', 'AuthorityReportInvalidated', 'AuthorityReportRejected', 'AuthorityReportValidated']);
  });
});
