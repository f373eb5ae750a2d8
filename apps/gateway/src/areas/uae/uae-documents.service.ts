import { Injectable } from '@nestjs/common';
import { AppError, issue, notFound } from '@einvoice/domain';
import { documentXml, loadDocumentAttachments } from '@einvoice/domain/infrastructure';
import { hasDetached, reattachEmbedded } from '@einvoice/areas';
import { Connections } from '../../infrastructure/infrastructure.module';
import { type SupplierRecord, isUuid } from '../../suppliers/supplier-lookup';
import { listPageSize } from './uae-feeds.service';
import { UAE_RECORD_COLUMNS, type UaeRecordRow, uaeRecord } from './uae-records';

/** The seed's ceiling for one embedded attachment, checked against the recorded size before any byte is read. */
export const ATTACHMENT_CEILING_BYTES = 20 * 1024 * 1024;

/**
 * UAE documents as they read back (issue 10 "Documents"; seed 001): a record, the list, the UBL, an
 * attachment, from the `documents` read model. Submission and validation go through the pipeline
 * (uae.controller.ts, libs/areas/src/uae/codec.ts).
 */
@Injectable()
export class UaeDocumentsService {
  constructor(private readonly connections: Connections) {}

  async get(participant: SupplierRecord, documentId: string) {
    return { status: 'success', data: uaeRecord(await this.row(participant, documentId), true) };
  }

  /** `GET …/documents?direction=&since_id=&limit=`: oldest first, in the order the rows were written (below the oldest running transaction, as the feeds). */
  async list(participant: SupplierRecord, query: { direction?: unknown; since_id?: unknown; limit?: unknown }) {
    const direction = listDirection(query.direction);
    const limit = listPageSize(query.limit);
    const sinceId = query.since_id === undefined || query.since_id === '' ? undefined : query.since_id;
    if (sinceId !== undefined && !isUuid(sinceId)) throw invalidSinceId();
    let after: { xid: string; seq: string } | undefined;
    if (sinceId) {
      [after] = await this.connections.dataSource.query(
        `SELECT xid::text AS xid, seq::text AS seq FROM uae_document_order WHERE document_id = $1 AND supplier_id = $2 AND direction = $3`,
        [sinceId, participant.id, direction],
      );
      if (!after) throw invalidSinceId();
    }
    const rows: UaeRecordRow[] = await this.connections.dataSource.query(
      `SELECT ${UAE_RECORD_COLUMNS}
       FROM uae_document_order o JOIN documents d ON d.id = o.document_id
       WHERE o.supplier_id = $1 AND o.direction = $2 AND ($3::xid8 IS NULL OR (o.xid, o.seq) > ($3::xid8, $4::bigint))
         AND o.xid < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY o.xid, o.seq LIMIT $5`,
      [participant.id, direction, after?.xid ?? null, after?.seq ?? null, limit],
    );
    const data = rows.map((row) => uaeRecord(row, false));
    // Caught up: the caller keeps asking from where it is.
    return { status: 'success', data, next_since_id: data.at(-1)?.document_id ?? sinceId ?? null };
  }

  /** The UBL as rendered (the received copy: as received). */
  async xml(participant: SupplierRecord, documentId: string): Promise<string> {
    await this.row(participant, documentId);
    const row = await documentXml((sql, params) => this.connections.dataSource.query(sql, params), documentId);
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${documentId}.`);
    if (!hasDetached(row.xml)) return row.xml;
    return reattachEmbedded(row.xml, await loadDocumentAttachments((sql, parameters) => this.connections.dataSource.query(sql, parameters), row.owner));
  }

  /** One embedded attachment: its size is checked before its bytes are read. */
  async attachment(participant: SupplierRecord, documentId: string, index: string) {
    const record = uaeRecord(await this.row(participant, documentId), false);
    const entry = /^\d{1,6}$/.test(index) ? record.attachments.find((a) => a.index === Number(index)) : undefined;
    if (!entry) throw notFound('ATTACHMENT.NOT_FOUND', `Document ${documentId} has no attachment ${index}.`);
    if (entry.size_bytes > ATTACHMENT_CEILING_BYTES) {
      throw new AppError('validation', 'ATTACHMENT.TOO_LARGE', `Attachment ${index} is ${entry.size_bytes} bytes, above the 20 MiB ceiling.`, {
        issues: [issue('index', 'ATTACHMENT.TOO_LARGE', `Attachments above ${ATTACHMENT_CEILING_BYTES} bytes are not served.`)],
      });
    }
    const [row]: Array<{ content: Buffer }> = await this.connections.dataSource.query(
      `SELECT a.content FROM document_attachments a JOIN documents d ON a.document_id = coalesce(d.source_document_id, d.id)
       WHERE d.id = $1 AND a.index = $2`,
      [documentId, entry.index],
    );
    return { bytes: row.content, filename: entry.filename, mimeCode: entry.mime_code };
  }

  private async row(participant: SupplierRecord, documentId: string): Promise<UaeRecordRow> {
    const rows: UaeRecordRow[] = isUuid(documentId)
      ? await this.connections.dataSource.query(`SELECT ${UAE_RECORD_COLUMNS} FROM documents d WHERE d.id = $1 AND d.supplier_id = $2 AND d.tenant_id = $3`, [
          documentId,
          participant.id,
          participant.tenantId,
        ])
      : [];
    if (!rows[0]) throw notFound('DOCUMENT.NOT_FOUND', `No document ${documentId} for this participant.`);
    return rows[0];
  }
}

/** The documents list takes only `incoming` and `outgoing` (seed "Events"). */
function listDirection(value: unknown): 'incoming' | 'outgoing' {
  // Absent: the participant's own documents (README "Documents").
  if (value === undefined || value === '') return 'outgoing';
  if (value === 'incoming' || value === 'outgoing') return value;
  throw new AppError('validation', 'REQUEST.INVALID', 'The request is invalid.', {
    issues: [issue('direction', 'FIELD.INVALID_VALUE', 'direction must be incoming or outgoing.')],
  });
}

function invalidSinceId(): AppError {
  return new AppError('validation', 'REQUEST.INVALID', 'The request is invalid.', {
    issues: [issue('since_id', 'FIELD.INVALID_VALUE', 'since_id must be the document_id of a document of this list.')],
  });
}
