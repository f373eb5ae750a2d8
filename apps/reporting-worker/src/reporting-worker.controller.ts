import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { RecordedEvent } from '@einvoice/domain';
import type { MessageContext } from '@einvoice/domain/infrastructure';
import { MYINVOIS_HANDLERS, type MyInvoisHandlers } from './reporting-worker.providers';

/**
 * The events the reporting worker reports to MyInvois. BE/DE/SG documents on the same topic need
 * nothing here: no handler, so they are passed over from their headers.
 */
@Controller()
export class ReportingWorkerController {
  constructor(@Inject(MYINVOIS_HANDLERS) private readonly handlers: MyInvoisHandlers) {}

  @EventPattern([
    'MyInvoisDocumentsSubmitted',
    'MyInvoisSubmissionAccepted',
    'MyInvoisSubmissionPolled',
    'MyInvoisDocumentCancellationRequested',
  ])
  submission(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.handlers.report(event, ctx);
  }

  @EventPattern('MyInvoisBuyerRejectionRequested')
  buyerRejection(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.handlers.rejectAsBuyer(event, ctx);
  }
}
