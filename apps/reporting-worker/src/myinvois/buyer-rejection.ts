import { AppError, MyInvoisBuyerRejectionRequestedData, RejectionRefusalKind, SubmissionError, myInvoisRejectionDecider, myInvoisRejectionStreamId } from '@einvoice/domain';
import { EventHandler, handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { MyInvoisReportingDependencies, metadataOf, tokenFor, withRetryAfter } from './report-myinvois';

/**
 * The buyer's side of a rejection (SDK "04 reject document"): calls Reject Document with the
 * BUYER's token (MyInvois lets only the document's receiver reject) and records MyInvois's answer
 * on the rejection stream, in the transaction of the processed mark. A refusal (not the receiver,
 * 72 h passed, already rejected, unknown uuid) is recorded with its kind, not retried.
 */
export function createBuyerRejectionHandler(deps: MyInvoisReportingDependencies): EventHandler {
  return async (event, ctx) => {
    if (event.type !== 'MyInvoisBuyerRejectionRequested') return;
    const data = event.data as MyInvoisBuyerRejectionRequestedData;
    await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
      let refused: { kind: RejectionRefusalKind; error: SubmissionError } | undefined;
      try {
        const token = await tokenFor(uow, deps, data.supplierId);
        await withRetryAfter(deps, ctx, () => deps.connector.rejectDocument(token, data.uuid, data.reason));
      } catch (error) {
        if (!(error instanceof AppError) || error.retriable) {
          if (error instanceof AppError && error.code === myinvois.MYINVOIS_ERRORS.TOKEN_REJECTED) await deps.tokens.invalidate(data.supplierId);
          throw error;
        }
        refused = { kind: refusalKind(error), error: (error.details.authorityError as SubmissionError | undefined) ?? { code: error.code, message: error.message } };
        deps.log('info', 'MyInvois refused a buyer rejection', { rejectionId: data.rejectionId, code: error.code });
      }
      await handleCommand(uow, myInvoisRejectionDecider, myInvoisRejectionStreamId(data.rejectionId), {
        type: 'RecordBuyerRejectionAnswer',
        data: { rejectionId: data.rejectionId, refused, at: new Date().toISOString() },
      }, metadataOf(event, data.tenantId));
    });
  };
}

/** The refusal in the error model's terms: the gateway answers 403, 404, 409 or 400 from it. */
export function refusalKind(error: AppError): RejectionRefusalKind {
  // Not the receiver: MYINVOIS.REJECT_NOT_RECEIVER (403) in both modes.
  if (error.kind === 'forbidden' || error.kind === 'not_found' || error.kind === 'conflict') return error.kind;
  return 'validation';
}
