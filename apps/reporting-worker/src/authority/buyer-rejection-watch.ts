import { randomUUID } from 'node:crypto';
import { AppError, type RecordBuyerRejection, retryAfterMsOf, authorityReportDecider, authorityReportStreamId } from '@einvoice/domain';
import { LockedPeriodicJob, handleCommand } from '@einvoice/domain/infrastructure';
import type { AuthorityConnector } from '@einvoice/areas';
import type { DataSource } from 'typeorm';
import type { AuthorityReportingDependencies } from './report-to-authority';

/** One watch per stack at a time (advisory lock class; namespaces: apps/gateway/src/participants/supplier-participants.ts). */
const WATCH_LOCK = 7312014;

/** An accepted document its buyer may still reject, as its connector is asked about it. */
export interface RejectableDocument {
  readonly reportId: string;
  readonly tenantId: string;
  /** The authority's receipt, with what its validation added (documents.authority->'receipt'). */
  readonly receipt: Record<string, unknown>;
  /** When the authority accepted it for good (the validation, or a final answer). */
  readonly acceptedAt: string;
}

/** One supplier's rejectable documents of one area. */
export interface WatchedSupplier {
  readonly supplierId: string;
  readonly documents: readonly RejectableDocument[];
}

/**
 * Per supplier of `area`, its documents accepted for good after `acceptedAfter` (the authority's
 * window for a buyer's rejection) whose buyer's rejection is not recorded yet, oldest first. A document
 * cancelling or cancelled is no longer `reported`: its buyer's rejection no longer matters. Reports of
 * documents the supplier received (a buyer's own rejection) are not its to watch.
 */
export async function watchedSuppliers(dataSource: DataSource, area: string, acceptedAfter: Date): Promise<WatchedSupplier[]> {
  type Row = { report_id: string; tenant_id: string; supplier_id: string; receipt: Record<string, unknown> | null; accepted_at: Date };
  const rows: Row[] = await dataSource.query(
    `SELECT report_id, tenant_id, supplier_id, authority->'receipt' AS receipt, accepted_at
     FROM (SELECT *, coalesce(authority->>'validatedAt', authority->>'answeredAt')::timestamptz AS accepted_at FROM documents
           WHERE area = $1 AND direction = 'outgoing' AND report_state = 'reported' AND report_id IS NOT NULL AND NOT (coalesce(authority, '{}'::jsonb) ? 'buyerRejection')) d
     WHERE accepted_at > $2
     ORDER BY supplier_id, accepted_at`,
    [area, acceptedAfter],
  );
  const bySupplier = new Map<string, RejectableDocument[]>();
  for (const row of rows) {
    const documents = bySupplier.get(row.supplier_id) ?? [];
    const acceptedAt = new Date(row.accepted_at).toISOString();
    documents.push({ reportId: row.report_id, tenantId: row.tenant_id, receipt: row.receipt ?? {}, acceptedAt });
    bySupplier.set(row.supplier_id, documents);
  }
  return [...bySupplier].map(([supplierId, documents]) => ({ supplierId, documents }));
}

export interface BuyerRejectionWatchOptions {
  readonly dataSource: DataSource;
  /** The stack's topic prefix: the advisory lock is per stack. */
  readonly lockName: string;
  /** AUTHORITY_BUYER_REJECTION_WATCH_MS (default 60000). */
  readonly intervalMs: number;
  readonly now?: () => number;
}

type WatchingConnector = AuthorityConnector & Required<Pick<AuthorityConnector, 'buyerRejections' | 'buyerRejectionWindowMs'>>;

/**
 * The issuer's side of a buyer's rejection, where the authority tells of it only on the document
 * (MyInvois: `rejectRequestDateTime` in Get Recent Documents): every `intervalMs` one worker of the
 * stack (advisory lock) asks, for each area whose connector has `buyerRejections` and each supplier
 * with documents accepted within the connector's `buyerRejectionWindowMs`, which of them their buyers
 * asked to reject (no transaction open during the call), and records `RecordBuyerRejection` for each
 * (one transaction each; once per document, the decider's rule). A 429 skips that supplier until its
 * Retry-After; a supplier's failure does not stop the others.
 */
export class BuyerRejectionWatch extends LockedPeriodicJob {
  private readonly now: () => number;
  /** Suppliers (per area) the authority answered 429: not asked again before their Retry-After has passed. */
  private readonly resumeAt = new Map<string, number>();
  private readonly watching: ReadonlyArray<readonly [string, WatchingConnector]>;

  constructor(
    private readonly deps: AuthorityReportingDependencies,
    private readonly options: BuyerRejectionWatchOptions,
  ) {
    super({ ...options, lockKey: WATCH_LOCK, log: deps.log, description: 'buyer rejection watch' });
    this.now = options.now ?? Date.now;
    this.watching = watchingConnectors(deps.connectors);
  }

  /** Whether any area's connector tells of buyers' rejections (otherwise the watch has nothing to do). */
  get hasWork(): boolean {
    return this.watching.length > 0;
  }

  protected async round(stopping: () => boolean): Promise<void> {
    for (const [area, connector] of this.watching) {
      const acceptedAfter = new Date(this.now() - connector.buyerRejectionWindowMs);
      for (const supplier of await watchedSuppliers(this.options.dataSource, area, acceptedAfter)) {
        if (stopping()) return;
        const key = `${area}:${supplier.supplierId}`;
        if ((this.resumeAt.get(key) ?? 0) > this.now()) continue;
        this.resumeAt.delete(key);
        await this.watchSupplier(area, connector, supplier);
      }
    }
  }

  private async watchSupplier(area: string, connector: WatchingConnector, supplier: WatchedSupplier): Promise<void> {
    const { supplierId, documents } = supplier;
    const asked = new Map(documents.map((d) => [d.reportId, d]));
    try {
      const asking = documents.map(({ reportId, receipt, acceptedAt }) => ({ reportId, receipt, acceptedAt }));
      const rejections = await connector.buyerRejections(supplierId, asking, { heartbeat: async () => undefined });
      for (const rejection of rejections) {
        const document = asked.get(rejection.reportId);
        if (document) await this.record(area, document, rejection);
      }
    } catch (error) {
      const retryAfterMs = retryAfterMsOf(error);
      const rateLimited = retryAfterMs !== undefined;
      // Rate limited: this supplier waits until its Retry-After; the others go on.
      if (rateLimited) this.resumeAt.set(`${area}:${supplierId}`, this.now() + retryAfterMs);
      this.deps.log(rateLimited ? 'info' : 'warn', 'buyer rejection watch skipped a supplier this round', {
        area,
        supplierId,
        error: error instanceof AppError ? error.code : String(error),
      });
    }
  }

  private async record(area: string, document: RejectableDocument, rejection: { readonly reason: string; readonly requestedAt: string }): Promise<void> {
    const { reportId, tenantId } = document;
    const command: RecordBuyerRejection = { type: 'RecordBuyerRejection', data: { reportId, reason: rejection.reason, requestedAt: rejection.requestedAt } };
    try {
      const recorded = await this.deps.store.transaction((uow) =>
        handleCommand(uow, authorityReportDecider, authorityReportStreamId(reportId), command, { tenantId, correlationId: randomUUID() }),
      );
      if (recorded.length) this.deps.log('info', 'document rejected by its buyer', { area, reportId: document.reportId });
    } catch (error) {
      // Cancelled meanwhile, or a concurrent append: the next round looks again (if it still matters).
      if (!(error instanceof AppError && error.kind === 'conflict')) throw error;
      this.deps.log('debug', 'buyer rejection not recorded this round', { area, reportId: document.reportId, code: error.code });
    }
  }
}

/** The areas whose connector tells of buyers' rejections; one without its window is a registry mistake that stops the start. */
function watchingConnectors(connectors: ReadonlyMap<string, AuthorityConnector>): Array<[string, WatchingConnector]> {
  const watching: Array<[string, WatchingConnector]> = [];
  for (const [area, connector] of connectors) {
    if (!connector.buyerRejections) continue;
    if (connector.buyerRejectionWindowMs === undefined) {
      throw new Error(`Area ${area}'s connector tells of buyers' rejections but states no buyerRejectionWindowMs`);
    }
    watching.push([area, connector as WatchingConnector]);
  }
  return watching;
}
