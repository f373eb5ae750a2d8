import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, issue, notFound } from '@einvoice/domain';
import { MyInvoisDocumentsSubmittedData, MyInvoisSubmissionKind, SubmissionError, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { areaOf, myinvois, validateBody } from '@einvoice/areas';
import { recordResponse } from '../../idempotency/idempotency';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache } from '../../suppliers/supplier-lookup';
import { type RequestContext, eventMetadata } from '../../http/request-context';
import { myInvoisTransportMode } from './transport-mode';
import { submittedDocumentOf } from './peppol-leg';
import { RawDocument, myInvoisDocumentBytes, peppolCopyBytes } from './raw-documents';
import { MyInvoisReasonBody } from './reason.dto';
import { SubmissionAnswer, requestStateChange, waitForRows } from './state-change';

export type { SubmissionAnswer } from './state-change';

type DocumentState = 'pending' | 'submitted' | 'rejected' | 'valid' | 'invalid' | 'cancelling' | 'cancelled' | 'rejected_by_buyer';

/** Cancellable: valid, also when its buyer asked MyInvois to reject it (still valid there). */
const CANCELLABLE: readonly DocumentState[] = ['valid', 'rejected_by_buyer'];

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
  /** Null without a copy; `released` also for a copy sent at submission (schema 1, upcast). */
  peppol_state: 'awaiting_validation' | 'released' | 'withheld' | null;
  peppol_reason: SubmissionError | null;
  peppol_delivery_status?: string | null;
  validated_at: Date | null;
  rejection_reason: string | null;
  rejection_requested_at: Date | null;
}

const documentHref = (documentId: string) => `/api/einvoice/documents/${documentId}`;
const DOCUMENT_SQL = `SELECT m.*, d.delivery_status AS peppol_delivery_status FROM myinvois_documents m LEFT JOIN documents d ON d.id = m.peppol_document_id`;

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
    const transportMode = myInvoisTransportMode(headers.transportMode);
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
    // transport_mode: peppol: the PINT MY form also goes over Peppol once MyInvois says Valid (README "Submission").
    const prepared: myinvois.PreparedPeppolSubmission = transportMode === 'peppol' ? myinvois.preparePeppolLeg(checked, mySupplier) : checked;
    // One document: its refusal is the request's (400, or 409 for a duplicate ID).
    if (shape === 'single' && prepared.rejected[0]) throw asRequestError(prepared.rejected[0].error);

    const submissionId = randomUUID();
    const data: MyInvoisDocumentsSubmittedData = {
      submissionId,
      tenantId: context.tenant.id,
      supplierId: supplier.id,
      kind,
      documents: prepared.documents.map(submittedDocumentOf),
      submittedAt: new Date().toISOString(),
    };
    const pending = answer(submissionId, null, [], prepared.rejected, data.documents.map((d) => ({ id: d.documentId, invoice_code_number: d.invoiceCodeNumber })));
    const statusCode = data.documents.length ? 202 : 200;
    const metadata = eventMetadata(context, areaOf('my').ruleSetId);
    await this.connections.store.transaction(async (uow) => {
      // A replay of this request answers the 202 with the poll links: its outcome is in GET.
      await recordResponse(uow, context.idempotency, statusCode, pending);
      if (data.documents.length) {
        await handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(submissionId), { type: 'SubmitToMyInvois', data }, metadata);
      }
    });
    if (!data.documents.length) return { statusCode: 200, body: pending };
    const rows = await waitForRows<DocumentRow>(
      () => this.connections.dataSource.query(`SELECT * FROM myinvois_documents WHERE submission_id = $1 ORDER BY created_at, invoice_code_number`, [submissionId]),
      (r) => r.state !== 'pending',
      this.waitMs,
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
  async cancel(supplierHeader: string | string[] | undefined, id: string, body: unknown, context: RequestContext): Promise<SubmissionAnswer> {
    const { reason } = validateBody(MyInvoisReasonBody, body);
    const row = await this.find(supplierHeader, id, context);
    if (!CANCELLABLE.includes(row.state) || !row.uuid) {
      throw new AppError('conflict', 'MYINVOIS.NOT_CANCELLABLE', `Only a valid document (rejected by its buyer or not) can be cancelled; this one is ${row.state}.`, {
        issues: [issue('id', 'MYINVOIS.NOT_CANCELLABLE', `The document is ${row.state}.`)],
      });
    }
    const uuid = row.uuid;
    return requestStateChange<DocumentRow>(this.connections, context, this.waitMs, {
      pending: { status: 'pending', data: { ...view({ ...row, state: 'cancelling' }), href: documentHref(row.id) } },
      record: (uow, metadata) =>
        handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(row.submission_id), {
          type: 'RequestCancellation',
          data: { submissionId: row.submission_id, documentId: row.id, uuid, reason, requestedAt: new Date().toISOString() },
        }, metadata),
      read: async () => (await this.connections.dataSource.query(`${DOCUMENT_SQL} WHERE m.id = $1`, [row.id]))[0],
      inFlight: (after) => after.state === 'cancelling',
      outcome: (after) =>
        after.state === 'cancelled'
          ? { done: { status: 'success', data: view(after) } }
          : {
              refused: new AppError('conflict', 'MYINVOIS.CANCEL_REFUSED', `MyInvois refused the cancellation: ${after.error?.message ?? ''}`, {
                issues: [issue('id', after.error?.code ?? 'MYINVOIS.CANCEL_REFUSED', after.error?.message ?? 'Refused.')],
              }),
            },
    });
  }

  private async find(supplierHeader: string | string[] | undefined, id: string, context: RequestContext): Promise<DocumentRow> {
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const rows: DocumentRow[] = await this.connections.dataSource.query(
      `${DOCUMENT_SQL}
       WHERE m.supplier_id = $1 AND m.tenant_id = $2 AND (m.id::text = $3 OR m.uuid = $3 OR m.invoice_code_number = $3)
       ORDER BY m.created_at DESC LIMIT 1`,
      [supplier.id, context.tenant.id, id],
    );
    if (!rows[0]) throw notFound('DOCUMENT.NOT_FOUND', `No MyInvois document ${id} for this supplier.`);
    return rows[0];
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
    validatedAt: row.validated_at ? new Date(row.validated_at).toISOString() : null,
    // The buyer asked MyInvois to reject it (seen by the reporting worker's rejection watch).
    rejectedByBuyer: row.rejection_requested_at ? { reason: row.rejection_reason, requestedAt: new Date(row.rejection_requested_at).toISOString() } : null,
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
  // Released: its documents row; Scheduled until that says otherwise.
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
