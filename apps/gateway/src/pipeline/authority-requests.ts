import { randomUUID } from 'node:crypto';
import { AppError, type AuthorityErrorData, type AuthorityReportCommand, authorityReportDecider, authorityReportStreamId, issue, notFound } from '@einvoice/domain';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { type AreaDefinition, areaOf, validateBody } from '@einvoice/areas';
import type { Answer } from '../http/answer';
import { type RequestContext, eventMetadata } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import type { Connections } from '../infrastructure/infrastructure.module';
import { type SupplierCache, isUuid } from '../suppliers/supplier-lookup';
import { codecs, documentHref, presented } from './area-codecs';
import { CancellationBody } from './cancellation.dto';
import { type DocumentRow, type DocumentRows, view } from './document-rows';
import type { OutcomeWaiter } from './outcome-waiter';

/**
 * What a supplier asks the authority about a reported document after its report (a cancellation, an
 * amendment): recorded with its 202 answer in one transaction; for a `sync` area the answer then
 * waits for the authority's (OutcomeWaiter, up to AUTHORITY_WAIT_MS), else 202 with where to read it.
 */
export class AuthorityRequests {
  constructor(
    private readonly connections: Connections,
    private readonly suppliers: SupplierCache,
    private readonly rows: DocumentRows,
    private readonly outcomes: OutcomeWaiter,
    /** How long a `sync` area's answer waits for the authority's (AUTHORITY_WAIT_MS). */
    private readonly waitMs: number,
  ) {}

  /**
   * Asks the authority to cancel a reported document (where its connector can): for a `sync` area,
   * 200 with the document once cancelled, 409 with the authority's refusal.
   */
  async cancel(code: string, supplierRef: string | undefined, id: string, body: unknown, context: RequestContext): Promise<Answer> {
    const area = areaOf(code);
    const supplier = await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef);
    const { reason } = validateBody(CancellationBody, body);
    const row = isUuid(id) ? await this.rows.read(id, supplier.id, context.tenant.id) : undefined;
    if (!row) throw notFound('DOCUMENT.NOT_FOUND', `No document ${id} for this supplier.`);
    const requestedAt = new Date().toISOString();
    const { pending, after } = await this.request(area, row, context, 'cancelling', { type: 'RequestReportCancellation', data: { reportId: row.report_id, reason, requestedAt } }, (r) => r.report_state !== 'cancelling');
    if (!after) return { statusCode: 202, body: pending };
    if (after.report_state !== 'cancelled') throw cancellationRefusal(area, after.authority?.cancellationError ?? undefined);
    return { statusCode: 200, body: { status: 'success', data: view(after) } };
  }

  /**
   * Asks the authority to amend an accepted document (where the area reads amendments,
   * `documents.amendment`): for a `sync` area, 200 with the document as the area shows it once
   * amended, 400 with the authority's refusal.
   */
  async amend(code: string, supplierRef: string | undefined, id: string, body: unknown, context: RequestContext): Promise<Answer> {
    const area = areaOf(code);
    const { documents } = codecs(area);
    if (!documents.amendment) throw notFound('AMENDMENT.NOT_SUPPORTED', `Documents of ${area.name} cannot be amended.`);
    const change = documents.amendment(body);
    const row = await this.rows.own(code, supplierRef, id, context);
    const amendmentId = randomUUID();
    const answered = (r: DocumentRow) => r.authority?.amendment?.id === amendmentId && r.authority.amendment.status !== 'requested';
    const { pending, after } = await this.request(area, row, context, 'amending', { type: 'RequestReportAmendment', data: { reportId: row.report_id, amendmentId, change, requestedAt: new Date().toISOString() } }, answered);
    if (!after) return { statusCode: 202, body: pending };
    const amendment = after.authority!.amendment!;
    if (amendment.status === 'refused') {
      const error = amendment.error;
      throw new AppError('validation', 'AUTHORITY.AMENDMENT_REFUSED', `The ${area.name} tax authority refused the change: ${error?.message ?? 'refused'}`, { issues: [issue(error?.path ?? '', error?.code ?? 'AUTHORITY.AMENDMENT_REFUSED', error?.message ?? 'Refused.')] });
    }
    return { statusCode: 200, body: presented(documents, view(after)) };
  }

  /**
   * Records a request about a reported document for its authority with its 202 answer in one
   * transaction; for a `sync` area, waits for the authority's answer (`answered`). `after` is the
   * document once answered, undefined when the answer is to be read later.
   */
  private async request(
    area: AreaDefinition,
    row: DocumentRow,
    context: RequestContext,
    state: string,
    command: AuthorityReportCommand,
    answered: (row: DocumentRow) => boolean,
  ): Promise<{ pending: { status: string; data: Record<string, unknown> }; after?: DocumentRow }> {
    const pending = { status: 'pending', data: { documentId: row.id, documentNumber: row.document_number, state, href: documentHref(area, row.id) } };
    await this.connections.store.transaction(async (uow) => {
      await recordResponse(uow, context.idempotency, 202, pending);
      await handleCommand(uow, authorityReportDecider, authorityReportStreamId(row.report_id), command, eventMetadata(context, area.ruleSetId));
    });
    if (area.authority.answer !== 'sync') return { pending };
    const after = await this.outcomes.waitFor(row.id, this.waitMs, () => this.rows.read(row.id, row.supplier_id, context.tenant.id), answered);
    return { pending, ...(after && answered(after) ? { after } : {}) };
  }
}

/** The authority's refusal to cancel: 409, its own code and message. */
function cancellationRefusal(area: AreaDefinition, error: AuthorityErrorData | undefined): AppError {
  const message = error?.message ?? 'Refused.';
  return new AppError('conflict', 'AUTHORITY.CANCELLATION_REFUSED', `The ${area.name} tax authority refused to cancel the document: ${message}`, {
    issues: [issue(error?.path ?? '', error?.code ?? 'AUTHORITY.CANCELLATION_REFUSED', message)],
  });
}
