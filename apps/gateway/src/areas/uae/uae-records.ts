/**
 * How a UAE document reads back (issue 10 "Documents"): the `documents` read model row with its
 * three status fields, computed by the SQL functions the feeds use (libs/areas/src/uae/migrations.ts),
 * so a record and its latest event never disagree.
 */

/** The columns a record is made of; `d` is `documents`. */
export const UAE_RECORD_COLUMNS = `d.id, d.direction, d.document_type, d.fields, d.created_at, d.delivery, d.authority,
  uae_reporting_status(d.report_state) AS reporting_status,
  uae_exchange_status(d.direction, d.delivery_status) AS exchange_status,
  uae_summary_status(uae_reporting_status(d.report_state), uae_exchange_status(d.direction, d.delivery_status)) AS status,
  (SELECT coalesce(json_agg(json_build_object('index', a.index, 'filename', a.filename, 'mime_code', a.mime_code, 'size_bytes', a.size_bytes) ORDER BY a.index), '[]'::json)
     FROM document_attachments a WHERE a.document_id = coalesce(d.source_document_id, d.id)) AS attachments`;

export interface UaeRecordRow {
  id: string;
  direction: 'outgoing' | 'incoming';
  document_type: string;
  fields: Record<string, unknown>;
  created_at: Date;
  delivery: { failure?: { code: string; message: string }; mls?: { responseCode: string; receivedAt: string; description?: string; reasonCode?: string } } | null;
  authority: { error?: { code: string; message: string }; answeredAt?: string } | null;
  reporting_status: 'queued' | 'reported' | 'failed';
  exchange_status: 'processing' | 'delivered' | 'failed';
  /** Summary of the two tracks: either failed → attention; both done → completed; else accepted. */
  status: 'accepted' | 'completed' | 'attention';
  attachments: Array<{ index: number; filename: string; mime_code: string; size_bytes: number }>;
}

/** A record as GET shows it; the list leaves `document` out. */
export function uaeRecord(row: UaeRecordRow, withDocument: boolean) {
  const error = row.authority?.error;
  const failure = row.exchange_status === 'failed' ? row.delivery?.failure : undefined;
  const mls = row.direction === 'outgoing' ? row.delivery?.mls : undefined;
  return {
    document_id: row.id,
    document_identifier: row.fields.document_identifier as string,
    direction: row.direction,
    document_type: row.document_type,
    issue_date: row.fields.issue_date as string,
    status: row.status,
    reporting: {
      status: row.reporting_status,
      ...(row.reporting_status === 'reported' && row.authority?.answeredAt ? { reported_at: row.authority.answeredAt } : {}),
      ...(row.reporting_status === 'failed' && error ? { error: { code: error.code, message: error.message } } : {}),
    },
    exchange: {
      status: row.exchange_status,
      ...(mls ? { mls: { code: mls.responseCode, received_at: mls.receivedAt } } : {}),
      // A receiver's rejection (MLS RE) names its reason: BV, FD or SV.
      ...(failure ? { error: { code: failure.code, message: failure.message, ...(mls?.reasonCode ? { reason_code: mls.reasonCode } : {}) } } : {}),
    },
    attachments: row.attachments,
    created_at: new Date(row.created_at).toISOString(),
    ...(withDocument ? { document: row.fields } : {}),
  };
}
