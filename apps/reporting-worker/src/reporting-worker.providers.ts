// What the reporting worker owns besides its consumer, as Nest providers: the reporting pipeline,
// MyInvois buyers' rejections and the periodic jobs.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { createLogger } from '@einvoice/domain';
import { type EventHandler, WORKER_RUNTIME, type WorkerRuntime, measuredConnector } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, type BatchPolicy, type PollPolicy, areas, myinvois } from '@einvoice/areas';
import { createCancellationHandler } from './authority/cancel-report';
import { createAmendmentHandler } from './authority/amend-report';
import { BuyerRejectionWatch } from './authority/buyer-rejection-watch';
import { ReportBatchSweep } from './authority/report-batch-sweep';
import { ReportPollSweep } from './authority/report-poll-sweep';
import { type AuthorityReportingDependencies, createAuthorityReportHandler } from './authority/report-to-authority';
import { createBuyerRejectionHandler } from './myinvois/buyer-rejection';
import { RejectionRetry } from './myinvois/rejection-retry';

export const log = createLogger('reporting-worker');

/** Injection token of the MyInvois buyers' rejection handler (`MyInvoisHandlers`), shared by the controller and its retry job. */
export const MYINVOIS_HANDLERS = 'MyInvoisHandlers';

/** Injection token of the generic reporting pipeline (`AuthorityReporting`) of every area with an authority connector. */
export const AUTHORITY_REPORTING = 'AuthorityReporting';

/** The generic reporting pipeline's handlers and their dependencies (polls are the ReportPollSweep's). */
export interface AuthorityReporting {
  readonly deps: AuthorityReportingDependencies;
  /** Submissions (`AuthorityReportRequested`); those of batched areas wake the batch sweep. */
  readonly report: EventHandler;
  /** Sends the batched areas' reports (started by ReportingJobs; every AUTHORITY_BATCH_SWEEP_MS, or when woken). */
  readonly batchSweep: ReportBatchSweep;
  /** Issuers' cancellations (`AuthorityReportCancellationRequested`). */
  readonly cancel: EventHandler;
  /** Issuers' amendments (`AuthorityReportAmendmentRequested`). */
  readonly amend: EventHandler;
}

/** The generic pipeline, with one connector per area that has one (area registry), made once per process. */
export function authorityReporting(runtime: WorkerRuntime): AuthorityReporting {
  const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => runtime.dataSource.query(sql, params);
  const connectors = new Map<string, AuthorityConnector>();
  const pollPolicies = new Map<string, PollPolicy>();
  const batchPolicies = new Map<string, BatchPolicy>();
  for (const area of areas) {
    const made = area.authority.connector?.({ query, env: process.env });
    const connector = made && measuredConnector(area.code, made);
    if (connector) connectors.set(area.code, connector);
    if (area.authority.poll) pollPolicies.set(area.code, area.authority.poll);
    if (area.authority.batch) {
      // A registry mistake stops the start, not the first batch.
      if (!connector?.submitBatch) throw new Error(`Area ${area.code} reports in batches (authority.batch) but its connector has no submitBatch`);
      batchPolicies.set(area.code, area.authority.batch);
    }
  }
  const deps: AuthorityReportingDependencies = { store: runtime.store, connectors, pollPolicies, batchPolicies, groupId: runtime.groupId, log };
  const batchSweep = new ReportBatchSweep(deps, {
    dataSource: runtime.dataSource,
    lockName: runtime.config.kafkaPrefix,
    intervalMs: Number(process.env.AUTHORITY_BATCH_SWEEP_MS ?? 500),
  });
  return {
    deps,
    batchSweep,
    report: createAuthorityReportHandler(deps, { wake: () => batchSweep.wake() }),
    cancel: createCancellationHandler(deps),
    amend: createAmendmentHandler(deps),
  };
}

/** MyInvois's own handler: its buyers' rejections of documents they received (not a report of theirs). */
export interface MyInvoisHandlers {
  /** Buyers' rejections, sent with the buyer's token. */
  readonly rejectAsBuyer: EventHandler;
}

/**
 * The buyers' rejections go through the area's connector of the reporting pipeline (its tokens are
 * shared, sealed, in PostgreSQL with the gateway and the other workers); without it (a registry
 * mistake) the worker does not start.
 */
export function myInvoisHandlers(reporting: AuthorityReporting): MyInvoisHandlers {
  const connector = reporting.deps.connectors.get('my') as myinvois.MyInvoisReportingConnector | undefined;
  if (!connector?.rejectAsBuyer) throw new Error('Area my has no MyInvois reporting connector (area registry authority.connector)');
  return { rejectAsBuyer: createBuyerRejectionHandler({ store: reporting.deps.store, connector, groupId: reporting.deps.groupId, log }) };
}

/**
 * The periodic jobs: the report poll sweep asks authorities for the verdicts due (every
 * AUTHORITY_POLL_SWEEP_MS); the report batch sweep sends batched areas' reports (every
 * AUTHORITY_BATCH_SWEEP_MS, or at once when one of their reports is requested); the buyer-rejection
 * watch asks the authorities that tell of buyers' rejections (every AUTHORITY_BUYER_REJECTION_WATCH_MS);
 * the MyInvois rejection retry hands buyers' rejection requests left unanswered to their handler again
 * (every MYINVOIS_STALE_POLL_MS). Stopped before the consumers (onModuleDestroy), so no round runs on a
 * closing pool.
 */
@Injectable()
export class ReportingJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly rejectionRetry: RejectionRetry;
  private readonly reportPollSweep: ReportPollSweep;
  private readonly reportBatchSweep: ReportBatchSweep;
  private readonly buyerRejectionWatch: BuyerRejectionWatch;
  private readonly batchedAreas: boolean;
  private readonly connectors: AuthorityReporting['deps']['connectors'];

  constructor(
    @Inject(WORKER_RUNTIME) runtime: WorkerRuntime,
    @Inject(MYINVOIS_HANDLERS) handlers: MyInvoisHandlers,
    @Inject(AUTHORITY_REPORTING) reporting: AuthorityReporting,
  ) {
    const lockName = runtime.config.kafkaPrefix;
    this.reportPollSweep = new ReportPollSweep(reporting.deps, {
      dataSource: runtime.dataSource,
      lockName,
      intervalMs: Number(process.env.AUTHORITY_POLL_SWEEP_MS ?? 500),
    });
    this.batchedAreas = (reporting.deps.batchPolicies?.size ?? 0) > 0;
    this.connectors = reporting.deps.connectors;
    this.reportBatchSweep = reporting.batchSweep;
    this.buyerRejectionWatch = new BuyerRejectionWatch(reporting.deps, {
      dataSource: runtime.dataSource,
      lockName,
      // MYINVOIS_REJECTION_WATCH_MS: its name before the watch served every area.
      intervalMs: Number(process.env.AUTHORITY_BUYER_REJECTION_WATCH_MS ?? process.env.MYINVOIS_REJECTION_WATCH_MS ?? 60_000),
    });
    this.rejectionRetry = new RejectionRetry({
      dataSource: runtime.dataSource,
      store: runtime.store,
      log,
      lockName,
      intervalMs: Number(process.env.MYINVOIS_STALE_POLL_MS ?? 300_000),
      unansweredAfterMs: Number(process.env.MYINVOIS_STALE_SUBMIT_MS ?? 600_000),
      handler: handlers.rejectAsBuyer,
    });
  }

  onApplicationBootstrap(): void {
    this.reportPollSweep.start();
    // Only where an area reports in batches: otherwise its rounds would find nothing, twice a second.
    if (this.batchedAreas) this.reportBatchSweep.start();
    if (this.buyerRejectionWatch.hasWork) this.buyerRejectionWatch.start();
    this.rejectionRetry.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.rejectionRetry.stop();
    await this.reportPollSweep.stop();
    await this.reportBatchSweep.stop();
    await this.buyerRejectionWatch.stop();
    // What connectors hold open at their authority (KSeF's online sessions) is closed, not left to expire.
    for (const connector of this.connectors.values()) await connector.close?.().catch(() => undefined);
  }
}
