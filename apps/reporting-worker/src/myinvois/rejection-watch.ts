import { randomUUID } from 'node:crypto';
import { AppError } from '@einvoice/domain';
import { REJECTION_WINDOW_MS, myInvoisSubmissionDecider, myInvoisSubmissionStreamId } from '@einvoice/areas';
import { handleCommand } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import type { DataSource } from 'typeorm';
import { LockedPeriodicJob } from '@einvoice/domain/infrastructure';
import { MyInvoisReportingDependencies, tokenFor } from './report-myinvois';

/** Get Recent Documents' page size (the system maximum is taken as 100, as Get Submission's). */
export const WATCH_PAGE_SIZE = 100;
/** Get Recent Documents answers documents issued within the last 31 days only (SDK "05"); stay inside. */
const RECENT_WINDOW_MS = 30 * 24 * 3_600_000;
/** One scanner per stack at a time (the key's second half is the topic prefix, as the outbox relay's). */
export const WATCH_LOCK = 7312004;

/** An issued document open to a buyer's rejection: valid, validated less than 72 h ago. */
export interface OpenDocument {
  readonly documentId: string;
  readonly submissionId: string;
  readonly uuid: string;
}

/** One supplier to ask, and the Get Recent Documents window that covers its open documents. */
export interface WatchedSupplier {
  readonly supplierId: string;
  readonly tenantId: string;
  /** By MyInvois uuid. */
  readonly documents: ReadonlyMap<string, OpenDocument>;
  readonly submissionDateFrom: string;
  readonly submissionDateTo: string;
}

interface OpenRow {
  id: string;
  submission_id: string;
  tenant_id: string;
  supplier_id: string;
  uuid: string;
  created_at: Date;
}

/**
 * What one scan asks MyInvois: per supplier with documents `valid` and validated less than 72 h
 * before `now`, those documents, and the window from the oldest one's submission − 1 min (our
 * submission time precedes MyInvois's registration) to `now`.
 */
export async function watchedSuppliers(dataSource: DataSource, now: number): Promise<WatchedSupplier[]> {
  const rows: OpenRow[] = await dataSource.query(
    `SELECT id, submission_id, tenant_id, supplier_id, uuid, created_at FROM myinvois_documents
     WHERE state = 'valid' AND uuid IS NOT NULL AND validated_at > $1
     ORDER BY supplier_id, created_at`,
    [new Date(now - REJECTION_WINDOW_MS)],
  );
  const bySupplier = new Map<string, OpenRow[]>();
  for (const row of rows) bySupplier.set(row.supplier_id, [...(bySupplier.get(row.supplier_id) ?? []), row]);
  return [...bySupplier.values()].map((open) => ({
    supplierId: open[0].supplier_id,
    tenantId: open[0].tenant_id,
    documents: new Map(open.map((r) => [r.uuid, { documentId: r.id, submissionId: r.submission_id, uuid: r.uuid }])),
    submissionDateFrom: myinvois.wireUtc(Math.max(new Date(open[0].created_at).getTime() - 60_000, now - RECENT_WINDOW_MS)),
    submissionDateTo: myinvois.wireUtc(now),
  }));
}

export interface RejectionWatchOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** MYINVOIS_REJECTION_WATCH_MS (default 60000). */
  readonly intervalMs: number;
  readonly now?: () => number;
}

/**
 * The issuer's side of a buyer's rejection (SDK "04 reject document"): MyInvois tells the issuer
 * only through the document (`rejectRequestDateTime`, `documentStatusReason` in Get Recent
 * Documents), so every `intervalMs` one worker (PostgreSQL advisory lock) asks, for each supplier
 * with open documents, Get Recent Documents (Sent, pages of 100, until every open document was
 * seen) and records `RecordRejectionByBuyer` for those with a rejection request. A 429 skips that
 * supplier until the first round after its Retry-After. Costs one call per 100 documents the supplier sent since its
 * oldest open one, per round (12 RPM per client id).
 */
export class RejectionWatch extends LockedPeriodicJob {
  private readonly now: () => number;
  /** Suppliers MyInvois answered 429: not asked again before their Retry-After has passed. */
  private readonly resumeAt = new Map<string, number>();

  constructor(
    private readonly deps: MyInvoisReportingDependencies,
    private readonly options: RejectionWatchOptions,
  ) {
    super({ ...options, lockKey: WATCH_LOCK, log: deps.log, description: 'MyInvois rejection watch' });
    this.now = options.now ?? Date.now;
  }

  protected async round(stopping: () => boolean): Promise<void> {
    for (const supplier of await watchedSuppliers(this.options.dataSource, this.now())) {
      if (stopping()) break;
      if ((this.resumeAt.get(supplier.supplierId) ?? 0) > this.now()) continue;
      this.resumeAt.delete(supplier.supplierId);
      await this.scanSupplier(supplier);
    }
  }

  private async scanSupplier(supplier: WatchedSupplier): Promise<void> {
    const unseen = new Set(supplier.documents.keys());
    try {
      const token = await tokenFor(this.deps, supplier.supplierId);
      const query = { pageSize: WATCH_PAGE_SIZE, invoiceDirection: 'Sent' as const, submissionDateFrom: supplier.submissionDateFrom, submissionDateTo: supplier.submissionDateTo };
      for await (const doc of myinvois.everyRecentDocument((pageNo) => this.deps.connector.recentDocuments(token, { ...query, pageNo }))) {
        const open = supplier.documents.get(doc.uuid);
        if (open && unseen.delete(doc.uuid) && doc.rejectRequestDateTime) await this.record(supplier, open, doc.documentStatusReason ?? '', doc.rejectRequestDateTime);
        if (unseen.size === 0) break;
      }
    } catch (error) {
      if (error instanceof AppError && error.code === myinvois.MYINVOIS_ERRORS.TOKEN_REJECTED) await this.deps.tokens.invalidate(supplier.supplierId);
      const rateLimited = error instanceof AppError && error.kind === 'rate_limited';
      // Rate limited: this supplier waits for the next round after its Retry-After; the others go on.
      if (rateLimited) this.resumeAt.set(supplier.supplierId, this.now() + Number(error.details.retryAfterMs ?? 0));
      this.deps.log(rateLimited ? 'info' : 'warn', 'MyInvois rejection watch skipped a supplier this round', {
        supplierId: supplier.supplierId,
        error: error instanceof AppError ? error.code : String(error),
      });
    }
  }

  private async record(supplier: WatchedSupplier, open: OpenDocument, reason: string, requestedAt: string): Promise<void> {
    try {
      const recorded = await this.deps.store.transaction((uow) =>
        handleCommand(uow, myInvoisSubmissionDecider, myInvoisSubmissionStreamId(open.submissionId), {
          type: 'RecordRejectionByBuyer',
          data: { submissionId: open.submissionId, uuid: open.uuid, reason, requestedAt },
        }, { tenantId: supplier.tenantId, correlationId: randomUUID() }),
      );
      if (recorded.length) this.deps.log('info', 'MyInvois document rejected by its buyer', { documentId: open.documentId, uuid: open.uuid });
    } catch (error) {
      // Cancelled meanwhile, or a concurrent append: the next round looks again.
      if (!(error instanceof AppError && error.kind === 'conflict')) throw error;
      this.deps.log('debug', 'MyInvois buyer rejection not recorded this round', { uuid: open.uuid, code: error.code });
    }
  }
}
