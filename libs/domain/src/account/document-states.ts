/**
 * How a `documents` row of any area reads in the account-wide list (#47): one `status`, the authority's
 * track and the Peppol exchange's track. Every area's documents are rows of `documents` (UAE's too: its
 * own routes read the same rows, libs/areas/src/uae/migrations.ts), with the same two state columns:
 * `report_state` (the report to a tax authority, projections/authority-reports.ts) and `delivery_status`
 * (the Peppol exchange, projections/read-models.ts). So one mapping serves every area.
 *
 * | row                                             | status      | authority.status | exchange.status |
 * |-------------------------------------------------|-------------|------------------|-----------------|
 * | incoming (received over Peppol)                 | received    | none             | received        |
 * | report cancelled                                | cancelled   | cancelled        | (its own)       |
 * | report rejected / invalid                       | refused     | refused          | (its own)       |
 * | delivery Failed                                 | failed      | (its own)        | failed          |
 * | report pending / processing                     | accepted    | pending / processing | (its own)   |
 * | report reported / cancelling                    | reported    | reported / cancelling | (its own)  |
 * | no report; delivery Scheduled / Sent / Delivered| accepted / sent / delivered | none | scheduled / sent / delivered |
 *
 * `status` is computed in SQL (`account_document_status`, migration AccountDocumentLists1732200001880)
 * because the list filters and indexes it; the two tracks are computed here from the same columns.
 * A reported document's Peppol copy not released yet (Poland, Malaysia `transport_mode: peppol`) has
 * exchange `pending`; a document with no Peppol track has `none`.
 */

/** The list's `status` values, in the order of the table above. */
export const DOCUMENT_STATUSES = ['accepted', 'sent', 'delivered', 'reported', 'failed', 'refused', 'cancelled', 'received'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** `authority.status` values (the OpenAPI document lists them). */
export const AUTHORITY_STATUSES = ['none', 'pending', 'processing', 'reported', 'refused', 'cancelling', 'cancelled'] as const;
export type AuthorityStatus = (typeof AUTHORITY_STATUSES)[number];
/** `exchange.status` values. */
export const EXCHANGE_STATUSES = ['none', 'pending', 'scheduled', 'sent', 'delivered', 'failed', 'received'] as const;
export type ExchangeStatus = (typeof EXCHANGE_STATUSES)[number];

/** The row's state columns, as the list reads them. */
export interface StateColumns {
  readonly direction: 'outgoing' | 'incoming';
  readonly report_state: string | null;
  readonly delivery_status: string | null;
  readonly peppol_copy: boolean | null;
  /** The authority's answer (`documents.authority.receipt`). */
  readonly receipt: Record<string, unknown> | null;
}

/** The authority's track: its state, and its reference once it gave one. */
export function authorityOf(row: StateColumns): { status: AuthorityStatus; reference?: string } {
  const status = authorityStatus(row.report_state);
  const reference = referenceOf(row.receipt);
  return reference ? { status, reference } : { status };
}

function authorityStatus(reportState: string | null): AuthorityStatus {
  switch (reportState) {
    case null:
      return 'none';
    case 'pending':
    case 'processing':
    case 'reported':
    case 'cancelling':
    case 'cancelled':
      return reportState;
    case 'rejected':
    case 'invalid':
      return 'refused';
    default:
      return 'pending';
  }
}

/** The exchange's track over Peppol. */
export function exchangeOf(row: StateColumns): { status: ExchangeStatus } {
  if (row.direction === 'incoming') return { status: 'received' };
  const status = row.delivery_status?.toLowerCase();
  if (status === 'scheduled' || status === 'sent' || status === 'delivered' || status === 'failed') return { status };
  return { status: row.peppol_copy ? 'pending' : 'none' };
}

/**
 * The number the authority gave the document, by the receipt fields each authority fills: KSeF's number
 * (Poland; its reference number while not final), the AEAT's CSV (Spain), the IRN (Nigeria), the CAE
 * (Argentina), MyInvois's long id or UUID, the FTA's reference (UAE), JoFotara's number. The first one present.
 */
const REFERENCE_FIELDS = ['ksefNumber', 'csv', 'irn', 'CAE', 'longId', 'reference', 'uuid', 'number', 'referenceNumber'] as const;

export function referenceOf(receipt: Record<string, unknown> | null): string | undefined {
  for (const field of REFERENCE_FIELDS) {
    const value = receipt?.[field];
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number') return String(value);
  }
  return undefined;
}
