/**
 * MyInvois's webhooks (README "Webhooks"): one per document whose state an event changes, for the
 * issuing supplier, in the envelope of seed 002's `PeppolReceived`. The dispatcher finds them
 * through the area registry, from the generic report events of its documents (`reportWebhooks`).
 */
import type { RecordedEvent } from '@einvoice/domain';
import { type MyInvoisReceipt, type SubmissionError, myInvoisErrorOf } from './reporting/report';
import type { AreaReportWebhooks, AreaWebhook, ReportedDocumentRow } from '../registry/webhooks';

/**
 * The MyInvois document lifecycle as the authority states it (SDK "Get Submission" statuses
 * Valid / Invalid / Cancelled, a refusal at "Submit Documents", the buyer's "Reject Document"):
 * one name per state a document reaches, each a webhook for the issuing supplier.
 */
export const MYINVOIS_EVENT_NAMES = ['MyInvoisValid', 'MyInvoisInvalid', 'MyInvoisRejected', 'MyInvoisCancelled', 'MyInvoisRejectedByBuyer'] as const;
export type MyInvoisEventName = (typeof MYINVOIS_EVENT_NAMES)[number];

/** One document's new state as its webhook states it. */
export interface MyInvoisDocumentChange {
  readonly name: MyInvoisEventName;
  /** Our id of the document (`GatewayDocumentId`). */
  readonly documentId: string;
  /** The caller's `ID` (`DocumentId`). */
  readonly invoiceCodeNumber: string;
  /** MyInvois's id of the document, once it has one. */
  readonly uuid: string | null;
  /** Assigned once valid. */
  readonly longId: string | null;
  readonly reason: string | null;
  /** The authority's error, in MyInvois's shape (a refusal at Submit Documents). */
  readonly error: SubmissionError | null;
  readonly occurredAt: string;
}

/**
 * The webhook body of one document's change, in the envelope of seed 002's `PeppolReceived`
 * (`Event`, `EventType`, `EventGroup`, `uuid`, `DocumentId`, `Status`): `uuid` is the MyInvois uuid,
 * `DocumentId` the caller's `ID`, `Status` the document's state as GET shows it.
 */
export function myInvoisWebhookBody(change: MyInvoisDocumentChange, portalUrl: string): string {
  return JSON.stringify({
    Event: SHAPE[change.name].event,
    EventType: change.name,
    EventGroup: 'Invoice',
    uuid: change.uuid,
    DocumentId: change.invoiceCodeNumber,
    Status: SHAPE[change.name].state,
    GatewayDocumentId: change.documentId,
    LongId: change.longId,
    ValidationLink: myInvoisValidationLink(portalUrl, change.uuid, change.longId),
    Reason: change.reason,
    Error: change.error,
    OccurredAt: change.occurredAt,
  });
}

/** The body's `Event` and `Status` for each name: `Status` is the state GET /api/einvoice/documents/{id} shows. */
const SHAPE: Readonly<Record<MyInvoisEventName, { event: string; state: string }>> = {
  MyInvoisValid: { event: 'DocumentValidated', state: 'valid' },
  MyInvoisInvalid: { event: 'DocumentInvalidated', state: 'invalid' },
  MyInvoisRejected: { event: 'DocumentRejected', state: 'rejected' },
  MyInvoisCancelled: { event: 'DocumentCancelled', state: 'cancelled' },
  MyInvoisRejectedByBuyer: { event: 'DocumentRejectedByBuyer', state: 'rejected_by_buyer' },
};

/**
 * The MyInvois portal the validation links point at: `MYINVOIS_PORTAL_URL`, default the
 * pre-production portal (as the connector defaults to pre-production); production is
 * `https://myinvois.hasil.gov.my`.
 */
export function myInvoisPortalUrl(env: Record<string, string | undefined> = process.env): string {
  return env.MYINVOIS_PORTAL_URL || 'https://preprod.myinvois.hasil.gov.my';
}

/**
 * MyInvois's validation link (SDK "Validation link": `{portal}/{uuid}/share/{longId}`), the URL
 * the QR code of a validated document carries; `null` until the document has both ids.
 */
export function myInvoisValidationLink(portalUrl: string, uuid: string | null | undefined, longId: string | null | undefined): string | null {
  return uuid && longId ? `${portalUrl.replace(/\/+$/, '')}/${uuid}/share/${longId}` : null;
}

/** What the event says of the document's new state; the rest comes from its row. */
type ReportChange = Pick<MyInvoisDocumentChange, 'name' | 'reason' | 'error' | 'occurredAt'>;

/**
 * The webhook of one report event (one document each: `Webhook-Id` = the event id). The row may
 * have moved on since the event (registry `ReportedDocumentRow`): it gives only what never changes
 * once set, the number and the receipt's ids; `receipt` adds the event's own (a validation's longId).
 */
function reportWebhook(
  event: Pick<RecordedEvent, 'eventId'>,
  document: ReportedDocumentRow,
  change: ReportChange,
  env: Readonly<Record<string, string | undefined>>,
  receipt?: Record<string, unknown>,
): AreaWebhook[] {
  // A buyer's own rejection of a document it received: answered to its request, no webhook (as before #8).
  if (document.direction === 'incoming') return [];
  const ids = { ...document.authority?.receipt, ...receipt } as Partial<MyInvoisReceipt>;
  const body = myInvoisWebhookBody(
    { ...change, documentId: document.id, invoiceCodeNumber: document.document_number, uuid: ids.uuid ?? null, longId: ids.longId ?? null },
    myInvoisPortalUrl(env),
  );
  return [{ webhookId: event.eventId, name: change.name, supplierId: document.supplier_id, body }];
}

/**
 * The report events of MyInvois documents that produce its webhooks, for the area registry: the
 * verdict of a poll (Valid / Invalid), a refusal at Submit Documents, a cancellation, the buyer's
 * rejection. Being taken for processing (`AuthorityReportAccepted`, status Submitted) is none.
 */
export const myInvoisReportWebhookSources: AreaReportWebhooks = {
  AuthorityReportValidated: async (event, document, { env }) =>
    reportWebhook(event, document, { name: 'MyInvoisValid', reason: null, error: null, occurredAt: event.data.validatedAt }, env, event.data.receipt),
  // As before the generic pipeline: the reason (MyInvois's documentStatusReason) and no error object.
  AuthorityReportInvalidated: async (event, document, { env }) =>
    reportWebhook(event, document, { name: 'MyInvoisInvalid', reason: event.data.error.message, error: null, occurredAt: event.data.invalidatedAt }, env),
  AuthorityReportRejected: async (event, document, { env }) =>
    reportWebhook(event, document, { name: 'MyInvoisRejected', reason: event.data.error.message, error: myInvoisErrorOf(event.data.error), occurredAt: event.data.rejectedAt }, env),
  AuthorityReportCancelled: async (event, document, { env }) =>
    reportWebhook(event, document, { name: 'MyInvoisCancelled', reason: null, error: null, occurredAt: event.data.cancelledAt }, env),
  AuthorityReportBuyerRejected: async (event, document, { env }) =>
    reportWebhook(event, document, { name: 'MyInvoisRejectedByBuyer', reason: event.data.reason, error: null, occurredAt: event.data.requestedAt }, env),
};
