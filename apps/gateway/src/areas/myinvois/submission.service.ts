import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, EventMetadata, MyInvoisDocumentsSubmittedData, MyInvoisSubmissionKind, SubmissionError, issue, myInvoisSubmissionDecider, myInvoisSubmissionStreamId, notFound } from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { recordResponse } from '../../idempotency/idempotency';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache } from '../../suppliers/supplier-lookup';
import type { RequestContext } from '../peppol/peppol-area.service';
import { assertTransportMode } from '../peppol/transport-mode';
import { peppolCopyOf } from './peppol-leg';
import { RawDocument, myInvoisDocumentBytes, peppolCopyBytes } from './raw-documents';

/** The status and body the controller sends. */
export interface SubmissionAnswer {
  readonly statusCode: 200 | 202;
  readonly body: unknown;
}

type DocumentState = 'pending' | 'submitted' | 'rejected' | 'valid' | 'invalid' | 'cancelling' | 'cancelled' | 'rejecting' | 'rejected_by_buyer';

/** Cancellation (issuer) and rejection (buyer) take the same path: request, the worker asks MyInvois, the answer. */
interface StateChange {
  readonly command: 'RequestCancellation' | 'RequestRejection';
  readonly noun: string;
  readonly done: string;
  readonly from: readonly DocumentState[];
  readonly during: DocumentState;
  readonly after: DocumentState;
  readonly notAllowed: string;
  readonly refused: string;
}
const STATE_CHANGES = {
  cancel: {
    command: 'RequestCancellation', noun: 'cancellation', done: 'cancelled', from: ['valid', 'rejected_by_buyer'], during: 'cancelling', after: 'cancelled',
    notAllowed: 'MYINVOIS.NOT_CANCELLABLE', refused: 'MYINVOIS.CANCEL_REFUSED',
  },
  reject: {
    command: 'RequestRejection', noun: 'rejection', done: 'rejected (once, within 72 h of validation)', from: ['valid'], during: 'rejecting', after: 'rejected_by_buyer',
    notAllowed: 'MYINVOIS.NOT_REJECTABLE', refused: 'MYINVOIS.REJECT_REFUSED',
  },
} satisfies Record<string, StateChange>;

interface DocumentRow {
  id: string;
  submission_id: string;
  invoice_code_number: string;
  kind: string;
  state: DocumentState;
  uuid: string | null;
  long_id: string | null;
  submission_uid: string | null;
  error: SubmissionError | null;
  created_at: Date;
  updated_at: Date;
  peppol_document_id: string | null;
  /** Null without a copy, or for a schema-1 copy (sent at submission). */
  peppol_state: 'awaiting_validation' | 'released' | 'withheld' | null;
  peppol_reason: SubmissionError | null;
  peppol_delivery_status?: string | null;
}

const documentHref = (documentId: string) => `/api/einvoice/documents/${documentId}`;

/**
 * Malaysian area, submission (#4; seed 000 "Invoice-type document", submission response). The
 * gateway validates, renders and appends; the reporting worker submits to MyInvois and records
 * its answer. The request waits for that answer in the read model up to `MYINVOIS_WAIT_MS`
 * (200), else answers 202 with the documents still pending and where to poll them (README.md).
 */
@Injectable()
export class MyInvoisSubmissionService {
  private readonly suppliers = new SupplierCache();
  private readonly waitMs = Number(process.env.MYINVOIS_WAIT_MS ?? 5_000);

  constructor(private readonly connections: Connections) {}

  async submit(
    kind: MyInvoisSubmissionKind,
    shape: 'single' | 'bulk',
    headers: { supplier?: string | string[]; transportMode?: string },
    body: unknown,
    context: RequestContext,
  ): Promise<SubmissionAnswer> {
    assertTransportMode(headers.transportMode);
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', headers.supplier);
    const bodies = shape === 'bulk' ? myinvois.checkBulkCount(body) : [body];
    const ids = myinvois.requestedIds(bodies);
    const taken: Array<{ invoice_code_number: string }> = ids.length
      ? await this.connections.dataSource.query(
          `SELECT invoice_code_number FROM myinvois_documents
           WHERE supplier_id = $1 AND invoice_code_number = ANY($2) AND state NOT IN ('rejected', 'invalid', 'cancelled')`,
          [supplier.id, ids],
        )
      : [];
    const mySupplier = myinvois.supplierOfProfile(supplier.profile);
    const checked = myinvois.prepareSubmission(kind, bodies, mySupplier, new Set(taken.map((r) => r.invoice_code_number)));
    // transport_mode: peppol (explicit): the PINT MY form also goes over Peppol once MyInvois says Valid (README "Submission").
    const prepared: myinvois.PreparedPeppolSubmission = headers.transportMode === 'peppol' ? myinvois.preparePeppolLeg(checked, mySupplier) : checked;
    // One document: its refusal is the request's (400, or 409 for a duplicate ID).
    if (shape === 'single' && prepared.rejected[0]) throw asRequestError(prepared.rejected[0].error);

    const submissionId = randomUUID();
    const data: MyInvoisDocumentsSubmittedData = {
      submissionId,
      tenantId: context.tenant.id,
      supplierId: supplier.id,
      kind,
      documents: prepared.documents.map((d) => ({
        documentId: randomUUID(),
        invoiceCodeNumber: d.submission.codeNumber,
        format: d.submission.format,
        document: String(d.submission.document),
        documentHash: d.submission.documentHash,
        ...(d.peppol ? { peppol: peppolCopyOf(d) } : {}),
      })),
      submittedAt: new Date().toISOString(),
    };
    const pending = answer(submissionId, null, [], prepared.rejected, data.documents.map((d) => ({ id: d.documentId, invoice_code_number: d.invoiceCodeNumber })));
    const statusCode = data.documents.length ? 202 : 200;
    const metadata: EventMetadata = { tenantId: context.tenant.id, correlationId: context.correlationId, idempotencyKey: context.idempotency?.key };
    await this.connections.store.transaction(async (uow) => {
      // A replay of this request answers the 202 with the poll links: its outcome is in GET.
      await recordResponse(uow, context.idempotency, statusCode, pending);
      if (data.documents.length) {
        await handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(submissionId), { type: 'SubmitToMyInvois', data }, metadata);
      }
    });
    if (!data.documents.length) return { statusCode: 200, body: pending };
    const rows = await this.waitFor(
      `SELECT * FROM myinvois_documents WHERE submission_id = $1 ORDER BY created_at, invoice_code_number`,
      [submissionId],
      (r) => r.state !== 'pending',
    );
    const open = rows.filter((r) => r.state === 'pending');
    const submissionUid = rows.find((r) => r.submission_uid)?.submission_uid ?? null;
    const accepted = rows.filter((r) => r.uuid && r.state !== 'rejected').map((r) => ({ uuid: r.uuid as string, invoiceCodeNumber: r.invoice_code_number }));
    const rejected = [
      ...prepared.rejected,
      ...rows.filter((r) => r.state === 'rejected').map((r) => ({ invoiceCodeNumber: r.invoice_code_number, error: r.error as SubmissionError })),
    ];
    return { statusCode: open.length ? 202 : 200, body: answer(submissionId, submissionUid, accepted, rejected, open) };
  }

  /** `GET /api/einvoice/documents/{id}`: by our document id, the MyInvois uuid, or the `ID` (latest). */
  async document(supplierHeader: string | string[] | undefined, id: string, context: RequestContext) {
    return { status: 'success', data: view(await this.find(supplierHeader, id, context)) };
  }

  /** `GET /api/einvoice/documents/{id}/raw`: the exact bytes submitted to MyInvois (the ones its hash covers). */
  async raw(supplierHeader: string | string[] | undefined, id: string, context: RequestContext): Promise<RawDocument> {
    return myInvoisDocumentBytes(this.connections.dataSource, await this.find(supplierHeader, id, context));
  }

  /** `GET /api/einvoice/documents/{id}/peppol`: the PINT MY copy, 404 when the document has none. */
  async peppolCopy(supplierHeader: string | string[] | undefined, id: string, context: RequestContext): Promise<RawDocument> {
    return peppolCopyBytes(this.connections.dataSource, await this.find(supplierHeader, id, context));
  }

  /**
   * `POST /api/einvoice/documents/{id}/cancel` `{reason}`: a valid document is cancelled at
   * MyInvois by the reporting worker; 200 once cancelled, 409 `MYINVOIS.CANCEL_REFUSED` with the
   * authority's reason, or 202 (poll GET) when MyInvois has not answered within MYINVOIS_WAIT_MS.
   * A document rejected by the buyer (`rejected_by_buyer`) is still valid there: it can be cancelled.
   */
  cancel(supplierHeader: string | string[] | undefined, id: string, body: unknown, context: RequestContext): Promise<SubmissionAnswer> {
    return this.changeState(STATE_CHANGES.cancel, supplierHeader, id, body, context);
  }

  /**
   * `POST /api/einvoice/documents/{id}/reject` `{reason}` (SDK "04 reject document"): a valid
   * document, within 72 h of its validation and once, is rejected at MyInvois by the reporting
   * worker; 200 `rejected_by_buyer`, 409 `MYINVOIS.NOT_REJECTABLE` / `MYINVOIS.REJECTION_PERIOD_OVER`
   * / `MYINVOIS.REJECT_REFUSED` (the authority's reason), or 202 (poll GET) as for cancel.
   */
  reject(supplierHeader: string | string[] | undefined, id: string, body: unknown, context: RequestContext): Promise<SubmissionAnswer> {
    return this.changeState(STATE_CHANGES.reject, supplierHeader, id, body, context);
  }

  private async changeState(
    change: StateChange,
    supplierHeader: string | string[] | undefined,
    id: string,
    body: unknown,
    context: RequestContext,
  ): Promise<SubmissionAnswer> {
    const reason = (body as { reason?: unknown } | null)?.reason;
    if (typeof reason !== 'string' || reason.trim().length === 0 || reason.length > 300) {
      throw new AppError('validation', 'REQUEST.INVALID', 'reason is required: 1 to 300 characters.', {
        issues: [issue('reason', 'FIELD.REQUIRED', `Give the reason for the ${change.noun} (1 to 300 characters).`)],
      });
    }
    const row = await this.find(supplierHeader, id, context);
    if (!change.from.includes(row.state) || !row.uuid) {
      throw new AppError('conflict', change.notAllowed, `Only a valid document can be ${change.done}; this one is ${row.state}.`, {
        issues: [issue('id', change.notAllowed, `The document is ${row.state}.`)],
      });
    }
    const pending = { status: 'pending', data: { ...view({ ...row, state: change.during }), href: documentHref(row.id) } };
    const metadata: EventMetadata = { tenantId: context.tenant.id, correlationId: context.correlationId, idempotencyKey: context.idempotency?.key };
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 202, pending);
      await handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(row.submission_id), {
        type: change.command,
        data: { submissionId: row.submission_id, documentId: row.id, uuid: row.uuid as string, reason, requestedAt: new Date().toISOString() },
      }, metadata);
    });
    const [after] = await this.waitFor(
      `SELECT m.*, d.delivery_status AS peppol_delivery_status FROM myinvois_documents m LEFT JOIN documents d ON d.id = m.peppol_document_id WHERE m.id = $1`,
      [row.id], (r) => r.state !== change.during);
    if (after?.state === change.after) return { statusCode: 200, body: { status: 'success', data: view(after) } };
    if (after && change.from.includes(after.state)) {
      throw new AppError('conflict', change.refused, `MyInvois refused the ${change.noun}: ${after.error?.message ?? ''}`, {
        issues: [issue('id', after.error?.code ?? change.refused, after.error?.message ?? 'Refused.')],
      });
    }
    return { statusCode: 202, body: pending };
  }

  private async find(supplierHeader: string | string[] | undefined, id: string, context: RequestContext): Promise<DocumentRow> {
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const rows: DocumentRow[] = await this.connections.dataSource.query(
      `SELECT m.*, d.delivery_status AS peppol_delivery_status FROM myinvois_documents m
       LEFT JOIN documents d ON d.id = m.peppol_document_id
       WHERE m.supplier_id = $1 AND m.tenant_id = $2 AND (m.id::text = $3 OR m.uuid = $3 OR m.invoice_code_number = $3)
       ORDER BY m.created_at DESC LIMIT 1`,
      [supplier.id, context.tenant.id, id],
    );
    if (!rows[0]) throw notFound('DOCUMENT.NOT_FOUND', `No MyInvois document ${id} for this supplier.`);
    return rows[0];
  }

  /** Polls the read model until `done` holds for every row, or MYINVOIS_WAIT_MS passes. */
  private async waitFor(sql: string, params: unknown[], done: (row: DocumentRow) => boolean): Promise<DocumentRow[]> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const rows: DocumentRow[] = await this.connections.dataSource.query(sql, params);
      if (rows.every(done) || Date.now() >= deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))));
    }
  }
}

/** A document as GET shows it. */
function view(row: DocumentRow) {
  return {
    documentId: row.id,
    invoiceCodeNumber: row.invoice_code_number,
    kind: row.kind,
    state: row.state,
    uuid: row.uuid,
    longId: row.long_id,
    submissionUid: row.submission_uid,
    error: row.error,
    peppol: peppolView(row),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
/**
 * transport_mode: peppol: where the PINT MY copy is. `awaiting_validation` until MyInvois says Valid,
 * then the `documents` read model's Scheduled | Delivered; `withheld` (with `reason`) when it never
 * leaves (invalid, rejected, ID already sent over Peppol). Null when the document has no copy.
 */
function peppolView(row: DocumentRow) {
  if (!row.peppol_document_id) return null;
  // Released (or a schema-1 copy, appended at submission): its documents row; Scheduled until that says otherwise.
  const held = row.peppol_state === 'awaiting_validation' || row.peppol_state === 'withheld' ? row.peppol_state : undefined;
  const deliveryStatus = held ?? row.peppol_delivery_status ?? 'Scheduled';
  return { documentId: row.peppol_document_id, deliveryStatus, reason: deliveryStatus === 'withheld' ? row.peppol_reason : null };
}

/** The seed's submission response, plus the documents still waiting for MyInvois and where to poll them. */
function answer(
  submissionId: string,
  submissionUid: string | null,
  acceptedDocuments: readonly { uuid: string; invoiceCodeNumber: string }[],
  rejectedDocuments: readonly { invoiceCodeNumber: string; error: SubmissionError }[],
  pending: readonly { id: string; invoice_code_number: string }[],
) {
  return {
    status: 'submitted',
    data: {
      submissionId,
      submissionResponse: {
        submissionUid,
        acceptedDocuments,
        rejectedDocuments,
        pendingDocuments: pending.map((p) => ({ documentId: p.id, invoiceCodeNumber: p.invoice_code_number, href: documentHref(p.id) })),
      },
    },
  };
}

function asRequestError(error: SubmissionError): AppError {
  const issues = (error.details ?? []).map((d) => issue(d.propertyPath ?? d.target ?? '', d.code, d.message));
  return new AppError(error.code === 'DOCUMENT.DUPLICATE_ID' ? 'conflict' : 'validation', error.code, error.message, { issues });
}
