/**
 * What the console reads of the API's answers (docs/account-api.md, the OpenAPI document at /docs-json), and the
 * vocabularies it offers in its filters: the states and event types are the domain's own lists (imported, not
 * copied: a new state shows up here with the next build).
 */
// The two files themselves, not the @einvoice/domain index: that one brings the server's modules, a browser bundle takes these lists only.
// eslint-disable-next-line @nx/enforce-module-boundaries
export { AUTHORITY_STATUSES, DOCUMENT_STATUSES, EXCHANGE_STATUSES } from '../../../libs/domain/src/account/document-states';
// eslint-disable-next-line @nx/enforce-module-boundaries
export { ACCOUNT_EVENT_TYPES } from '../../../libs/domain/src/account/events';

/** The areas, as `GET /v1/documents?area=` takes their codes. */
export const AREAS: ReadonlyArray<readonly [code: string, name: string]> = [
  ['be', 'Belgium'],
  ['de', 'Germany'],
  ['sg', 'Singapore'],
  ['my', 'Malaysia'],
  ['ae', 'United Arab Emirates'],
  ['es', 'Spain'],
  ['pl', 'Poland'],
  ['jo', 'Jordan'],
  ['ng', 'Nigeria'],
  ['ar', 'Argentina'],
];

export const areaName = (code: string): string => AREAS.find(([c]) => c === code)?.[1] ?? code;

export interface DocumentSummary {
  readonly id: string;
  readonly area: string;
  readonly supplier_id: string;
  readonly direction: 'outgoing' | 'incoming';
  readonly number: string;
  readonly type: string;
  readonly issue_date: string | null;
  readonly currency: string | null;
  readonly total: string | null;
  readonly status: string;
  readonly authority: { readonly status: string; readonly reference?: string };
  readonly exchange: { readonly status: string };
  readonly created_at: string;
  readonly updated_at: string;
}

export interface TimelineEntry {
  readonly type: string;
  readonly at: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface DocumentLinks {
  readonly document: string;
  readonly xml: string | null;
  readonly supplier_header: string | null;
  readonly pdf: string | null;
  readonly html: string | null;
}

export interface DocumentDetail extends DocumentSummary {
  readonly timeline: readonly TimelineEntry[];
  readonly links: DocumentLinks | null;
}

export interface SupplierSummary {
  readonly id: string;
  readonly area: string;
  readonly name: string;
  readonly identifiers: ReadonlyArray<{ readonly scheme: string; readonly id: string }>;
  readonly status: 'active' | 'inactive';
  readonly created_at: string;
}

export interface SupplierDetail extends SupplierSummary {
  readonly updated_at: string | null;
  readonly address: Readonly<Record<string, string>>;
  readonly contact: Readonly<Record<string, string>>;
  readonly details: Readonly<Record<string, unknown>>;
  readonly participant_ids: readonly string[];
  readonly editable_fields: readonly string[];
}

export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[] | null;
  readonly areas: readonly string[] | null;
  readonly supplier_ids: readonly string[] | null;
  readonly description: string | null;
  readonly status: 'enabled' | 'disabled';
  readonly disabled_reason: string | null;
  readonly previous_secret_expires_at: string | null;
  readonly created_at: string;
}

export interface DeliveryAttempt {
  readonly attempt: number;
  readonly at: string;
  readonly status_code: number | null;
  readonly duration_ms: number;
  readonly response_body: string | null;
  readonly error: string | null;
}

export interface Delivery {
  readonly id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly request_body: unknown;
  readonly attempts: readonly DeliveryAttempt[];
  readonly next_attempt_at: string | null;
  readonly created_at?: string;
  readonly delivered_at: string | null;
}

/**
 * #50 A document's actions among its `links` (documents.openapi.ts): its cancellation as a form (`cancel`: POST
 * `href` with `body` and each of `fields` written by the person), and where its request as accepted is read.
 */
export interface CancelLink {
  readonly method: 'POST';
  readonly href: string;
  readonly body: Readonly<Record<string, string>>;
  readonly fields: readonly string[];
}

export interface DocumentActions {
  readonly cancel: CancelLink | null;
  readonly request: string | null;
}

/** A detail's `links.cancel` and `links.request` (null when the detail has no links). */
export const actionsOf = (d: DocumentDetail): DocumentActions => {
  const links = d.links as (DocumentLinks & Partial<DocumentActions>) | null;
  return { cancel: links?.cancel ?? null, request: links?.request ?? null };
};

/** `GET /v1/documents/{id}/request`'s `data`. */
export interface AcceptedRequest {
  readonly document_id: string;
  readonly accepted_at: string;
  readonly body: Readonly<Record<string, unknown>>;
}
