/**
 * What an area contributes to the webhook dispatcher: for each of its event types that may
 * concern a subscriber, the webhooks to record. The dispatcher owns the rest (one delivery per
 * matching subscription, signing, retries: apps/webhook-dispatcher/README.md).
 */
import type { AuthorityErrorData, AuthorityReportEvent, ProjectionContext, RecordedEvent } from '@einvoice/domain';

/** One webhook: sent to the supplier's subscriptions that list `name` (or one of `synonyms`). */
export interface AreaWebhook {
  /** `Webhook-Id`: stable across redeliveries (the event id, or derived from it per document). */
  readonly webhookId: string;
  /** The body's `EventType`, one of the area's `webhookEvents`. */
  readonly name: string;
  readonly synonyms?: readonly string[];
  readonly supplierId: string;
  /** The exact JSON text signed and sent. */
  readonly body: string;
}

/** What a source may use: SQL outside any transaction (read models committed with the event) and the environment. */
export interface WebhookSourceContext {
  readonly query: ProjectionContext['query'];
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * The `documents` row of a reported document (`reportedDocumentRows`), undefined when there is none:
   * the dispatcher answers the rows its handlers ask for at one moment in one query.
   */
  readonly reportedDocument: (documentId: string) => Promise<ReportedDocumentRow | undefined>;
}

/** The webhooks of one event (none is a fine answer). */
export type WebhookSource = (event: RecordedEvent, context: WebhookSourceContext) => Promise<readonly AreaWebhook[]>;

/** An area's webhook sources by event type: its OWN event types, one area each. */
export type AreaWebhooks = Readonly<Record<string, WebhookSource>>;

/** The generic report events about one document (`data.documentId`): those an area may turn into webhooks. */
export type DocumentReportEvent = Extract<AuthorityReportEvent, { readonly data: { readonly documentId: string } }>;

/**
 * A reported document's `documents` row (libs/domain/src/infrastructure/projections/authority-reports.ts),
 * read in the dispatcher's transaction: committed with the event, but later events of the same report
 * may have moved it on since (a validated document cancelled before its webhook was recorded). What the
 * event changed is read from the event; the row gives what never changes once set (number, supplier,
 * the receipt's ids).
 */
export interface ReportedDocumentRow {
  readonly id: string;
  readonly area: string;
  readonly supplier_id: string;
  readonly tenant_id: string;
  /** `incoming` for a report about a document the supplier received (a MyInvois buyer's own rejection). */
  readonly direction: 'outgoing' | 'incoming';
  /** The caller's document number. */
  readonly document_number: string;
  readonly document_type: string;
  /** pending | processing | reported | rejected | invalid | cancelling | cancelled */
  readonly report_state: string | null;
  /** What the authority said, merged event after event (`receipt` answer after answer). */
  readonly authority: {
    readonly receipt?: Record<string, unknown>;
    readonly error?: AuthorityErrorData;
    readonly buyerRejection?: { readonly reason: string; readonly requestedAt: string };
    readonly [key: string]: unknown;
  } | null;
  readonly created_at: Date;
}

/** The webhooks of one report event of one of the area's documents (none is a fine answer). */
export type ReportWebhookSource<E extends DocumentReportEvent = DocumentReportEvent> = (
  event: RecordedEvent<E>,
  document: ReportedDocumentRow,
  context: WebhookSourceContext,
) => Promise<readonly AreaWebhook[]>;

/**
 * An area's webhook sources by report event type, for ITS documents only: the report event types are
 * shared by every area that reports to an authority, so the registry routes each event to the area of
 * its document's row (`reportWebhookSource`).
 */
export type AreaReportWebhooks = {
  readonly [T in DocumentReportEvent['type']]?: ReportWebhookSource<Extract<DocumentReportEvent, { readonly type: T }>>;
};

// Not `fields` (the caller's document, out of line and large): no webhook needs it, and every report event reads this row.
const DOCUMENTS_SQL = `SELECT id, area, supplier_id, tenant_id, direction, document_number, document_type, report_state, authority, created_at
  FROM documents WHERE id = ANY($1::uuid[])`;

/**
 * The rows of reported documents, in the order of `documentIds` (undefined where none), in one query:
 * every report event a source handles reads its document's row, and a MyInvois bulk's validations
 * arrive a hundred at a time (one query each cost the dispatcher a round trip per event, issue 11).
 */
export async function reportedDocumentRows(query: ProjectionContext['query'], documentIds: readonly string[]): Promise<Array<ReportedDocumentRow | undefined>> {
  const rows = await query<ReportedDocumentRow>(DOCUMENTS_SQL, [[...new Set(documentIds)]]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return documentIds.map((id) => byId.get(id));
}

/** A report webhook source of any event type (`never`: only the router, which knows the type, calls it). */
export type AnyReportWebhookSource = ReportWebhookSource<never>;

/**
 * The one source of a report event type, whichever areas declare it (`byArea`: area code → its
 * source of that type): reads the event's document row and asks that row's area, so areas sharing the type never
 * see each other's documents. No row (none committed with the event) or an area without a source for
 * the type: no webhook.
 */
export function reportWebhookSource(byArea: ReadonlyMap<string, AnyReportWebhookSource>): WebhookSource {
  return async (event, context) => {
    const { documentId } = event.data as DocumentReportEvent['data'];
    const document = await context.reportedDocument(documentId);
    const source = document && byArea.get(document.area);
    // The cast is the routing's own: `byArea` holds the sources declared for this event's type.
    return source ? source(event as RecordedEvent<never>, document, context) : [];
  };
}
