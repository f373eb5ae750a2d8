import { Injectable } from '@nestjs/common';
import { AppError, type AuthorityErrorData, authorityReportDecider, authorityReportStreamId, issue, notFound } from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { type SubmissionError, areaOf, myinvois, validateBody } from '@einvoice/areas';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache } from '../../suppliers/supplier-lookup';
import type { RequestContext } from '../../http/request-context';
import { OutcomeWaiter } from '../../pipeline/outcome-waiter';
import { MyInvoisReasonBody } from './reason.dto';
import { SubmissionAnswer, requestStateChange } from './state-change';

/** A buyer's rejection as the `documents` read model holds it: a report of direction `incoming` (#8). */
interface RejectionRow {
  id: string;
  /** The MyInvois uuid of the received document. */
  document_number: string;
  /** pending (with MyInvois) | reported (MyInvois recorded it) | rejected (MyInvois refused it) */
  report_state: 'pending' | 'reported' | 'rejected';
  fields: { reason: string };
  authority: { error?: AuthorityErrorData; answeredAt?: string; receipt?: myinvois.MyInvoisRejectionReceipt } | null;
  created_at: Date;
}

const REJECTION_COLUMNS = 'id, document_number, report_state, fields, authority, created_at';

/** MyInvois uuids are short alphanumerics (26 Crockford base32 characters in the sandbox, 15 in the SDK's examples). */
const AUTHORITY_UUID = /^[A-Za-z0-9]{1,64}$/;

const rejectionHref = (uuid: string) => `/api/einvoice/received/${uuid}/rejection`;

/**
 * Malaysian area, the buyer's side (SDK "04 reject document": only the document's recipient
 * rejects, within 72 h of validation, once). The buyer is an onboarded Malaysian supplier of the
 * calling tenant (`supplier_uuid`) whose TIN is the document's receiver. Its request is a report of
 * the generic reporting pipeline (libs/areas/src/myinvois/reporting/buyer-rejection.ts): the batch
 * sweep calls Reject Document with the buyer's token, and MyInvois decides (README "Submission").
 */
@Injectable()
export class MyInvoisReceivedService {
  private readonly suppliers = new SupplierCache();
  private readonly waitMs = Number(process.env.MYINVOIS_WAIT_MS ?? 5_000);

  constructor(
    private readonly connections: Connections,
    private readonly outcomes: OutcomeWaiter,
  ) {}

  /**
   * `POST /api/einvoice/received/{uuid}/reject` `{reason}`: 200 `rejected` once MyInvois recorded
   * it; its refusal as 403 (not the receiver), 404 (unknown uuid), 409 (72 h passed, rejected
   * before) with the authority's error; 202 (poll GET .../rejection) past MYINVOIS_WAIT_MS.
   */
  async reject(supplierHeader: string | undefined, uuid: string, body: unknown, context: RequestContext): Promise<SubmissionAnswer> {
    const { reason } = validateBody(MyInvoisReasonBody, body);
    checkUuid(uuid);
    const buyer = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const earlier = await this.rows(buyer.id, context.tenant.id, uuid);
    const asked = { tenantId: context.tenant.id, buyerId: buyer.id, uuid, reason, ruleSetId: areaOf('my').ruleSetId, requestedAt: new Date().toISOString() };
    const request = myinvois.buyerRejectionRequest(asked, earlier.map((r) => r.report_state));
    return requestStateChange<RejectionRow>(this.connections, this.outcomes, context, this.waitMs, {
      documentId: request.documentId,
      pending: { status: 'pending', data: { uuid, state: 'requested', reason, requestedAt: asked.requestedAt, href: rejectionHref(uuid) } },
      record: async (uow, metadata) => {
        try {
          await handleCommand(uow, authorityReportDecider, authorityReportStreamId(request.reportId), { type: 'RequestAuthorityReport', data: request }, metadata);
        } catch (error) {
          // Another request of this buyer about this document came first (the same numbered report).
          if (error instanceof AppError && error.code === 'AUTHORITY.REPORT_EXISTS') throw myinvois.rejectionInProgress();
          throw error;
        }
      },
      read: async () => (await this.connections.dataSource.query(`SELECT ${REJECTION_COLUMNS} FROM documents WHERE id = $1`, [request.documentId]))[0],
      inFlight: (row) => row.report_state === 'pending',
      outcome: (row) => (row.report_state === 'reported' ? { done: { status: 'success', data: view(row) } } : { refused: refusal(row) }),
    });
  }

  /** `GET /api/einvoice/received/{uuid}/rejection`: this buyer's (latest) rejection of that document. */
  async rejection(supplierHeader: string | undefined, uuid: string, context: RequestContext) {
    checkUuid(uuid);
    const buyer = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const row = (await this.rows(buyer.id, context.tenant.id, uuid)).at(-1);
    if (!row) throw notFound('MYINVOIS.REJECTION_NOT_FOUND', `This supplier asked no rejection of document ${uuid}.`);
    return { status: 'success', data: view(row) };
  }

  /** This buyer's rejection requests about the document, oldest first (one per request after a refusal; index documents_my_rejections). */
  private rows(buyerId: string, tenantId: string, uuid: string): Promise<RejectionRow[]> {
    return this.connections.dataSource.query(
      `SELECT ${REJECTION_COLUMNS} FROM documents
       WHERE supplier_id = $1 AND tenant_id = $2 AND area = 'my' AND direction = 'incoming' AND document_type = 'rejection' AND document_number = $3
       ORDER BY created_at, id`,
      [buyerId, tenantId, uuid],
    );
  }
}

function checkUuid(uuid: string): void {
  if (!AUTHORITY_UUID.test(uuid)) {
    throw new AppError('validation', 'REQUEST.INVALID', 'uuid is not a MyInvois document uuid.', {
      issues: [issue('uuid', 'FIELD.INVALID_FORMAT', 'Give the MyInvois uuid of the received document (letters and digits).')],
    });
  }
}

/** MyInvois's error in its own shape (as the submission's refusals show theirs). */
function authorityError(row: RejectionRow): SubmissionError | null {
  const error = row.authority?.error;
  return error ? myinvois.myInvoisErrorOf(error) : null;
}

/** MyInvois's refusal in the one error shape: its status from the kind, the authority's code and message as the issue. */
function refusal(row: RejectionRow): AppError {
  const error = authorityError(row) ?? { code: 'MYINVOIS.REJECT_REFUSED', message: 'Refused.' };
  return new AppError(row.authority?.receipt?.refusal ?? 'conflict', 'MYINVOIS.REJECT_REFUSED', `MyInvois refused the rejection: ${error.message}`, {
    issues: [issue('uuid', error.code, error.message)],
    details: { authorityError: error },
  });
}

const STATES = { pending: 'requested', reported: 'rejected', rejected: 'refused' } as const;

function view(row: RejectionRow) {
  return {
    uuid: row.document_number,
    state: STATES[row.report_state],
    reason: row.fields.reason,
    requestedAt: new Date(row.created_at).toISOString(),
    answeredAt: row.authority?.answeredAt ? new Date(row.authority.answeredAt).toISOString() : null,
    error: row.report_state === 'rejected' ? authorityError(row) : null,
  };
}
