import { Injectable } from '@nestjs/common';
import { AppError, type AuthorityErrorData, issue, notFound } from '@einvoice/domain';
import { areaOf, myinvois, validateBody } from '@einvoice/areas';
import type { Answer } from '../../http/answer';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache } from '../../suppliers/supplier-lookup';
import type { RequestContext } from '../../http/request-context';
import { OutcomeWaiter } from '../../pipeline/outcome-waiter';
import { recordRequest } from '../../pipeline/report-requests';
import { ReasonBody } from '../../pipeline/reason.dto';

/** A buyer's rejection as the `documents` read model holds it: a report of direction `incoming` (#8). */
interface RejectionRow {
  id: string;
  /** The MyInvois uuid of the received document. */
  document_number: string;
  report_state: myinvois.BuyerRejectionRecord['state'];
  fields: { reason: string };
  authority: { error?: AuthorityErrorData; answeredAt?: string; receipt?: myinvois.MyInvoisRejectionReceipt } | null;
  created_at: Date;
}

const REJECTION_COLUMNS = 'id, document_number, report_state, fields, authority, created_at';

/** MyInvois uuids are short alphanumerics (26 Crockford base32 characters in the sandbox, 15 in the SDK's examples). */
const AUTHORITY_UUID = /^[A-Za-z0-9]{1,64}$/;

/**
 * Malaysian area, the buyer's side (SDK "04 reject document": only the document's recipient
 * rejects, within 72 h of validation, once). The buyer is an onboarded Malaysian supplier of the
 * calling tenant (`supplier_uuid`) whose TIN is the document's receiver. Its request is a report of
 * the pipeline (libs/areas/src/myinvois/reporting/buyer-rejection.ts), recorded by its one command step:
 * the batch sweep calls Reject Document with the buyer's token, and MyInvois decides (README "Submission").
 */
@Injectable()
export class MyInvoisReceivedService {
  private readonly suppliers = new SupplierCache();

  constructor(
    private readonly connections: Connections,
    private readonly outcomes: OutcomeWaiter,
  ) {}

  /**
   * `POST /api/einvoice/received/{uuid}/reject` `{reason}`: 200 `rejected` once MyInvois recorded
   * it; its refusal as 403 (not the receiver), 404 (unknown uuid), 409 (72 h passed, rejected
   * before) with the authority's error; 202 (poll GET .../rejection) past MYINVOIS_WAIT_MS.
   */
  async reject(supplierHeader: string | undefined, uuid: string, body: unknown, context: RequestContext): Promise<Answer> {
    const area = areaOf('my');
    const { reason } = validateBody(ReasonBody, body);
    checkUuid(uuid);
    const buyer = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const earlier = await this.rows(buyer.id, context.tenant.id, uuid);
    const asked = { tenantId: context.tenant.id, buyerId: buyer.id, uuid, reason, ruleSetId: area.ruleSetId, requestedAt: new Date().toISOString() };
    const request = myinvois.buyerRejectionRequest(asked, earlier.map((r) => r.report_state));
    const pending = { status: 'pending', data: { uuid, state: 'requested', reason, requestedAt: asked.requestedAt, href: myinvois.rejectionHref(uuid) } };
    // Not a new stream: another request of this buyer about this document may have come first (the same numbered report).
    const command = { reportId: request.reportId, command: { type: 'RequestAuthorityReport' as const, data: request } };
    await recordRequest(this.connections.store, context, area, { statusCode: 202, body: pending }, { commands: [command] }).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'AUTHORITY.REPORT_EXISTS' ? myinvois.rejectionInProgress() : error;
    });
    const inFlight = (row: RejectionRow) => row.report_state === 'pending';
    const read = async (): Promise<RejectionRow | undefined> => (await this.connections.dataSource.query(`SELECT ${REJECTION_COLUMNS} FROM documents WHERE id = $1`, [request.documentId]))[0];
    const after = await this.outcomes.waitFor(request.documentId, area.authority.waitMs ?? 0, read, (row) => !inFlight(row));
    if (!after || inFlight(after)) return { statusCode: 202, body: pending };
    if (after.report_state !== 'reported') throw myinvois.rejectionRefusal(recordOf(after));
    return { statusCode: 200, body: { status: 'success', data: myinvois.rejectionView(recordOf(after)) } };
  }

  /** `GET /api/einvoice/received/{uuid}/rejection`: this buyer's (latest) rejection of that document. */
  async rejection(supplierHeader: string | undefined, uuid: string, context: RequestContext) {
    checkUuid(uuid);
    const buyer = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const row = (await this.rows(buyer.id, context.tenant.id, uuid)).at(-1);
    if (!row) throw notFound('MYINVOIS.REJECTION_NOT_FOUND', `This supplier asked no rejection of document ${uuid}.`);
    return { status: 'success', data: myinvois.rejectionView(recordOf(row)) };
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

function recordOf(row: RejectionRow): myinvois.BuyerRejectionRecord {
  return {
    uuid: row.document_number,
    state: row.report_state,
    reason: row.fields.reason,
    requestedAt: new Date(row.created_at).toISOString(),
    ...(row.authority?.answeredAt ? { answeredAt: new Date(row.authority.answeredAt).toISOString() } : {}),
    ...(row.authority?.error ? { error: row.authority.error } : {}),
    ...(row.authority?.receipt ? { receipt: row.authority.receipt } : {}),
  };
}
