import { authorityReportStreamId } from '@einvoice/domain';
import { isUuid } from '../suppliers/supplier-lookup';

type Query = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** A supplier's reported document to find by `key`. */
export interface DocumentKey {
  readonly area: string;
  readonly supplierId: string;
  readonly tenantId: string;
  /** Our id (a UUID), else the authority's id of it or the caller's number. */
  readonly key: string;
  /** The field of the authority's receipt holding its id of a document (area registry `documents.lookup.alsoBy`). */
  readonly receiptField: string;
}

/**
 * A document the supplier issued and reported, by our id, or by the authority's id of it or the caller's
 * number: the latest such one (a number is alive once at a time; a refused or cancelled one is free again).
 * Not its requests about documents it received (direction `incoming`), nor a received one.
 */
export async function findByReceiptKey<R>(query: Query, columns: string, by: DocumentKey): Promise<R | undefined> {
  const rows = await query<R>(
    `SELECT ${columns} FROM documents
     WHERE supplier_id = $1 AND tenant_id = $2 AND area = $3 AND direction = 'outgoing' AND report_id IS NOT NULL
       AND (${isUuid(by.key) ? 'id = $4::uuid' : `authority->'receipt'->>$5 = $4 OR document_number = $4`})
     ORDER BY created_at DESC LIMIT 1`,
    isUuid(by.key) ? [by.supplierId, by.tenantId, by.area, by.key] : [by.supplierId, by.tenantId, by.area, by.key, by.receiptField],
  );
  return rows[0];
}

/**
 * Of `numbers`, those the supplier has alive (refused, invalid and cancelled documents free theirs: the
 * rule of documents_supplier_number_key), for a submission of several documents that refuses each such
 * one alone. One probe of that index per number (the LATERAL's LIMIT keeps it a probe): with `= ANY` the
 * planner, on statistics older than the supplier's growth, scanned all the supplier's rows for each
 * request (21 ms at 15,000 documents; issue 11).
 */
export async function numbersInUse(query: Query, supplierId: string, numbers: readonly string[]): Promise<Set<string>> {
  if (!numbers.length) return new Set();
  const rows = await query<{ document_number: string }>(
    `SELECT n.number AS document_number FROM unnest($2::text[]) AS n(number)
     CROSS JOIN LATERAL (
       SELECT 1 FROM documents
       WHERE supplier_id = $1 AND document_number = n.number AND direction = 'outgoing'
         AND (report_state IS NULL OR report_state NOT IN ('rejected', 'invalid', 'cancelled'))
       LIMIT 1
     ) AS held`,
    [supplierId, numbers],
  );
  return new Set(rows.map((r) => r.document_number));
}

/** The Peppol copy's XML a report asked for (its request, the stream's first event), if it asked for one. */
export async function peppolCopyXml(query: Query, reportId: string): Promise<string | undefined> {
  const [copy] = await query<{ xml: string | null }>(`SELECT data->'peppolCopy'->>'xml' AS xml FROM events WHERE stream_id = $1 AND stream_position = 1`, [authorityReportStreamId(reportId)]);
  return copy?.xml ?? undefined;
}
