import { type AuthorityErrorData, notFound } from '@einvoice/domain';
import { documentXml, reportedFile } from '@einvoice/domain/infrastructure';
import { type ParsedDocument, type ReferencedDocument, type ReportedDocumentView, areaOf } from '@einvoice/areas';
import type { RequestContext } from '../http/request-context';
import type { Connections } from '../infrastructure/infrastructure.module';
import { type SupplierCache, isUuid } from '../suppliers/supplier-lookup';
import { codecs, refusalOf } from './area-codecs';
import { findByReceiptKey, peppolCopyXml } from './document-keys';

/** States of a reported document (libs/domain/src/infrastructure/projections/authority-reports.ts). */
export type ReportState = 'pending' | 'processing' | 'reported' | 'rejected' | 'invalid' | 'cancelling' | 'cancelled';
/** Not final: the authority has not given its verdict yet (a `sync` answer waits past them). */
export const UNANSWERED: readonly ReportState[] = ['pending', 'processing'];

/** A document of the `documents` read model, as the pipeline's routes read it. */
export interface DocumentRow {
  id: string;
  supplier_id: string;
  document_number: string;
  document_type: string;
  state: string;
  /** The report's own state; `state` is the Peppol copy's once one was released (both tracks on one row). */
  report_state: ReportState;
  delivery_status: string | null;
  delivery: { failure?: { code: string; message: string } } | null;
  report_id: string;
  rule_set_id: string;
  fields: Record<string, unknown>;
  authority: {
    receipt?: Record<string, unknown>;
    error?: AuthorityErrorData;
    recovered?: boolean;
    answeredAt?: string;
    cancellationReason?: string;
    cancellationError?: AuthorityErrorData | null;
    amendment?: { id: string; status: 'requested' | 'amended' | 'refused'; error?: AuthorityErrorData };
    validatedAt?: string;
    buyerRejection?: { reason: string; requestedAt: string };
    peppolWithheld?: AuthorityErrorData;
  } | null;
  rendered: { mediaType: string; sha256: string } | null;
  /** Its report asked for a Peppol copy. */
  peppol_copy: boolean;
  created_at: Date;
  updated_at: Date;
}

/**
 * Whether its report asked for a Peppol copy: the row says so since migration DocumentsPeppolCopy; a row a
 * gateway of before wrote during a rolling deploy says nothing (null), and its request event is read instead.
 */
const PEPPOL_COPY = `CASE WHEN documents.peppol_copy IS NOT NULL THEN documents.peppol_copy WHEN documents.report_id IS NULL THEN false
  ELSE coalesce((SELECT e.data ? 'peppolCopy' FROM events e WHERE e.stream_id = 'report-' || documents.report_id AND e.stream_position = 1), false) END AS peppol_copy`;
const DOCUMENT_COLUMNS = `id, supplier_id, document_number, document_type, state, report_state, delivery_status, delivery, report_id, rule_set_id, fields, authority, rendered, ${PEPPOL_COPY}, created_at, updated_at`;
const DOCUMENT_SQL = `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1 AND supplier_id = $2 AND tenant_id = $3`;
/** A document of the tenant in the area, whichever its supplier (`documents.lookup.byIdAlone`). */
const TENANT_DOCUMENT_SQL = `SELECT ${DOCUMENT_COLUMNS} FROM documents WHERE id = $1 AND tenant_id = $2 AND area = $3`;

/** The pipeline's reads of the `documents` read model: a caller's document, the one a new one refers to, a file. */
export class DocumentRows {
  constructor(
    private readonly connections: Connections,
    private readonly suppliers: SupplierCache,
  ) {}

  private readonly query = <T>(sql: string, params: unknown[]): Promise<T[]> => this.connections.dataSource.query(sql, params);

  /** A document of a supplier of the tenant; undefined when there is none. */
  async read(documentId: string, supplierId: string, tenantId: string): Promise<DocumentRow | undefined> {
    const rows: DocumentRow[] = await this.connections.dataSource.query(DOCUMENT_SQL, [documentId, supplierId, tenantId]);
    return rows[0];
  }

  /**
   * A document of this tenant's supplier, else 404 (another tenant's is not found either); also by the
   * field the area names (`documents.lookup.alsoBy`). Where the area finds documents by id alone
   * (`lookup.byIdAlone`: Poland) and the route names no supplier, the tenant's document in the area
   * whichever its supplier; a supplier named must still be the document's.
   */
  async own(code: string, supplierRef: string | undefined, id: string, context: RequestContext): Promise<DocumentRow> {
    const area = areaOf(code);
    const { byIdAlone, alsoBy } = codecs(area).documents.lookup ?? {};
    if (byIdAlone && supplierRef === undefined) {
      const rows: DocumentRow[] = isUuid(id) ? await this.connections.dataSource.query(TENANT_DOCUMENT_SQL, [id, context.tenant.id, code]) : [];
      if (!rows[0]) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} in this area for your account.`);
      return rows[0];
    }
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef);
    const row =
      alsoBy?.of === 'receipt'
        ? await findByReceiptKey<DocumentRow>(this.query, DOCUMENT_COLUMNS, { area: code, supplierId: supplier.id, tenantId: context.tenant.id, key: String(id), receiptField: alsoBy.field })
        : isUuid(id) ? await this.read(id, supplier.id, context.tenant.id) : alsoBy ? await this.readBy(alsoBy.field, String(id), supplier.id, context.tenant.id) : undefined;
    if (!row) throw refusalOf(area, { kind: 'not_found', id }) ?? notFound('DOCUMENT.NOT_FOUND', `No document ${id} for this supplier.`);
    return row;
  }

  /** The Peppol copy's UBL as its report asked for it, released or not; 404 without one (`documents.refusal` words it). */
  async peppolCopy(code: string, row: DocumentRow): Promise<string> {
    const xml = await peppolCopyXml(this.query, row.report_id);
    if (!xml) throw refusalOf(areaOf(code), { kind: 'no_peppol_copy', view: view(row) }) ?? notFound('DOCUMENT.NO_PEPPOL_COPY', `Document ${row.id} has no Peppol copy.`);
    return xml;
  }

  /** A document by a field of its own (`documents.lookup.alsoBy`): the one not refused, else the latest. */
  private async readBy(key: string, value: string, supplierId: string, tenantId: string): Promise<DocumentRow | undefined> {
    const rows: DocumentRow[] = await this.connections.dataSource.query(
      `${DOCUMENT_SQL.replace('WHERE id = $1 AND', 'WHERE fields->>$4 = $1 AND')} ORDER BY (coalesce(report_state, '') IN ('rejected', 'invalid')), created_at DESC LIMIT 1`,
      [value, supplierId, tenantId, key],
    );
    return rows[0];
  }

  /** The earlier document a new one refers to (`ParsedDocument.refersTo`: by id, or by number and fields), else 404. */
  async referenced(supplierId: string, refersTo: NonNullable<ParsedDocument['refersTo']>): Promise<ReferencedDocument> {
    const rows: Array<{ id: string; document_number: string; document_type: string; state: string; fields: Record<string, unknown>; authority: { receipt?: Record<string, unknown> } | null }> =
      refersTo.id !== undefined
        ? isUuid(refersTo.id)
          ? await this.connections.dataSource.query(
              `SELECT id, document_number, document_type, coalesce(report_state, state) AS state, fields, authority FROM documents WHERE supplier_id = $1 AND direction = 'outgoing' AND id = $2`,
              [supplierId, refersTo.id],
            )
          : []
        : await this.connections.dataSource.query(
            `SELECT id, document_number, document_type, coalesce(report_state, state) AS state, fields, authority FROM documents
             WHERE supplier_id = $1 AND direction = 'outgoing' AND document_number = $2 AND fields @> $3::jsonb
             ORDER BY (coalesce(report_state, '') IN ('rejected', 'invalid')) LIMIT 1`,
            [supplierId, refersTo.number, JSON.stringify(refersTo.fields ?? {})],
          );
    const [row] = rows;
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${refersTo.id ?? refersTo.number} of this supplier${refersTo.fields ? ' with these fields' : ''}.`);
    return { documentId: row.id, number: row.document_number, type: row.document_type, state: row.state, fields: row.fields, receipt: row.authority?.receipt ?? null };
  }

  /**
   * The document exactly as sent: to its authority, for a reported one (Poland: the FA(3) XML, not its
   * Peppol copy); else its UBL as it travelled over Peppol, sent or received (BE, DE, SG). Else 404.
   */
  async file(row: DocumentRow): Promise<{ bytes: string; mediaType: string }> {
    const query = (sql: string, params?: unknown[]) => this.connections.dataSource.query(sql, params);
    if (!row.report_id) {
      const document = await documentXml(query, row.id);
      if (document) return { bytes: document.xml, mediaType: 'application/xml' };
    } else {
      const file = await reportedFile(query, row.id);
      if (file) return { bytes: file.bytes, mediaType: file.mediaType ?? 'application/octet-stream' };
    }
    throw notFound('DOCUMENT.NO_FILE', `Document ${row.id} has no rendered file.`);
  }
}

/** A document as GET shows it. */
export function view(row: DocumentRow): ReportedDocumentView {
  return {
    documentId: row.id,
    documentNumber: row.document_number,
    documentType: row.document_type,
    state: row.report_state ?? row.state,
    ruleSetId: row.rule_set_id,
    authority: row.authority?.receipt ?? null,
    error: row.authority?.error ?? null,
    cancellation: row.authority?.cancellationReason ? { reason: row.authority.cancellationReason, error: row.authority.cancellationError ?? null } : null,
    sha256: row.rendered?.sha256 ?? null,
    peppol: row.delivery_status
      ? { deliveryStatus: row.delivery_status, ...(row.delivery_status === 'Failed' && row.delivery?.failure ? { failure: { code: row.delivery.failure.code, message: row.delivery.failure.message } } : {}) }
      : null,
    // What only some areas' authorities tell (shown where set).
    ...(row.peppol_copy ? { peppolCopy: { withheld: row.authority?.peppolWithheld ?? null } } : {}),
    ...(row.authority?.validatedAt ? { validatedAt: row.authority.validatedAt } : {}),
    ...(row.authority?.buyerRejection ? { buyerRejection: row.authority.buyerRejection } : {}),
    fields: row.fields,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
