/**
 * A buyer's own rejection of a document it received at MyInvois (SDK "04 reject document": the
 * document's recipient only, within 72 h of its validation, once) as a report of the generic reporting
 * pipeline (#8): direction `incoming`, the buyer (an onboarded Malaysian supplier of the caller) as the
 * report's supplier, so the call is made with its token; a batch key of its own, so the batch sweep
 * sends it at once and alone (one Reject Document call); accepted for good once MyInvois recorded it,
 * rejected with MyInvois's error (and how it refused) otherwise. MyInvois decides: here only a
 * well-formed request, one in flight at a time, none after MyInvois recorded one. A refused rejection
 * may be asked again: each request is a report of its own, numbered, so two requests at once meet on
 * one stream and one of them is refused.
 */
import { createHash } from 'node:crypto';
import { type AppError, type AuthorityReportRequestedData, conflict, deterministicUuid, issue, validationError } from '@einvoice/domain';
import type { MyInvoisRejectionPayload, RejectionRefusalKind } from './report';

/** Reject Document's `reason` (SDK "04 reject document"): mandatory, at most 300 characters. */
export const REJECTION_REASON_MAX = 300;

/** The `documentType` of a buyer's rejection in the `documents` read model (its `document_number` is the uuid; index documents_my_rejections names it). */
export const REJECTION_DOCUMENT_TYPE = 'rejection';

/** What the buyer asked (`POST /api/einvoice/received/{uuid}/reject`). */
export interface BuyerRejectionAsked {
  readonly tenantId: string;
  /** The buyer: the onboarded supplier whose TIN is the document's receiver. */
  readonly buyerId: string;
  /** The MyInvois uuid of the received document. */
  readonly uuid: string;
  readonly reason: string;
  readonly ruleSetId: string;
  readonly requestedAt: string;
}

/** The report of the `n`-th request (0 first) of this buyer about this document: the same id for two requests made at once. */
export function rejectionReportId(buyerId: string, uuid: string, n: number): string {
  return deterministicUuid(`myinvois-rejection/${buyerId}/${uuid}/${n}`);
}

/**
 * The report of a buyer's rejection, given the report states of its earlier requests about the same
 * document (oldest first): refused while one is with MyInvois (`MYINVOIS.REJECTION_IN_PROGRESS`) or
 * once MyInvois recorded one (`MYINVOIS.ALREADY_REJECTED`); after refusals only, a new one.
 * @throws AppError REQUEST.INVALID naming `uuid` or `reason`
 */
export function buyerRejectionRequest(asked: BuyerRejectionAsked, earlier: readonly string[]): AuthorityReportRequestedData {
  const { uuid, reason } = asked;
  const issues = [
    ...(uuid.trim() ? [] : [issue('uuid', 'FIELD.REQUIRED', 'The MyInvois uuid of the received document is required.')]),
    ...(reason.trim() ? [] : [issue('reason', 'FIELD.REQUIRED', 'Give the reason for the rejection (1 to 300 characters).')]),
    // Characters as the request DTO counts them (code points), not UTF-16 units.
    ...([...reason].length > REJECTION_REASON_MAX ? [issue('reason', 'FIELD.TOO_LONG', `The reason has at most ${REJECTION_REASON_MAX} characters.`)] : []),
  ];
  if (issues.length) throw validationError(issues);
  if (earlier.includes('pending')) throw rejectionInProgress();
  if (earlier.includes('reported')) throw conflict('MYINVOIS.ALREADY_REJECTED', 'MyInvois recorded this rejection already; a document is rejected once.');
  return rejectionReport(asked, earlier.length);
}

/** The report of the buyer's `n`-th request about the document (0 first). */
export function rejectionReport(asked: BuyerRejectionAsked, n: number): AuthorityReportRequestedData {
  const { uuid, reason } = asked;
  const reportId = rejectionReportId(asked.buyerId, uuid, n);
  const payload: MyInvoisRejectionPayload = { action: 'reject', uuid, reason };
  // What Reject Document carries (PUT /api/v1.0/documents/state/{uuid}/state).
  const bytes = JSON.stringify({ status: 'rejected', reason });
  return {
    reportId,
    documentId: reportId,
    tenantId: asked.tenantId,
    supplierId: asked.buyerId,
    area: 'my',
    direction: 'incoming',
    ruleSetId: asked.ruleSetId,
    documentNumber: uuid,
    documentType: REJECTION_DOCUMENT_TYPE,
    fields: { uuid, reason },
    document: { bytes, mediaType: 'application/json', sha256: createHash('sha256').update(bytes).digest('hex') },
    payload: { ...payload },
    requestedAt: asked.requestedAt,
    // Its own batch: sent at once, alone, never with the buyer's own submissions.
    batchKey: `rejection:${reportId}`,
  };
}

/** A second request while one is with MyInvois (also two at once, which meet on one report). */
export function rejectionInProgress(): AppError {
  return conflict('MYINVOIS.REJECTION_IN_PROGRESS', 'A rejection of this document is already with MyInvois.');
}

/** MyInvois's refusal in the error model's terms: the gateway answers 403, 404, 409 or 400 from it. */
export function refusalKind(error: AppError): RejectionRefusalKind {
  // Not the receiver: MYINVOIS.REJECT_NOT_RECEIVER (403) in both modes.
  if (error.kind === 'forbidden' || error.kind === 'not_found' || error.kind === 'conflict') return error.kind;
  return 'validation';
}
