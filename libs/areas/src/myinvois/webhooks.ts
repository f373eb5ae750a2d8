/**
 * MyInvois's webhooks (README "Webhooks"): one per document whose state an event changes, for the
 * issuing supplier, in the envelope of seed 002's `PeppolReceived`. The dispatcher finds them
 * through the area registry: from the generic report events of its documents (`reportWebhooks`),
 * and from the events of its own submission aggregate (`webhooks`) until that one is retired; both
 * build their bodies with `myInvoisWebhookBody`.
 */
import { type RecordedEvent, deterministicUuid } from '@einvoice/domain';
import { type MyInvoisDocumentCancelledData, type MyInvoisDocumentInvalidatedData, type MyInvoisDocumentRejectedByBuyerData, type MyInvoisDocumentValidatedData, type MyInvoisSubmissionAcceptedData, type MyInvoisSubmissionRejectedData, type SubmissionError } from './domain';
import { type MyInvoisReceipt, myInvoisErrorOf } from './reporting/report';
import type { AreaReportWebhooks, AreaWebhook, AreaWebhooks, ReportedDocumentRow, WebhookSource } from '../registry/webhooks';

/**
 * The MyInvois document lifecycle as the authority states it (SDK "Get Submission" statuses
 * Valid / Invalid / Cancelled, a refusal at "Submit Documents", the buyer's "Reject Document"):
 * one name per state a document reaches, each a webhook for the issuing supplier.
 */
export const MYINVOIS_EVENT_NAMES = ['MyInvoisValid', 'MyInvoisInvalid', 'MyInvoisRejected', 'MyInvoisCancelled', 'MyInvoisRejectedByBuyer'] as const;
export type MyInvoisEventName = (typeof MYINVOIS_EVENT_NAMES)[number];

/** What the body needs of a document beyond its event (read model `myinvois_documents`). */
export interface MyInvoisDocumentFacts {
  readonly documentId: string;
  readonly supplierId: string;
  readonly invoiceCodeNumber: string;
  readonly uuid: string | null;
  readonly longId: string | null;
}

/** Which documents of a submission a MyInvois event concerns: some by id, or all of them. */
export interface MyInvoisEventScope {
  readonly submissionId: string;
  /** `null`: every document of the submission (refused as a whole). */
  readonly documentIds: readonly string[] | null;
}

/** One document's change, one webhook per subscription wanting `name`. */
export interface MyInvoisWebhook {
  /** `Webhook-Id`: the event id, or derived from it per document when one event carries several. */
  readonly webhookId: string;
  readonly name: MyInvoisEventName;
  readonly supplierId: string;
  readonly body: string;
}

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

/** A change of one document as a submission event states it. */
interface Change {
  readonly name: MyInvoisEventName;
  readonly documentId: string;
  readonly uuid?: string;
  readonly longId?: string;
  readonly reason: string | null;
  readonly error: SubmissionError | null;
  readonly occurredAt: string;
}

/** The body's `Event` and `Status` for each name: `Status` is the state GET /api/einvoice/documents/{id} shows. */
const SHAPE: Readonly<Record<MyInvoisEventName, { event: string; state: string }>> = {
  MyInvoisValid: { event: 'DocumentValidated', state: 'valid' },
  MyInvoisInvalid: { event: 'DocumentInvalidated', state: 'invalid' },
  MyInvoisRejected: { event: 'DocumentRejected', state: 'rejected' },
  MyInvoisCancelled: { event: 'DocumentCancelled', state: 'cancelled' },
  MyInvoisRejectedByBuyer: { event: 'DocumentRejectedByBuyer', state: 'rejected_by_buyer' },
};

/** The events that change a document's state at MyInvois, and what each one says per document. */
function changesOf(event: Pick<RecordedEvent, 'type' | 'data'>): { scope: MyInvoisEventScope; changes: (documentId: string) => Change | undefined } | undefined {
  switch (event.type) {
    case 'MyInvoisDocumentValidated': {
      const d = event.data as MyInvoisDocumentValidatedData;
      return one(d.submissionId, d.documentId, { name: 'MyInvoisValid', uuid: d.uuid, longId: d.longId, reason: null, error: null, occurredAt: d.validatedAt });
    }
    case 'MyInvoisDocumentInvalidated': {
      const d = event.data as MyInvoisDocumentInvalidatedData;
      return one(d.submissionId, d.documentId, { name: 'MyInvoisInvalid', uuid: d.uuid, reason: d.reason, error: null, occurredAt: d.invalidatedAt });
    }
    case 'MyInvoisDocumentCancelled': {
      const d = event.data as MyInvoisDocumentCancelledData;
      return one(d.submissionId, d.documentId, { name: 'MyInvoisCancelled', uuid: d.uuid, reason: null, error: null, occurredAt: d.cancelledAt });
    }
    case 'MyInvoisDocumentRejectedByBuyer': {
      const d = event.data as MyInvoisDocumentRejectedByBuyerData;
      return one(d.submissionId, d.documentId, { name: 'MyInvoisRejectedByBuyer', uuid: d.uuid, reason: d.reason, error: null, occurredAt: d.requestedAt });
    }
    case 'MyInvoisSubmissionAccepted': {
      // Only the documents MyInvois refused change state worth a webhook; accepted ones are merely `submitted`.
      const d = event.data as MyInvoisSubmissionAcceptedData;
      if (d.rejectedDocuments.length === 0) return undefined;
      const refused = new Map(d.rejectedDocuments.map((r) => [r.documentId, r.error]));
      return {
        scope: { submissionId: d.submissionId, documentIds: [...refused.keys()] },
        changes: (documentId) => {
          const error = refused.get(documentId);
          return error && { name: 'MyInvoisRejected', documentId, reason: error.message, error, occurredAt: d.acceptedAt };
        },
      };
    }
    case 'MyInvoisSubmissionRejected': {
      const d = event.data as MyInvoisSubmissionRejectedData;
      return {
        scope: { submissionId: d.submissionId, documentIds: null },
        changes: (documentId) => ({ name: 'MyInvoisRejected', documentId, reason: d.error.message, error: d.error, occurredAt: d.rejectedAt }),
      };
    }
    default:
      return undefined;
  }
}

function one(submissionId: string, documentId: string, change: Omit<Change, 'documentId'>) {
  return { scope: { submissionId, documentIds: [documentId] }, changes: (id: string) => (id === documentId ? { ...change, documentId } : undefined) };
}

/** The documents whose facts the webhooks of `event` need; `undefined` when the event is no webhook. */
export function myInvoisWebhookScope(event: Pick<RecordedEvent, 'type' | 'data'>): MyInvoisEventScope | undefined {
  return changesOf(event)?.scope;
}

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

/**
 * One webhook per document a submission event changes (`myInvoisWebhookBody`). An event about
 * several documents (a submission refused as a whole, several refused in one answer) gets a
 * `Webhook-Id` per document derived from the event id, stable across retries and redeliveries. A
 * document without facts is skipped (its read-model row commits with the event).
 */
export function myInvoisWebhooks(
  event: Pick<RecordedEvent, 'type' | 'data' | 'eventId'>,
  facts: readonly MyInvoisDocumentFacts[],
  portalUrl: string,
): MyInvoisWebhook[] {
  const found = changesOf(event);
  if (!found) return [];
  const several = found.scope.documentIds?.length !== 1;
  return facts.flatMap((doc) => {
    const change = found.changes(doc.documentId);
    if (!change) return [];
    const body = myInvoisWebhookBody(
      { ...change, invoiceCodeNumber: doc.invoiceCodeNumber, uuid: change.uuid ?? doc.uuid, longId: change.longId ?? doc.longId },
      portalUrl,
    );
    const webhookId = several ? deterministicUuid(`webhook-event:${event.eventId}:${doc.documentId}`) : event.eventId;
    return [{ webhookId, name: change.name, supplierId: doc.supplierId, body }];
  });
}

/** The facts of the documents in `scope`, from `myinvois_documents` (committed with the event; fields that never change once set). */
const FACTS_SQL = `SELECT id AS "documentId", supplier_id AS "supplierId", invoice_code_number AS "invoiceCodeNumber", uuid, long_id AS "longId"
  FROM myinvois_documents WHERE submission_id = $1 AND ($2::uuid[] IS NULL OR id = ANY ($2::uuid[])) ORDER BY id`;

/** Webhooks of one MyInvois event: the documents' facts from the read model, one body per document. */
const webhooksOf: WebhookSource = async (event, { query, env }) => {
  const scope = myInvoisWebhookScope(event);
  if (!scope) return [];
  const facts = await query<MyInvoisDocumentFacts>(FACTS_SQL, [scope.submissionId, scope.documentIds]);
  return myInvoisWebhooks(event, facts, myInvoisPortalUrl(env));
};

/** The MyInvois events that may produce webhooks (changesOf), for the area registry. */
export const myInvoisWebhookSources: AreaWebhooks = {
  MyInvoisDocumentValidated: webhooksOf,
  MyInvoisDocumentInvalidated: webhooksOf,
  MyInvoisDocumentCancelled: webhooksOf,
  MyInvoisDocumentRejectedByBuyer: webhooksOf,
  MyInvoisSubmissionAccepted: webhooksOf,
  MyInvoisSubmissionRejected: webhooksOf,
};

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
