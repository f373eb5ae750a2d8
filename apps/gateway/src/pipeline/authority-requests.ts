import { randomUUID } from 'node:crypto';
import { AppError, type AuthorityErrorData, type AuthorityReportCommand, issue } from '@einvoice/domain';
import { type AreaDefinition, areaOf, validateBody } from '@einvoice/areas';
import type { Answer } from '../http/answer';
import type { RequestContext } from '../http/request-context';
import type { Connections } from '../infrastructure/infrastructure.module';
import { codecs, documentHref, presented, refusalOf, waitOf } from './area-codecs';
import { ReasonBody } from './reason.dto';
import { type DocumentRow, type DocumentRows, view } from './document-rows';
import type { OutcomeWaiter } from './outcome-waiter';
import { recordRequest } from './report-requests';

/**
 * What a supplier asks the authority about a reported document after its report (a cancellation, an
 * amendment): recorded with its 202 answer in one transaction; for a `sync` area the answer then
 * waits for the authority's (OutcomeWaiter, up to AUTHORITY_WAIT_MS), else 202 with where to read it.
 */
export class AuthorityRequests {
  constructor(
    private readonly connections: Connections,
    private readonly rows: DocumentRows,
    private readonly outcomes: OutcomeWaiter,
    /** How long a `sync` area's answer waits for the authority's (AUTHORITY_WAIT_MS). */
    private readonly waitMs: number,
  ) {}

  /**
   * Asks the authority to cancel a reported document (where its connector can): where the area waits
   * for its authority, 200 with the document once cancelled (as the area shows it), 409 with the
   * authority's refusal; the area's own words for its refusals (`documents.refusal`: MyInvois's codes).
   */
  async cancel(code: string, supplierRef: string | undefined, id: string, body: unknown, context: RequestContext): Promise<Answer> {
    const area = areaOf(code);
    const { documents } = codecs(area);
    const { reason } = validateBody(ReasonBody, body);
    const row = await this.rows.own(code, supplierRef, id, context);
    const requestedAt = new Date().toISOString();
    // The area's own 202 (its document, cancelling: `present(view, 'pending')`), else where to read the answer.
    const pending = documents.present?.({ ...view(row), state: 'cancelling' }, 'pending') ?? pendingOf(area, row, 'cancelling');
    const after = await this.request(area, row, context, pending, { type: 'RequestReportCancellation', data: { reportId: row.report_id, reason, requestedAt } }, (r) => r.report_state !== 'cancelling')
      .catch((error: unknown) => {
        // The report's decider refused it: not accepted for good, or a cancellation in flight.
        throw error instanceof AppError && error.code === 'AUTHORITY.NOT_CANCELLABLE' ? (refusalOf(area, { kind: 'not_cancellable', view: view(row) }) ?? error) : error;
      });
    if (!after) return { statusCode: 202, body: pending };
    if (after.report_state !== 'cancelled') {
      throw refusalOf(area, { kind: 'cancellation_refused', view: view(after) }) ?? cancellationRefusal(area, after.authority?.cancellationError ?? undefined);
    }
    return { statusCode: 200, body: presented(documents, view(after)) };
  }

  /**
   * Asks the authority to make `change` to an accepted document (the area's route read it from its body;
   * its connector's `amend` makes it): for a `sync` area, 200 with the document as the area shows it once
   * amended, 400 with the authority's refusal.
   */
  async amend(code: string, supplierRef: string | undefined, id: string, change: Readonly<Record<string, unknown>>, context: RequestContext): Promise<Answer> {
    const area = areaOf(code);
    const { documents } = codecs(area);
    const row = await this.rows.own(code, supplierRef, id, context);
    const amendmentId = randomUUID();
    const answered = (r: DocumentRow) => r.authority?.amendment?.id === amendmentId && r.authority.amendment.status !== 'requested';
    const pending = pendingOf(area, row, 'amending');
    const after = await this.request(area, row, context, pending, { type: 'RequestReportAmendment', data: { reportId: row.report_id, amendmentId, change, requestedAt: new Date().toISOString() } }, answered);
    if (!after) return { statusCode: 202, body: pending };
    const amendment = after.authority!.amendment!;
    if (amendment.status === 'refused') {
      const error = amendment.error;
      throw new AppError('validation', 'AUTHORITY.AMENDMENT_REFUSED', `The ${area.name} tax authority refused the change: ${error?.message ?? 'refused'}`, { issues: [issue(error?.path ?? '', error?.code ?? 'AUTHORITY.AMENDMENT_REFUSED', error?.message ?? 'Refused.')] });
    }
    return { statusCode: 200, body: presented(documents, view(after)) };
  }

  /**
   * Records a request about a reported document for its authority with its 202 answer (`pending`) in one
   * transaction (the one command step); where the area waits (`waitOf`), waits for the authority's answer
   * (`answered`): the document once answered, undefined when the answer is to be read later.
   */
  private async request(
    area: AreaDefinition,
    row: DocumentRow,
    context: RequestContext,
    pending: unknown,
    command: AuthorityReportCommand,
    answered: (row: DocumentRow) => boolean,
  ): Promise<DocumentRow | undefined> {
    await recordRequest(this.connections.store, context, area, { statusCode: 202, body: pending }, { commands: [{ reportId: row.report_id, command }] });
    const waitMs = waitOf(area, this.waitMs);
    if (waitMs === undefined) return undefined;
    const after = await this.outcomes.waitFor(row.id, waitMs, () => this.rows.read(row.id, row.supplier_id, context.tenant.id), answered);
    return after && answered(after) ? after : undefined;
  }
}

/** The pipeline's 202 while the authority has not answered a request about a document: its new state and where to read it. */
function pendingOf(area: AreaDefinition, row: DocumentRow, state: string) {
  return { status: 'pending', data: { documentId: row.id, documentNumber: row.document_number, state, href: documentHref(area, row.id) } };
}

/** The authority's refusal to cancel: 409, its own code and message. */
function cancellationRefusal(area: AreaDefinition, error: AuthorityErrorData | undefined): AppError {
  const message = error?.message ?? 'Refused.';
  return new AppError('conflict', 'AUTHORITY.CANCELLATION_REFUSED', `The ${area.name} tax authority refused to cancel the document: ${message}`, {
    issues: [issue(error?.path ?? '', error?.code ?? 'AUTHORITY.CANCELLATION_REFUSED', message)],
  });
}
