import type { Logger } from '@einvoice/domain';
import { type MyInvoisBuyerRejectionRequestedData, type RejectionRefusalKind, type SubmissionError, myInvoisRejectionDecider, myInvoisRejectionStreamId, myinvois } from '@einvoice/areas';
import { type EventHandler, type EventStore, handleCommand } from '@einvoice/domain/infrastructure';
import type { AppError } from '@einvoice/domain';

export interface BuyerRejectionDependencies {
  readonly store: EventStore;
  /** The area's connector of the reporting pipeline (area registry `my`), which holds the suppliers' tokens. */
  readonly connector: myinvois.MyInvoisReportingConnector;
  readonly groupId: string;
  readonly log: Logger;
}

/**
 * The buyer's side of a rejection (SDK "04 reject document"): Reject Document with the BUYER's token
 * (MyInvois lets only the document's receiver reject; the connector's `rejectAsBuyer`), with no
 * transaction open, and MyInvois's answer recorded on the rejection stream in the transaction of the
 * processed mark. A refusal (not the receiver, 72 h passed, already rejected, unknown uuid) is recorded
 * with its kind, not retried.
 */
export function createBuyerRejectionHandler(deps: BuyerRejectionDependencies): EventHandler {
  return async (event, ctx) => {
    if (event.type !== 'MyInvoisBuyerRejectionRequested') return;
    if (await deps.store.wasProcessed(deps.groupId, event.eventId)) return;
    const data = event.data as MyInvoisBuyerRejectionRequestedData;
    const answer = await deps.connector.rejectAsBuyer(data.supplierId, data.uuid, data.reason, { heartbeat: () => ctx.heartbeat() });
    const refused =
      answer.kind === 'refused'
        ? { kind: refusalKind(answer.error), error: (answer.error.details.authorityError as SubmissionError | undefined) ?? { code: answer.error.code, message: answer.error.message } }
        : undefined;
    if (refused) deps.log('info', 'MyInvois refused a buyer rejection', { rejectionId: data.rejectionId, code: refused.error.code });
    await deps.store.transaction(async (uow) => {
      if (!(await uow.markProcessed(deps.groupId, event.eventId))) return;
      await handleCommand(uow, myInvoisRejectionDecider, myInvoisRejectionStreamId(data.rejectionId), {
        type: 'RecordBuyerRejectionAnswer',
        data: { rejectionId: data.rejectionId, refused, at: new Date().toISOString() },
      }, { tenantId: data.tenantId, correlationId: event.metadata.correlationId, causationId: event.eventId });
    });
  };
}

/** The refusal in the error model's terms: the gateway answers 403, 404, 409 or 400 from it. */
export function refusalKind(error: AppError): RejectionRefusalKind {
  // Not the receiver: MYINVOIS.REJECT_NOT_RECEIVER (403) in both modes.
  if (error.kind === 'forbidden' || error.kind === 'not_found' || error.kind === 'conflict') return error.kind;
  return 'validation';
}
