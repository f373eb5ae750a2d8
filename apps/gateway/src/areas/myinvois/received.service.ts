import { Injectable } from '@nestjs/common';
import { AppError, deterministicUuid, issue, notFound } from '@einvoice/domain';
import { RejectionRefusalKind, SubmissionError, myInvoisRejectionDecider, myInvoisRejectionStreamId } from '@einvoice/areas';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { validateBody } from '@einvoice/areas';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache } from '../../suppliers/supplier-lookup';
import type { RequestContext } from '../../http/request-context';
import { MyInvoisReasonBody } from './reason.dto';
import { SubmissionAnswer, requestStateChange } from './state-change';

interface RejectionRow {
  id: string;
  uuid: string;
  state: 'requested' | 'rejected' | 'refused';
  reason: string;
  error: SubmissionError | null;
  error_kind: RejectionRefusalKind | null;
  requested_at: Date;
  answered_at: Date | null;
}

/** MyInvois uuids are short alphanumerics (26 Crockford base32 characters in the sandbox, 15 in the SDK's examples). */
const AUTHORITY_UUID = /^[A-Za-z0-9]{1,64}$/;

const rejectionHref = (uuid: string) => `/api/einvoice/received/${uuid}/rejection`;

/**
 * Malaysian area, the buyer's side (SDK "04 reject document": only the document's recipient
 * rejects, within 72 h of validation, once). The buyer is an onboarded Malaysian supplier of the
 * calling tenant (`supplier_uuid`) whose TIN is the document's receiver; the reporting worker calls
 * Reject Document with ITS token, and MyInvois decides (README "Submission": buyer rejection).
 */
@Injectable()
export class MyInvoisReceivedService {
  private readonly suppliers = new SupplierCache();
  private readonly waitMs = Number(process.env.MYINVOIS_WAIT_MS ?? 5_000);

  constructor(private readonly connections: Connections) {}

  /**
   * `POST /api/einvoice/received/{uuid}/reject` `{reason}`: 200 `rejected` once MyInvois recorded
   * it; its refusal as 403 (not the receiver), 404 (unknown uuid), 409 (72 h passed, rejected
   * before) with the authority's error; 202 (poll GET .../rejection) past MYINVOIS_WAIT_MS.
   */
  async reject(supplierHeader: string | string[] | undefined, uuid: string, body: unknown, context: RequestContext): Promise<SubmissionAnswer> {
    const { reason } = validateBody(MyInvoisReasonBody, body);
    checkUuid(uuid);
    const buyer = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    // One stream per buyer and document: a repeated request meets the first one's state.
    const rejectionId = deterministicUuid(`myinvois-rejection/${buyer.id}/${uuid}`);
    const requestedAt = new Date().toISOString();
    return requestStateChange<RejectionRow>(this.connections, context, this.waitMs, {
      pending: { status: 'pending', data: { uuid, state: 'requested', reason, requestedAt, href: rejectionHref(uuid) } },
      record: (uow, metadata) =>
        handleCommand(uow, myInvoisRejectionDecider, myInvoisRejectionStreamId(rejectionId), {
          type: 'RequestBuyerRejection',
          data: { rejectionId, tenantId: context.tenant.id, supplierId: buyer.id, uuid, reason, requestedAt },
        }, metadata),
      read: () => this.row(buyer.id, context.tenant.id, uuid),
      inFlight: (row) => row.state === 'requested',
      outcome: (row) => (row.state === 'rejected' ? { done: { status: 'success', data: view(row) } } : { refused: refusal(row) }),
    });
  }

  /** `GET /api/einvoice/received/{uuid}/rejection`: this buyer's rejection of that document. */
  async rejection(supplierHeader: string | string[] | undefined, uuid: string, context: RequestContext) {
    checkUuid(uuid);
    const buyer = await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', supplierHeader);
    const row = await this.row(buyer.id, context.tenant.id, uuid);
    if (!row) throw notFound('MYINVOIS.REJECTION_NOT_FOUND', `This supplier asked no rejection of document ${uuid}.`);
    return { status: 'success', data: view(row) };
  }

  private async row(supplierId: string, tenantId: string, uuid: string): Promise<RejectionRow | undefined> {
    const rows: RejectionRow[] = await this.connections.dataSource.query(
      `SELECT * FROM myinvois_rejections WHERE supplier_id = $1 AND tenant_id = $2 AND uuid = $3`,
      [supplierId, tenantId, uuid],
    );
    return rows[0];
  }
}

function checkUuid(uuid: string): void {
  if (!AUTHORITY_UUID.test(uuid)) {
    throw new AppError('validation', 'REQUEST.INVALID', 'uuid is not a MyInvois document uuid.', {
      issues: [issue('uuid', 'FIELD.INVALID_FORMAT', 'Give the MyInvois uuid of the received document (letters and digits).')],
    });
  }
}

/** MyInvois's refusal in the one error shape: its status from the kind, the authority's code and message as the issue. */
function refusal(row: RejectionRow): AppError {
  const error = row.error ?? { code: 'MYINVOIS.REJECT_REFUSED', message: 'Refused.' };
  return new AppError(row.error_kind ?? 'conflict', 'MYINVOIS.REJECT_REFUSED', `MyInvois refused the rejection: ${error.message}`, {
    issues: [issue('uuid', error.code, error.message)],
    details: { authorityError: error },
  });
}

function view(row: RejectionRow) {
  return {
    uuid: row.uuid,
    state: row.state,
    reason: row.reason,
    requestedAt: new Date(row.requested_at).toISOString(),
    answeredAt: row.answered_at ? new Date(row.answered_at).toISOString() : null,
    error: row.error,
  };
}
