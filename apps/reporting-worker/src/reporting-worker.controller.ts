import { Controller, Inject } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { RecordedEvent } from '@einvoice/domain';
import type { MessageContext } from '@einvoice/domain/infrastructure';
import { AUTHORITY_REPORTING, type AuthorityReporting } from './reporting-worker.providers';

/**
 * The events the reporting worker reports: every area's documents for its authority (the generic
 * pipeline; MyInvois buyers' rejections of documents they received among them). BE/DE/SG documents on
 * the same topic need nothing here: no handler, so they are passed over from their headers.
 */
@Controller()
export class ReportingWorkerController {
  constructor(
    @Inject(AUTHORITY_REPORTING) private readonly reporting: AuthorityReporting,
  ) {}

  @EventPattern('AuthorityReportRequested')
  authorityReport(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.reporting.report(event, ctx);
  }

  @EventPattern('AuthorityReportCancellationRequested')
  authorityCancellation(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.reporting.cancel(event, ctx);
  }

  @EventPattern('AuthorityReportAmendmentRequested')
  authorityAmendment(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.reporting.amend(event, ctx);
  }
}
