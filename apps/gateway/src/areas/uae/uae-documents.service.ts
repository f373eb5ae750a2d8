import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import {
  AppError,
  type AuthorityReportRequestedData,
  type DocumentSubmittedData,
  authorityReportDecider,
  authorityReportStreamId,
  deterministicUuid,
  documentDecider,
  documentStreamId,
  issue,
  notFound,
  timeOrderedUuid,
} from '@einvoice/domain';
import { type UnitOfWork, documentXml, handleCommand, loadDocumentAttachments, storeDocumentAttachments } from '@einvoice/domain/infrastructure';
import { detachEmbedded, hasDetached, reattachEmbedded, uae } from '@einvoice/areas';
import { type RequestContext, eventMetadata } from '../../http/request-context';
import { recordResponse } from '../../idempotency/idempotency';
import { Connections } from '../../infrastructure/infrastructure.module';
import { type SupplierRecord, isUuid } from '../../suppliers/supplier-lookup';
import { listPageSize } from './uae-feeds.service';
import { UAE_RECORD_COLUMNS, type UaeRecordRow, uaeRecord } from './uae-records';
import { uaeParticipantId } from './uae-participants.service';
import { rulesPhase } from './uae-rules-phase';

const { uaeDefinition } = uae;

/** The seed's ceiling for one embedded attachment, checked against the recorded size before any byte is read. */
export const ATTACHMENT_CEILING_BYTES = 20 * 1024 * 1024;

/** A document through both validation phases, rendered for its participant. */
interface Checked {
  readonly document: uae.UaeDocument;
  readonly rendered: uae.RenderedUae;
  readonly financialYear: number;
}

/**
 * UAE documents (issue 10 "Documents"; seed 001): two validation phases that never mix (field
 * validation, then the PINT AE rules on the rendered UBL), then one transaction that takes the
 * document number, records the 202, appends the Peppol delivery (exchange track) and the FTA report
 * (reporting track) and stores the attachments once. Reads come from the `documents` read model.
 */
@Injectable()
export class UaeDocumentsService {
  constructor(private readonly connections: Connections) {}

  async submit(participant: SupplierRecord, body: unknown, context: RequestContext) {
    const documentId = timeOrderedUuid();
    const { document, rendered, financialYear } = await this.check(participant, body, documentId);
    const identifier = document.document_identifier;
    const response = {
      status: 'success',
      data: { document_id: documentId, document_identifier: identifier, status: 'accepted', reporting: { status: 'queued' }, exchange: { status: 'processing' } },
    };
    const ruleSetId = uae.uaeDocumentKind(document.document_type).specification.ruleSetId;
    const metadata = eventMetadata(context, ruleSetId);
    const fields = rendered.stored;
    // The events carry the document without its attachments' bytes (stored once, below).
    const compact = compactDocument(rendered);
    const submitted: DocumentSubmittedData = {
      documentId,
      tenantId: context.tenant.id,
      supplierId: participant.id,
      area: uaeDefinition.code,
      // Unique per participant and financial year (the documents index is per supplier).
      documentNumber: `${financialYear}:${identifier}`,
      documentType: document.document_type,
      transportMode: 'peppol',
      senderParticipantId: participant.participantIds[0] ?? uaeParticipantId(uae.uaeDetailsOf(participant.profile).peppolId),
      receiverParticipantId: uaeParticipantId(document.receiving_party.peppol_id),
      fields,
      xml: compact,
      submittedAt: new Date().toISOString(),
    };
    const report: AuthorityReportRequestedData = {
      reportId: deterministicUuid(`uae-report:C2:${documentId}`),
      documentId,
      tenantId: context.tenant.id,
      supplierId: participant.id,
      area: uaeDefinition.code,
      ruleSetId,
      documentNumber: submitted.documentNumber,
      documentType: document.document_type,
      fields,
      document: { bytes: compact, mediaType: 'application/xml', sha256: rendered.sha256 },
      payload: { reporterRole: 'C2', participantId: participant.id },
      requestedAt: submitted.submittedAt,
    };
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 202, response);
      await takeNumber(uow, participant.id, financialYear, identifier, 'document', documentId);
      await handleCommand(uow, documentDecider, documentStreamId(documentId), { type: 'SubmitDocument', data: submitted }, metadata, { newStream: true });
      await handleCommand(uow, authorityReportDecider, authorityReportStreamId(report.reportId), { type: 'RequestAuthorityReport', data: report }, metadata, { newStream: true });
      await storeDocumentAttachments((sql, parameters) => uow.query(sql, parameters), documentId, rendered.attachments);
    });
    return response;
  }

  /** `…/documents/validate`: both phases; a valid document's number is consumed (seed: it cannot be submitted afterwards). */
  async validate(participant: SupplierRecord, body: unknown, context: RequestContext) {
    const { document, financialYear } = await this.check(participant, body, randomUUID());
    const response = { status: 'success', message: 'Document is valid.', data: { document_identifier: document.document_identifier } };
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 200, response);
      await takeNumber(uow, participant.id, financialYear, document.document_identifier, 'validate', null);
    });
    return response;
  }

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

  /** Phase 1 (fields), render, phase 2 (rules): each 400 on its own, nothing stored. */
  private async check(participant: SupplierRecord, body: unknown, documentId: string): Promise<Checked> {
    const parsed = uae.parseUaeDocument(body);
    if ('issues' in parsed) throw new AppError('validation', 'DOCUMENT.SCHEMA', uae.uaeSchemaMessage, { issues: parsed.issues });
    const { document } = parsed;
    const rendered = uae.renderUae(document, uae.uaeIssuerOf(participant.profile), { uuid: documentId });
    await rulesPhase(document, rendered);
    const financialYear = uae.financialYearOf(document.issue_date, uae.uaeDetailsOf(participant.profile).financialYearStart);
    return { document, rendered, financialYear };
  }
}

/**
 * Takes a document number for the financial year, in the caller's transaction (so it is taken
 * exactly when its document or validation is recorded). A number already taken is a 409: by a
 * document, a duplicate; by a validation, the seed's retention rule (409, not its 500: README).
 */
async function takeNumber(uow: UnitOfWork, supplierId: string, financialYear: number, identifier: string, takenBy: 'document' | 'validate', documentId: string | null) {
  const taken: unknown[] = await uow.query(
    `INSERT INTO uae_document_numbers (supplier_id, financial_year, document_identifier, taken_by, document_id) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT DO NOTHING RETURNING 1`,
    [supplierId, financialYear, identifier, takenBy, documentId],
  );
  if (taken.length === 1) return;
  const [holder]: Array<{ taken_by: string }> = await uow.query(
    `SELECT taken_by FROM uae_document_numbers WHERE supplier_id = $1 AND financial_year = $2 AND document_identifier = $3`,
    [supplierId, financialYear, identifier],
  );
  if (holder?.taken_by === 'validate') {
    throw new AppError('conflict', 'DOCUMENT.RETENTION_BLOCKED', 'The operation was blocked by a retention rule.', {
      issues: [issue('document_identifier', 'DOCUMENT.RETENTION_BLOCKED', `${identifier} went through validate in financial year ${financialYear}: send the document under a new number.`)],
    });
  }
  throw new AppError('conflict', 'DOCUMENT.DUPLICATE_ID', `Document ${identifier} exists already in financial year ${financialYear}.`, {
    issues: [issue('document_identifier', 'DOCUMENT.DUPLICATE_ID', `${identifier} is already used by this participant in financial year ${financialYear}.`)],
  });
}

/**
 * The rendered document without its attachments' bytes. Each detached object must be the attachment
 * of the same number (both count embedded objects in document order), or reattaching would swap files.
 */
function compactDocument(rendered: uae.RenderedUae): string {
  const { xml, detached } = detachEmbedded(rendered.xml);
  for (const [index, bytes] of detached) {
    if (!rendered.attachments[index - 1]?.bytes.equals(bytes)) {
      throw new AppError('internal', 'DOCUMENT.ATTACHMENT_ORDER', `Embedded object ${index} is not attachment ${index}.`, { retriable: false });
    }
  }
  return xml;
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
