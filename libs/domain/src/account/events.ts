/**
 * The account's event catalogue (#48): one vocabulary for every area's documents, on `GET /v1/events` and
 * on account-wide webhooks (`/v1/webhooks`). The events are recorded by a trigger on `documents`
 * (migration AccountEvents1732200001980: which change of the row makes which type) as rows of
 * `account_events`; this module turns such a row into the event a caller reads, the same way for the API
 * and for every delivery of a webhook, so an event reads the same wherever it is seen.
 */
import { type AuthorityStatus, type DocumentStatus, type ExchangeStatus, type StateColumns, authorityOf, exchangeOf } from './document-states';

/** Every type of the catalogue, in the order of a document's life. */
export const ACCOUNT_EVENT_TYPES = [
  'document.accepted',
  'document.delivered',
  'document.delivery_failed',
  'document.reported',
  'document.report_failed',
  'document.cancelled',
  'document.rejected',
  'document.received',
] as const;
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number];

/** What each type means (the OpenAPI and AsyncAPI documents, the README). */
export const ACCOUNT_EVENT_DESCRIPTIONS: Readonly<Record<AccountEventType, string>> = {
  'document.accepted': 'The document was recorded and validated by the gateway: it is on its way to its buyer and/or its tax authority.',
  'document.delivered': "The buyer's Peppol access point acknowledged the document (MLS AP or AB), or it was handed to a receiver hosted here.",
  'document.delivery_failed': "The document could not be delivered over Peppol: the buyer's access point refused it (MLS RE, with its reason), the receiver is unknown, or it was dead-lettered.",
  'document.reported': 'The tax authority accepted, cleared or authorised the document (KSeF number, AEAT CSV, JoFotara, FIRS IRN, AFIP CAE, MyInvois Valid, FTA reported): its reference is in data.authority.',
  'document.report_failed': 'The tax authority refused the document: its codes and messages are in data.authority.codes.',
  'document.cancelled': 'The tax authority recorded the cancellation of the document.',
  'document.rejected': 'The buyer rejected the document through the tax authority (MyInvois).',
  'document.received': 'A document addressed to one of the account\'s suppliers was received.',
};

/** A row of `account_events`, as stored. */
export interface AccountEventRow extends StateColumns {
  readonly id: string;
  readonly type: string;
  readonly tenant_id: string;
  readonly area: string;
  readonly supplier_id: string;
  readonly document_id: string;
  readonly document_number: string;
  /** The documents row's `authority` at that moment (receipt, error, buyerRejection...). */
  readonly authority: Record<string, unknown> | null;
  /** The documents row's `delivery` at that moment (MLS, failure reason...). */
  readonly delivery: Record<string, unknown> | null;
  readonly created_at: Date | string;
}

/** An authority's code on a refusal, as every area's errors read (`FIELD.*`, official rule ids). */
export interface AccountEventCode {
  readonly code: string;
  readonly message: string;
  /** The field it is about, when the authority named one. */
  readonly path?: string;
}

/** The receiving access point's Message Level Status (Peppol MLS), as the documents' timeline shows it. */
export interface AccountEventMls {
  readonly responseCode: 'AP' | 'AB' | 'RE';
  readonly receivedAt: string;
  readonly description?: string;
  readonly reasonCode?: 'BV' | 'FD' | 'SV';
}

/** The event a caller reads (`GET /v1/events`, the body of an account webhook). */
export interface AccountEvent {
  /** The de-duplication key: the same on every delivery of this event (`webhook-id`). */
  readonly id: string;
  readonly type: AccountEventType;
  readonly created_at: string;
  readonly area: string;
  readonly supplier_id: string;
  readonly document_id: string;
  readonly document_number: string;
  readonly data: AccountEventData;
}

export interface AccountEventData {
  /** The document's status in the account-wide list (`GET /v1/documents`) just after this event. */
  readonly status: DocumentStatus;
  /** The report to the tax authority, when the document has one. */
  readonly authority?: {
    readonly status: AuthorityStatus;
    readonly reference?: string;
    /** On `document.report_failed`: the authority's codes (empty when it stated none). */
    readonly codes?: readonly AccountEventCode[];
    /** On `document.rejected` (and after): the buyer's rejection. */
    readonly buyer_rejection?: { readonly reason: string; readonly requested_at: string };
  };
  /** The Peppol exchange, when the document has one. */
  readonly exchange?: {
    readonly status: ExchangeStatus;
    readonly mls?: AccountEventMls;
    /** On `document.delivery_failed`: why (PEPPOL.REJECTED_BY_RECEIVER, PEPPOL.RECEIVER_NOT_FOUND, or the last error when dead-lettered). */
    readonly reason?: { readonly code: string; readonly message: string };
  };
}

/** The statuses of `account_document_status` (migration 1732200001880), computed from the same columns. */
export function accountStatusOf(row: StateColumns): DocumentStatus {
  if (row.direction === 'incoming') return 'received';
  const report = row.report_state;
  const delivery = row.delivery_status;
  if (report === 'cancelled') return 'cancelled';
  if (report === 'rejected' || report === 'invalid') return 'refused';
  if (delivery === 'Failed') return 'failed';
  if (report === 'pending' || report === 'processing') return 'accepted';
  if (report === 'reported' || report === 'cancelling') return 'reported';
  if (delivery === 'Sent') return 'sent';
  if (delivery === 'Delivered') return 'delivered';
  return 'accepted';
}

/**
 * The authority's codes of a refusal (`authority.error`: one error, its details the rules that failed when
 * it listed several, as JoFotara does): each detail with a code, else the error itself.
 */
function codesOf(authority: Record<string, unknown> | null): AccountEventCode[] {
  const error = authority?.error as { code?: unknown; message?: unknown; path?: unknown; details?: unknown } | undefined;
  if (!error || typeof error.code !== 'string') return [];
  const codeOf = (e: { code?: unknown; message?: unknown; path?: unknown }): AccountEventCode => ({
    code: String(e.code),
    message: typeof e.message === 'string' ? e.message : '',
    ...(typeof e.path === 'string' && e.path ? { path: e.path } : {}),
  });
  const details = Array.isArray(error.details) ? (error.details as Array<{ code?: unknown }>) : [];
  const listed = details.filter((d) => typeof d?.code === 'string').map(codeOf);
  return listed.length ? listed : [codeOf(error)];
}

/** The buyer's rejection (MyInvois), once the authority recorded it on the row. */
function buyerRejectionOf(authority: Record<string, unknown> | null): { reason: string; requested_at: string } | undefined {
  const rejection = authority?.buyerRejection as { reason?: unknown; requestedAt?: unknown } | undefined;
  if (!rejection || typeof rejection !== 'object') return undefined;
  return { reason: String(rejection.reason ?? ''), requested_at: String(rejection.requestedAt ?? '') };
}

/** The stored MLS, when the access point answered one (null on a dead-lettered failure, absent when handed over locally). */
function mlsOf(delivery: Record<string, unknown>): AccountEventMls | undefined {
  const mls = delivery.mls as AccountEventMls | null | undefined;
  return mls && typeof mls === 'object' && typeof mls.responseCode === 'string' ? mls : undefined;
}

/** Why a delivery failed (`delivery.failure`: DeliveryFailureReason). */
function reasonOf(delivery: Record<string, unknown>): { code: string; message: string } | undefined {
  const failure = delivery.failure as { code?: unknown; message?: unknown } | null | undefined;
  if (!failure || typeof failure.code !== 'string') return undefined;
  return { code: failure.code, message: typeof failure.message === 'string' ? failure.message : '' };
}

/** The event a stored row stands for. */
export function accountEventOf(row: AccountEventRow): AccountEvent {
  const states = { ...row, receipt: (row.authority?.receipt as Record<string, unknown> | undefined) ?? null };
  const authority = authorityOf(states);
  const exchange = exchangeOf(states);
  const codes = row.type === 'document.report_failed' ? codesOf(row.authority) : undefined;
  const rejection = buyerRejectionOf(row.authority);
  const delivery = row.delivery ?? {};
  const mls = exchange.status === 'delivered' || exchange.status === 'failed' ? mlsOf(delivery) : undefined;
  const reason = row.type === 'document.delivery_failed' ? reasonOf(delivery) : undefined;
  return {
    id: row.id,
    type: row.type as AccountEventType,
    created_at: new Date(row.created_at).toISOString(),
    area: row.area,
    supplier_id: row.supplier_id,
    document_id: row.document_id,
    document_number: row.document_number,
    data: {
      status: accountStatusOf(row),
      ...(authority.status !== 'none'
        ? { authority: { ...authority, ...(codes ? { codes } : {}), ...(rejection ? { buyer_rejection: rejection } : {}) } }
        : {}),
      ...(exchange.status !== 'none' ? { exchange: { ...exchange, ...(mls ? { mls } : {}), ...(reason ? { reason } : {}) } } : {}),
    },
  };
}
