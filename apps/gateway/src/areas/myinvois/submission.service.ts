import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, type AuthorityErrorData, type AuthorityReportRequestedData, authorityReportDecider, authorityReportStreamId, issue, notFound, timeOrderedUuid } from '@einvoice/domain';
import { handleCommand, reportedFile } from '@einvoice/domain/infrastructure';
import { MyInvoisSubmissionKind, PEPPOL_WITHHELD, SubmissionError, areaOf, myinvois, validateBody } from '@einvoice/areas';
import { recordResponse } from '../../idempotency/idempotency';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache, isUuid } from '../../suppliers/supplier-lookup';
import { type RequestContext, eventMetadata } from '../../http/request-context';
import { OutcomeWaiter } from '../../pipeline/outcome-waiter';
import { myInvoisTransportMode } from './transport-mode';
import { reportOfPrepared } from './peppol-leg';
import { RawDocument, rawDocument } from './raw-documents';
import { MyInvoisReasonBody } from './reason.dto';
import { SubmissionAnswer, requestStateChange } from './state-change';

export type { SubmissionAnswer } from './state-change';

type DocumentState = 'pending' | 'submitted' | 'rejected' | 'valid' | 'invalid' | 'cancelling' | 'cancelled' | 'rejected_by_buyer';

/** Cancellable: valid, also when its buyer asked MyInvois to reject it (still valid there). */
const CANCELLABLE: readonly DocumentState[] = ['valid', 'rejected_by_buyer'];

/** A MyInvois document's `documents` row: one report of the generic reporting pipeline (#8). */
interface DocumentRow {
  id: string;
  document_number: string;
  /** The submission's kind: invoice, consolidated, self-billed. */
  document_type: string;
  report_id: string;
  report_state: 'pending' | 'processing' | 'reported' | 'rejected' | 'invalid' | 'cancelling' | 'cancelled';
  /** The caller's submission (`submissionId`). */
  batch_key: string;
  delivery_status: string | null;
  authority: {
    receipt?: myinvois.MyInvoisReceipt;
    error?: AuthorityErrorData;
    cancellationError?: AuthorityErrorData | null;
    validatedAt?: string;
    buyerRejection?: { reason: string; requestedAt: string };
    peppolWithheld?: AuthorityErrorData;
  } | null;
  rendered: { bytes?: string; mediaType: string; sha256: string } | null;
  /** Its report asked for a PINT MY copy (`transport_mode: peppol`, a buyer reachable over Peppol). */
  has_peppol_copy: boolean;
  created_at: Date;
  updated_at: Date;
}

const documentHref = (documentId: string) => `/api/einvoice/documents/${documentId}`;
const DOCUMENT_COLUMNS = `d.id, d.document_number, d.document_type, d.report_id, d.report_state, d.batch_key, d.delivery_status, d.authority,
  jsonb_build_object('mediaType', d.rendered->'mediaType', 'sha256', d.rendered->'sha256') AS rendered, d.created_at, d.updated_at,
  coalesce((SELECT e.data ? 'peppolCopy' FROM events e WHERE e.stream_id = 'report-' || d.report_id AND e.stream_position = 1), false) AS has_peppol_copy`;
/**
 * What a submission's answer needs of its documents (read for up to 100 documents per wake-up while the
 * request waits: not the Peppol-copy lookup in the report's first event that GET needs).
 */
type AnswerRow = Pick<DocumentRow, 'id' | 'document_number' | 'report_state' | 'authority'>;
const ANSWER_COLUMNS = 'id, document_number, report_state, authority';
/** Not answered by MyInvois's Submit Documents yet. */
const unanswered = (row: AnswerRow) => row.report_state === 'pending';

/**
 * Malaysian area, submission (#4; seed 000 "Invoice-type document", submission response). The
 * gateway validates and renders, and records one report per document of the generic reporting
 * pipeline (#8), the caller's submission being their batch key: the reporting worker sends them in
 * one Submit Documents call and polls their verdicts. The request waits for MyInvois's answer up to
 * `MYINVOIS_WAIT_MS` (200), else answers 202 with the documents still pending and where to poll them.
 */
@Injectable()
export class MyInvoisSubmissionService {
  private readonly suppliers = new SupplierCache();
  private readonly waitMs = Number(process.env.MYINVOIS_WAIT_MS ?? 5_000);

  constructor(
    private readonly connections: Connections,
    private readonly outcomes: OutcomeWaiter,
  ) {}

  async submit(
    kind: MyInvoisSubmissionKind,
    shape: 'single' | 'bulk',
    headers: { supplier?: string; transportMode?: string },
    body: unknown,
    context: RequestContext,
  ): Promise<SubmissionAnswer> {
    const transportMode = myInvoisTransportMode(headers.transportMode);
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', headers.supplier);
    const bodies = shape === 'bulk' ? myinvois.checkBulkCount(body) : [body];
    const ids = myinvois.requestedIds(bodies);
    // An ID is taken while its document lives: refused, invalid and cancelled ones free it. One probe of
    // documents_supplier_number_key per ID (the LATERAL's LIMIT keeps it a probe): with `= ANY` the
    // planner, on statistics older than the supplier's growth, scanned all the supplier's rows for
    // each bulk (21 ms at 15,000 documents; issue 11).
    const taken: Array<{ document_number: string }> = ids.length
      ? await this.connections.dataSource.query(
          `SELECT n.number AS document_number FROM unnest($2::text[]) AS n(number)
           CROSS JOIN LATERAL (
             SELECT 1 FROM documents
             WHERE supplier_id = $1 AND document_number = n.number AND direction = 'outgoing'
               AND (report_state IS NULL OR report_state NOT IN ('rejected', 'invalid', 'cancelled'))
             LIMIT 1
           ) AS held`,
          [supplier.id, ids],
        )
      : [];
    const mySupplier = myinvois.supplierOfProfile(supplier.profile);
    const checked = myinvois.prepareSubmission(kind, bodies, mySupplier, new Set(taken.map((r) => r.document_number)));
    // transport_mode: peppol: the PINT MY form also goes over Peppol once MyInvois says Valid (README "Submission").
    const prepared: myinvois.PreparedPeppolSubmission = transportMode === 'peppol' ? myinvois.preparePeppolLeg(checked, mySupplier) : checked;
    // One document: its refusal is the request's (400, or 409 for a duplicate ID).
    if (shape === 'single' && prepared.rejected[0]) throw asRequestError(prepared.rejected[0].error);

    const area = areaOf('my');
    const submissionId = randomUUID();
    const requestedAt = new Date().toISOString();
    const reports: AuthorityReportRequestedData[] = prepared.documents.map((document) =>
      reportOfPrepared(document, { submissionId, kind, tenantId: context.tenant.id, supplierId: supplier.id, ruleSetId: area.ruleSetId, documentId: timeOrderedUuid(), reportId: randomUUID(), requestedAt }),
    );
    const pending = answer(submissionId, null, [], prepared.rejected, reports.map((r) => ({ id: r.documentId, document_number: r.documentNumber })));
    const statusCode = reports.length ? 202 : 200;
    const metadata = eventMetadata(context, area.ruleSetId);
    await this.connections.store.transaction(async (uow) => {
      // A replay of this request answers the 202 with the poll links: its outcome is in GET.
      await recordResponse(uow, context.idempotency, statusCode, pending);
      for (const data of reports) {
        await handleCommand(uow, authorityReportDecider, authorityReportStreamId(data.reportId), { type: 'RequestAuthorityReport', data }, metadata, { newStream: true });
      }
    });
    if (!reports.length) return { statusCode: 200, body: pending };
    const rows = await this.answered(reports.map((r) => r.documentId));
    const open = rows.filter(unanswered);
    const submissionUid = rows.find((r) => r.authority?.receipt?.submissionUid)?.authority?.receipt?.submissionUid ?? null;
    const accepted = rows
      .filter((r) => r.authority?.receipt?.uuid && r.report_state !== 'rejected')
      .map((r) => ({ uuid: r.authority!.receipt!.uuid, invoiceCodeNumber: r.document_number }));
    const rejected = [
      ...prepared.rejected,
      ...rows.filter((r) => r.report_state === 'rejected').map((r) => ({ invoiceCodeNumber: r.document_number, error: errorOf(r.authority?.error) as SubmissionError })),
    ];
    return { statusCode: open.length ? 202 : 200, body: answer(submissionId, submissionUid, accepted, rejected, open) };
  }

  /**
   * The documents once MyInvois answered their submission, waited for on their outcome
   * notifications (OutcomeWaiter) within one MYINVOIS_WAIT_MS for all, read together; in submission order.
   */
  private async answered(documentIds: readonly string[]): Promise<AnswerRow[]> {
    const read = async (open: readonly string[]) => {
      const rows: AnswerRow[] = await this.connections.dataSource.query(`SELECT ${ANSWER_COLUMNS} FROM documents WHERE id = ANY($1::uuid[])`, [open]);
      return new Map(rows.map((row) => [row.id, row]));
    };
    const rows = await this.outcomes.waitForAll(documentIds, this.waitMs, read, (r) => !unanswered(r));
    return documentIds.flatMap((id) => rows.get(id) ?? []);
  }

  /** `GET /api/einvoice/documents/{id}`: by our document id, the MyInvois uuid, or the `ID` (latest). */
  async document(supplierHeader: string | undefined, id: string, context: RequestContext) {
    return { status: 'success', data: view(await this.find(supplierHeader, id, context)) };
  }

  /** `GET /api/einvoice/documents/{id}/raw`: the exact bytes submitted to MyInvois (the ones its hash covers). */
  async raw(supplierHeader: string | undefined, id: string, context: RequestContext): Promise<RawDocument> {
    const row = await this.find(supplierHeader, id, context);
    const file = await reportedFile((sql, params) => this.connections.dataSource.query(sql, params), row.id);
    if (!file) throw notFound('DOCUMENT.NOT_FOUND', `No MyInvois document ${id} for this supplier.`);
    return rawDocument(file.bytes, `${file.mediaType ?? 'application/json'}; charset=utf-8`);
  }

  /**
   * `GET /api/einvoice/documents/{id}/peppol`: its PINT MY copy, sent, awaiting validation or withheld
   * (GET `peppol` says which), as its report carries it; 404 `DOCUMENT.NO_PEPPOL_COPY` when it has none.
   */
  async peppolCopy(supplierHeader: string | undefined, id: string, context: RequestContext): Promise<RawDocument> {
    const row = await this.find(supplierHeader, id, context);
    const [copy]: Array<{ xml: string | null }> = await this.connections.dataSource.query(
      `SELECT data->'peppolCopy'->>'xml' AS xml FROM events WHERE stream_id = $1 AND stream_position = 1`,
      [authorityReportStreamId(row.report_id)],
    );
    if (!copy?.xml) throw notFound('DOCUMENT.NO_PEPPOL_COPY', `MyInvois document ${row.id} has no Peppol copy (sent without transport_mode: peppol, consolidated, or to a generic TIN).`);
    return rawDocument(copy.xml, 'application/xml; charset=utf-8');
  }

  /**
   * `POST /api/einvoice/documents/{id}/cancel` `{reason}`: a valid document is cancelled at
   * MyInvois by the reporting worker; 200 once cancelled, 409 `MYINVOIS.CANCEL_REFUSED` with the
   * authority's reason, or 202 (poll GET) when MyInvois has not answered within MYINVOIS_WAIT_MS.
   * A document rejected by the buyer (`rejected_by_buyer`) is still valid there: it can be cancelled.
   */
  async cancel(supplierHeader: string | undefined, id: string, body: unknown, context: RequestContext): Promise<SubmissionAnswer> {
    const { reason } = validateBody(MyInvoisReasonBody, body);
    const row = await this.find(supplierHeader, id, context);
    const state = stateOf(row);
    if (!CANCELLABLE.includes(state) || !row.authority?.receipt?.uuid) {
      throw new AppError('conflict', 'MYINVOIS.NOT_CANCELLABLE', `Only a valid document (rejected by its buyer or not) can be cancelled; this one is ${state}.`, {
        issues: [issue('id', 'MYINVOIS.NOT_CANCELLABLE', `The document is ${state}.`)],
      });
    }
    return requestStateChange<DocumentRow>(this.connections, this.outcomes, context, this.waitMs, {
      documentId: row.id,
      pending: { status: 'pending', data: { ...view({ ...row, report_state: 'cancelling' }), href: documentHref(row.id) } },
      record: (uow, metadata) =>
        handleCommand(uow, authorityReportDecider, authorityReportStreamId(row.report_id), {
          type: 'RequestReportCancellation',
          data: { reportId: row.report_id, reason, requestedAt: new Date().toISOString() },
        }, metadata),
      read: () => this.readById(row.id),
      inFlight: (after) => after.report_state === 'cancelling',
      outcome: (after) => {
        if (after.report_state === 'cancelled') return { done: { status: 'success', data: view(after) } };
        const error = after.authority?.cancellationError;
        return {
          refused: new AppError('conflict', 'MYINVOIS.CANCEL_REFUSED', `MyInvois refused the cancellation: ${error?.message ?? ''}`, {
            issues: [issue('id', error?.code ?? 'MYINVOIS.CANCEL_REFUSED', error?.message ?? 'Refused.')],
          }),
        };
      },
    });
  }

  private async readById(documentId: string): Promise<DocumentRow | undefined> {
    const rows: DocumentRow[] = await this.connections.dataSource.query(`SELECT ${DOCUMENT_COLUMNS} FROM documents d WHERE d.id = $1`, [documentId]);
    return rows[0];
  }

  private async find(supplierHeader: string | undefined, id: string, context: RequestContext): Promise<DocumentRow> {
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    // Our id (a UUID), else the MyInvois uuid or the caller's ID, the latest document first; its own
    // documents only (not its rejections of documents it received, numbered by their uuid).
    const rows: DocumentRow[] = await this.connections.dataSource.query(
      `SELECT ${DOCUMENT_COLUMNS} FROM documents d
       WHERE d.supplier_id = $1 AND d.tenant_id = $2 AND d.area = 'my' AND d.direction = 'outgoing' AND d.report_id IS NOT NULL
         AND (${isUuid(id) ? 'd.id = $3::uuid' : `d.authority->'receipt'->>'uuid' = $3 OR d.document_number = $3`})
       ORDER BY d.created_at DESC LIMIT 1`,
      [supplier.id, context.tenant.id, id],
    );
    if (!rows[0]) throw notFound('DOCUMENT.NOT_FOUND', `No MyInvois document ${id} for this supplier.`);
    return rows[0];
  }
}

/** The state MyInvois's routes show, from the report's. */
function stateOf(row: DocumentRow): DocumentState {
  switch (row.report_state) {
    case 'processing':
      return 'submitted';
    case 'reported':
      // The buyer asked MyInvois to reject it: still valid there (and its ID taken) until its issuer cancels it.
      return row.authority?.buyerRejection ? 'rejected_by_buyer' : 'valid';
    default:
      return row.report_state;
  }
}

/** The recorded error in MyInvois's shape (`null` without one). */
function errorOf(error: AuthorityErrorData | null | undefined): SubmissionError | null {
  return error ? myinvois.myInvoisErrorOf(error) : null;
}

/** A document as GET shows it. */
function view(row: DocumentRow) {
  const receipt = row.authority?.receipt;
  return {
    documentId: row.id,
    invoiceCodeNumber: row.document_number,
    kind: row.document_type,
    state: stateOf(row),
    uuid: receipt?.uuid ?? null,
    longId: receipt?.longId || null,
    submissionUid: receipt?.submissionUid ?? null,
    // A refused cancellation's error, else MyInvois's refusal or verdict.
    error: errorOf(row.authority?.cancellationError ?? row.authority?.error),
    validatedAt: row.authority?.validatedAt ?? null,
    // The buyer asked MyInvois to reject it (seen by the reporting worker's buyer-rejection watch).
    rejectedByBuyer: row.authority?.buyerRejection ?? null,
    peppol: peppolView(row),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/**
 * transport_mode: peppol: where the PINT MY copy is. `awaiting_validation` until MyInvois says Valid,
 * then the delivery's Scheduled | Delivered | Failed; `withheld` (with `reason`) when it never leaves
 * (invalid, rejected, ID already sent over Peppol). Null when the document has no copy. The copy is
 * the document itself on the Peppol track (same id).
 */
function peppolView(row: DocumentRow) {
  if (!row.has_peppol_copy) return null;
  const withheld = withheldReason(row);
  const deliveryStatus = withheld ? 'withheld' : (row.delivery_status ?? 'awaiting_validation');
  return { documentId: row.id, deliveryStatus, reason: withheld };
}

/** Why a copy never leaves (codes of the service's own: MyInvois decides legal validity, the copy follows it). */
function withheldReason(row: DocumentRow): SubmissionError | null {
  if (row.delivery_status) return null;
  const authority = row.authority;
  if (authority?.peppolWithheld) return errorOf(authority.peppolWithheld);
  if (row.report_state === 'invalid') return PEPPOL_WITHHELD.invalid(authority?.error?.message ?? 'Invalid');
  if (row.report_state === 'rejected') return PEPPOL_WITHHELD.rejected(errorOf(authority?.error) ?? { code: 'REJECTED', message: 'Rejected' });
  return null;
}

/** The seed's submission response, plus the documents still waiting for MyInvois and where to poll them. */
function answer(
  submissionId: string,
  submissionUid: string | null,
  acceptedDocuments: readonly { uuid: string; invoiceCodeNumber: string }[],
  rejectedDocuments: readonly { invoiceCodeNumber: string; error: SubmissionError }[],
  pending: readonly { id: string; document_number: string }[],
) {
  return {
    status: 'submitted',
    data: {
      submissionId,
      submissionResponse: {
        submissionUid,
        acceptedDocuments,
        rejectedDocuments,
        pendingDocuments: pending.map((p) => ({ documentId: p.id, invoiceCodeNumber: p.document_number, href: documentHref(p.id) })),
      },
    },
  };
}

function asRequestError(error: SubmissionError): AppError {
  const issues = (error.details ?? []).map((d) => issue(d.propertyPath ?? d.target ?? '', d.code, d.message));
  return new AppError(error.code === 'DOCUMENT.DUPLICATE_ID' ? 'conflict' : 'validation', error.code, error.message, { issues });
}
