import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type AuthorityErrorData, timeOrderedUuid } from '@einvoice/domain';
import { type MyInvoisSubmissionKind, areaOf, myinvois } from '@einvoice/areas';
import type { Answer } from '../../http/answer';
import { Connections } from '../../infrastructure/infrastructure.module';
import { SupplierCache, activeSupplier } from '../../suppliers/supplier-lookup';
import type { RequestContext } from '../../http/request-context';
import { OutcomeWaiter } from '../../pipeline/outcome-waiter';
import { numbersInUse } from '../../pipeline/document-keys';
import { recordRequest, reportRequestOf } from '../../pipeline/report-requests';

/** What a submission's answer needs of its documents once MyInvois answered (read for up to 100 documents per wake-up). */
interface AnswerRow {
  id: string;
  document_number: string;
  report_state: string;
  authority: { receipt?: myinvois.MyInvoisReceipt; error?: AuthorityErrorData } | null;
}

/**
 * Malaysian area, submission (#4; seed 000 "Invoice-type document", submission response): a request holds
 * several documents. Each is parsed and rendered by the area's codec and becomes a report of the pipeline
 * (report-requests.ts), the caller's submission their batch key: the reporting worker sends them in one
 * Submit Documents call and polls their verdicts. The request waits for MyInvois's answer up to
 * `MYINVOIS_WAIT_MS` (area registry `authority.waitMs`), else answers 202 with the documents still pending
 * and where to poll them.
 */
@Injectable()
export class MyInvoisSubmissionService {
  private readonly suppliers = new SupplierCache();

  constructor(
    private readonly connections: Connections,
    private readonly outcomes: OutcomeWaiter,
  ) {}

  async submit(kind: MyInvoisSubmissionKind, shape: 'single' | 'bulk', headers: { supplier?: string; transportMode?: string }, body: unknown, context: RequestContext): Promise<Answer> {
    const area = areaOf('my');
    const query = <T>(sql: string, params: unknown[]) => this.connections.dataSource.query(sql, params) as Promise<T[]>;
    const transportMode = myinvois.myInvoisTransportMode(headers.transportMode);
    const supplier = activeSupplier(await this.suppliers.find(this.connections.dataSource, context.tenant.id, 'my', headers.supplier));
    const bodies = shape === 'bulk' ? myinvois.checkBulkCount(body) : [body];
    // An ID is taken while its document lives: refused, invalid and cancelled ones free it.
    const taken = await numbersInUse(query, supplier.id, myinvois.requestedIds(bodies));
    const submissionId = randomUUID();
    const prepared = myinvois.prepareSubmission(kind, bodies, myinvois.supplierOfProfile(supplier.profile), taken, { submissionId, transportMode });
    // One document: its refusal is the request's (400, or 409 for a duplicate ID).
    if (shape === 'single' && prepared.rejected[0]) throw myinvois.asRequestError(prepared.rejected[0].error);

    const requestedAt = new Date().toISOString();
    const reports = prepared.documents.map((document) =>
      reportRequestOf(area, document, { documentId: timeOrderedUuid(), reportId: randomUUID(), tenantId: context.tenant.id, supplierId: supplier.id, requestedAt, batchKey: submissionId }),
    );
    // A replay of this request answers the 202 with the poll links: its outcome is in GET.
    const pending = myinvois.submissionAnswer(submissionId, prepared.rejected, reports.map((r) => ({ documentId: r.documentId, number: r.documentNumber, state: 'pending' })));
    await recordRequest(this.connections.store, context, area, pending, { tracks: reports.map((report) => ({ report })) });
    if (!reports.length) return pending;
    const rows = await this.answered(reports.map((r) => r.documentId), area.authority.waitMs ?? 0);
    return myinvois.submissionAnswer(
      submissionId,
      prepared.rejected,
      rows.map((r) => ({ documentId: r.id, number: r.document_number, state: r.report_state, receipt: r.authority?.receipt, error: r.authority?.error })),
    );
  }

  /**
   * The documents once MyInvois answered their submission, waited for on their outcome notifications
   * (OutcomeWaiter) within one wait for all, read together; in submission order.
   */
  private async answered(documentIds: readonly string[], waitMs: number): Promise<AnswerRow[]> {
    const unanswered = (row: AnswerRow) => row.report_state === 'pending';
    const read = async (open: readonly string[]) => {
      const rows: AnswerRow[] = await this.connections.dataSource.query(`SELECT id, document_number, report_state, authority FROM documents WHERE id = ANY($1::uuid[])`, [open]);
      return new Map(rows.map((row) => [row.id, row]));
    };
    const rows = await this.outcomes.waitForAll(documentIds, waitMs, read, (r) => !unanswered(r));
    return documentIds.flatMap((id) => rows.get(id) ?? []);
  }
}
