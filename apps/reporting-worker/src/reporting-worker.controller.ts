import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { RecordedEvent } from '@einvoice/domain';
import type { EventHandler, MessageContext } from '@einvoice/domain/infrastructure';
import { AUTHORITY_HANDLER, MYINVOIS_HANDLERS, type MyInvoisHandlers } from './reporting-worker.providers';

/**
 * The events the reporting worker reports: every area's documents for its authority (the generic
 * pipeline), and MyInvois's own. BE/DE/SG documents on the same topic need nothing here: no handler,
 * so they are passed over from their headers.
 */
@Controller()
export class ReportingWorkerController {
  constructor(
    @Inject(MYINVOIS_HANDLERS) private readonly handlers: MyInvoisHandlers,
    @Inject(AUTHORITY_HANDLER) private readonly reportToAuthority: EventHandler,
  ) {}

  @EventPattern('AuthorityReportRequested')
  authorityReport(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.reportToAuthority(event, ctx);
  }

  @EventPattern([
    'MyInvoisDocumentsSubmitted',
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
