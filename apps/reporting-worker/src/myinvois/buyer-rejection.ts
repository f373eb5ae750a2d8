import { AppError } from '@einvoice/domain';
import { MyInvoisBuyerRejectionRequestedData, RejectionRefusalKind, SubmissionError, myInvoisRejectionDecider, myInvoisRejectionStreamId } from '@einvoice/areas';
import { EventHandler, MessageContext, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { MyInvoisReportingDependencies, metadataOf, tokenFor, withRetryAfter, withTokenErrors } from './report-myinvois';

/**
 * The buyer's side of a rejection (SDK "04 reject document"): calls Reject Document with the
 * BUYER's token (MyInvois lets only the document's receiver reject), with no transaction open, and
 * records MyInvois's answer on the rejection stream in the transaction of the processed mark. A refusal (not the receiver,
 * 72 h passed, already rejected, unknown uuid) is recorded with its kind, not retried.
 */
export function createBuyerRejectionHandler(deps: MyInvoisReportingDependencies): EventHandler {
  return async (event, ctx) => {
    if (event.type !== 'MyInvoisBuyerRejectionRequested') return;
    if (await deps.store.wasProcessed(deps.groupId, event.eventId)) return;
    const data = event.data as MyInvoisBuyerRejectionRequestedData;
    // The calls run with no transaction open; the answer is recorded with the processed mark.
    let refused: { kind: RejectionRefusalKind; error: SubmissionError } | undefined;
    let token: myinvois.AccessToken | undefined;
    try {
      await withTokenErrors(deps, data.supplierId, async () => {
        token = await tokenFor(deps, data.supplierId);
        const buyerToken = token;
        await withRetryAfter(deps, ctx, () => deps.connector.rejectDocument(buyerToken, data.uuid, data.reason));
      });
    } catch (error) {
      if (!(error instanceof AppError) || error.retriable) throw error;
      // "Rejection can be requested only once": perhaps by this very request, before a crash
      // lost MyInvois's answer. If MyInvois shows our reason on the document, it is ours: done.
      const ours = error.code === myinvois.MYINVOIS_ERRORS.INCORRECT_STATE && token !== undefined && (await rejectedWithReason(deps, ctx, token, data));
      if (!ours) {
        refused = { kind: refusalKind(error), error: (error.details.authorityError as SubmissionError | undefined) ?? { code: error.code, message: error.message } };
        deps.log('info', 'MyInvois refused a buyer rejection', { rejectionId: data.rejectionId, code: error.code });
      }
    }
    await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
      await handleCommand(uow, myInvoisRejectionDecider, myInvoisRejectionStreamId(data.rejectionId), {
        type: 'RecordBuyerRejectionAnswer',
        data: { rejectionId: data.rejectionId, refused, at: new Date().toISOString() },
      }, metadataOf(event, data.tenantId));
    });
  };
}

/** How far back Get Recent Documents is asked: rejection is possible only 72 h after validation. */
const REJECTABLE_FOR_MS = 96 * 3_600_000;

/**
 * True when MyInvois lists the document among the buyer's received ones with a rejection request
 * carrying exactly this request's reason (Get Recent Documents, Received, last 96 h).
 */
async function rejectedWithReason(deps: MyInvoisReportingDependencies, ctx: MessageContext, token: myinvois.AccessToken, data: MyInvoisBuyerRejectionRequestedData): Promise<boolean> {
  const now = Date.now();
  const query = { pageSize: 100, invoiceDirection: 'Received' as const, submissionDateFrom: myinvois.wireUtc(now - REJECTABLE_FOR_MS), submissionDateTo: myinvois.wireUtc(now + 60_000) };
  for await (const document of myinvois.everyRecentDocument((pageNo) => withRetryAfter(deps, ctx, () => deps.connector.recentDocuments(token, { ...query, pageNo })))) {
    if (document.uuid === data.uuid) return Boolean(document.rejectRequestDateTime) && document.documentStatusReason === data.reason;
  }
  return false;
}

/** The refusal in the error model's terms: the gateway answers 403, 404, 409 or 400 from it. */
export function refusalKind(error: AppError): RejectionRefusalKind {
  // Not the receiver: MYINVOIS.REJECT_NOT_RECEIVER (403) in both modes.
  if (error.kind === 'forbidden' || error.kind === 'not_found' || error.kind === 'conflict') return error.kind;
  return 'validation';
}
