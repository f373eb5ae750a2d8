import { randomUUID } from 'node:crypto';
import { AppError, type AuthorityErrorData, conflict, issue, timeOrderedUuid } from '@einvoice/domain';
import { type AreaDefinition, type ParsedDocument, areaOf } from '@einvoice/areas';
import type { UnitOfWork } from '@einvoice/domain/infrastructure';
import type { Answer } from '../http/answer';
import { type RequestContext, eventMetadata } from '../http/request-context';
import type { Connections } from '../infrastructure/infrastructure.module';
import { type SupplierCache, activeSupplier } from '../suppliers/supplier-lookup';
import { codecs, documentHref, presented, refusalOf, renderedForAuthority, waitOf } from './area-codecs';
import { type DocumentRows, UNANSWERED, view } from './document-rows';
import type { IssuerChains } from './issuer-chain';
import type { OutcomeWaiter } from './outcome-waiter';
import { type InTransaction, recordRequest, recordRequestIn, reportRequestOf } from './report-requests';
import { deliveryOf, peppolCopyOf } from './tracks';

/** The caller's own step in the request's transaction (`InTransaction`), told which document it is about. */
export type OnAccepted = (uow: UnitOfWork, accepted: { readonly documentId: string; readonly parsed: ParsedDocument }) => Promise<void>;

/**
 * A document's submission in an area (its `documents` codec): parsed with the supplier, completed from
 * the document it refers to, then recorded with its answer (the Idempotency-Key's record) in one
 * transaction (the one command step, report-requests.ts): its report where the area has an authority,
 * its delivery where it delivers over Peppol (`exchange`), the caller's own step where it has one (`onAccepted`),
 * linked on its issuer's chain where the area chains. For a `sync` area the answer then
 * waits for the authority's (OutcomeWaiter, up to AUTHORITY_WAIT_MS): 200 with it, 400 with the
 * authority's refusal, or 202 with where to read it when the wait runs out.
 */
export class Submissions {
  constructor(
    private readonly connections: Connections,
    private readonly suppliers: SupplierCache,
    private readonly rows: DocumentRows,
    private readonly chains: IssuerChains,
    private readonly outcomes: OutcomeWaiter,
    /** How long a `sync` area's answer waits for the authority's (AUTHORITY_WAIT_MS). */
    private readonly waitMs: number,
  ) {}

  async submit(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext, variant?: string, onAccepted?: OnAccepted): Promise<Answer> {
    try {
      return await this.submitDocument(code, supplierRef, body, context, variant, onAccepted);
    } catch (error) {
      throw atNumberField(error, codecs(areaOf(code)).documents.numberField);
    }
  }

  /**
   * Checks a body exactly as a submission would (its codec's `parse`, with an id of its own) and records
   * only `answer`'s answer to it and the caller's step: nothing is filed (UAE's `documents/validate`).
   */
  async check(
    code: string,
    supplierRef: string | undefined,
    body: unknown,
    context: RequestContext,
    answer: (parsed: ParsedDocument) => Answer,
    variant?: string,
    onAccepted?: OnAccepted,
  ): Promise<Answer> {
    const area = areaOf(code);
    const supplier = activeSupplier(await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef));
    const documentId = randomUUID();
    const parsed = codecs(area).documents.parse(body, supplier.profile, variant, documentId);
    const answered = answer(parsed);
    await recordRequest(this.connections.store, context, area, answered, { also: stepOf(onAccepted, documentId, parsed) }, parsed.ruleSetId);
    return answered;
  }

  private async submitDocument(code: string, supplierRef: string | undefined, body: unknown, context: RequestContext, variant?: string, onAccepted?: OnAccepted): Promise<Answer> {
    const area = areaOf(code);
    const supplier = activeSupplier(await this.suppliers.find(this.connections.dataSource, context.tenant.id, code, supplierRef));
    const { documents } = codecs(area);
    const documentId = timeOrderedUuid();
    const asParsed = documents.parse(body, supplier.profile, variant, documentId);
    const referenced = asParsed.refersTo ? await this.rows.referenced(supplier.id, asParsed.refersTo) : undefined;
    const parsed = referenced && documents.resolve ? documents.resolve(asParsed, referenced, supplier.profile) : asParsed;
    const of = { documentId, reportId: randomUUID(), tenantId: context.tenant.id, supplierId: supplier.id };
    const pending = { status: 'pending', data: { documentId, documentNumber: parsed.number, state: 'pending', href: documentHref(area, documentId) } };
    const metadata = eventMetadata(context, parsed.ruleSetId ?? area.ruleSetId);
    const also = stepOf(onAccepted, documentId, parsed);

    if (documents.chain) {
      const peppolCopy = peppolCopyOf(documents, parsed, supplier, documentId);
      const chained = await this.chains.link(area, documents.chain, parsed, supplier, { documentId, reportId: of.reportId }, async (uow, next, at, chainPosition) => {
        const own = documents.respond?.({ documentId, number: parsed.number, answer: next.answer });
        const delivery = area.exchange ? deliveryOf(area.exchange, parsed, supplier, documentId, at, next.document) : undefined;
        const linked = { parsed: { ...parsed, fields: { ...parsed.fields, ...next.fields }, payload: next.payload }, rendered: next.document, peppolCopy };
        const report = reportRequestOf(area, linked, { ...of, requestedAt: at, chainPosition });
        await recordRequestIn(uow, context, metadata, own ?? { statusCode: 202, body: pending }, { also, tracks: [{ delivery, report }] });
      }, metadata);
      const own = documents.respond?.({ documentId, number: parsed.number, answer: chained.answer });
      if (own) return own;
    } else {
      const at = new Date().toISOString();
      // An area with no authority (`answer: 'none'`) records no report: its documents only travel over Peppol.
      const reports = area.authority.answer !== 'none';
      const rendered = reports ? renderedForAuthority(area, documents, parsed, supplier.profile, documentId) : undefined;
      const report = rendered ? reportRequestOf(area, { parsed, rendered, peppolCopy: peppolCopyOf(documents, parsed, supplier, documentId) }, { ...of, requestedAt: at }) : undefined;
      const delivery = area.exchange ? deliveryOf(area.exchange, parsed, supplier, documentId, at, rendered) : undefined;
      const own = documents.respond?.({ documentId, number: parsed.number });
      // The area's own answer, else the 202 with the link where the outcome is read.
      await recordRequest(
        this.connections.store, context, area, own ?? { statusCode: 202, body: pending },
        { also, tracks: [{ delivery, report, attachments: rendered?.attachments }] }, parsed.ruleSetId,
      );
      if (own) return own;
    }
    const waitMs = waitOf(area, this.waitMs);
    if (waitMs === undefined) return { statusCode: 202, body: pending };
    const row = await this.outcomes.waitFor(documentId, waitMs, () => this.rows.read(documentId, supplier.id, context.tenant.id), (r) => !UNANSWERED.includes(r.report_state));
    // Taken for processing only, or no answer within the wait: where to read the verdict.
    if (!row || UNANSWERED.includes(row.report_state)) return { statusCode: 202, body: { ...pending, data: { ...pending.data, state: row?.report_state ?? 'pending' } } };
    if (row.report_state === 'rejected' || row.report_state === 'invalid') {
      const own = refusalOf(area, { kind: 'authority_refused', view: view(row) });
      if (own !== 'answer') throw own ?? refusal(area, row.authority?.error);
    }
    // The area's own answer (Jordan: `{status, message: {uuid, qr_code}}`), else the document.
    return { statusCode: 200, body: presented(documents, view(row), 'answer') };
  }
}

/** The caller's step about this document, in the request's transaction. */
function stepOf(onAccepted: OnAccepted | undefined, documentId: string, parsed: ParsedDocument): InTransaction | undefined {
  return onAccepted && ((uow) => onAccepted(uow, { documentId, parsed }));
}

/** A duplicate number's 409 names the area's own number field (the shared constraint message says `ID`). */
function atNumberField(error: unknown, field: string | undefined): unknown {
  if (!field || !(error instanceof AppError) || error.code !== 'DOCUMENT.DUPLICATE_ID') return error;
  return conflict(error.code, error.message.replace(/\bID\b/, field), error.issues.map((i) => (i.path === 'ID' ? { ...i, path: field, message: i.message.replace(/^ID\b/, field) } : i)));
}

/** The authority's refusal, in the one error shape: its own code and message, at its field when it names one. */
function refusal(area: AreaDefinition, error: AuthorityErrorData | undefined): AppError {
  const code = error?.code ?? 'AUTHORITY.REJECTED';
  const message = error?.message ?? 'Refused.';
  const each = error?.details?.length ? error.details : [{ code, message, path: error?.path }];
  return new AppError('validation', 'AUTHORITY.REJECTED', `The ${area.name} tax authority refused the document: ${message}`, {
    issues: each.map((e) => issue(e.path ?? '', e.code, e.message)),
  });
}
