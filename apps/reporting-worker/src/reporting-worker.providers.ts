// What the reporting worker owns besides its consumer, as Nest providers: the reporting pipeline
// and its periodic jobs.
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { createLogger } from '@einvoice/domain';
import { type EventHandler, PgListener, REPORT_REQUESTED_CHANNEL, WORKER_RUNTIME, type WorkerRuntime, measuredConnector } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, type BatchPolicy, type PollPolicy, areas } from '@einvoice/areas';
import { createCancellationHandler } from './authority/cancel-report';
import { createAmendmentHandler } from './authority/amend-report';
import { BuyerRejectionWatch } from './authority/buyer-rejection-watch';
import { ReportBatchSweep } from './authority/report-batch-sweep';
import { ReportPollSweep } from './authority/report-poll-sweep';
import { ReportResendSweep } from './authority/report-resend-sweep';
import { type AuthorityReportingDependencies, createAuthorityReportHandler } from './authority/report-to-authority';

export const log = createLogger('reporting-worker');

/** Injection token of the generic reporting pipeline (`AuthorityReporting`) of every area with an authority connector. */
export const AUTHORITY_REPORTING = 'AuthorityReporting';

/** The generic reporting pipeline's handlers and their dependencies (polls are the ReportPollSweep's). */
export interface AuthorityReporting {
  readonly deps: AuthorityReportingDependencies;
  /** Submissions (`AuthorityReportRequested`); those of batched areas wake the batch sweep. */
  readonly report: EventHandler;
  /** Sends the batched areas' reports (started by ReportingJobs; every AUTHORITY_BATCH_SWEEP_MS, or when woken). */
  readonly batchSweep: ReportBatchSweep;
  /** Asks for due verdicts (started by ReportingJobs; every AUTHORITY_POLL_SWEEP_MS, or when a batch was taken for processing). */
  readonly pollSweep: ReportPollSweep;
  /** Sends again the reports the authority turned away (429) once its wait is over (started by ReportingJobs; every AUTHORITY_RESEND_SWEEP_MS, or when the next falls due). */
  readonly resendSweep: ReportResendSweep;
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
  const pollSweep = new ReportPollSweep(deps, {
    dataSource: runtime.dataSource,
    lockName: runtime.config.kafkaPrefix,
    intervalMs: Number(process.env.AUTHORITY_POLL_SWEEP_MS ?? 500),
  });
  const batchSweep = new ReportBatchSweep(deps, {
    dataSource: runtime.dataSource,
    lockName: runtime.config.kafkaPrefix,
    intervalMs: Number(process.env.AUTHORITY_BATCH_SWEEP_MS ?? 500),
    // A batch taken for processing is polled at once where its area says so (MyInvois firstPollAfterMs 0).
    answered: () => pollSweep.wake(),
  });
  const resendSweep = new ReportResendSweep(deps, {
    dataSource: runtime.dataSource,
    lockName: runtime.config.kafkaPrefix,
    intervalMs: Number(process.env.AUTHORITY_RESEND_SWEEP_MS ?? 1_000),
    // The batch sweep sends its areas' reports again itself.
    areas: [...connectors.keys()].filter((area) => !batchPolicies.has(area)),
  });
  return {
    deps,
    batchSweep,
    pollSweep,
    resendSweep,
    report: createAuthorityReportHandler(deps, { wake: () => batchSweep.wake() }),
    cancel: createCancellationHandler(deps),
    amend: createAmendmentHandler(deps),
  };
}

/**
 * The periodic jobs: the report poll sweep asks authorities for the verdicts due (every
 * AUTHORITY_POLL_SWEEP_MS); the report batch sweep sends batched areas' reports (every
 * AUTHORITY_BATCH_SWEEP_MS, or at once when one of their reports is requested: a notification on
 * `report_requested`, heard on the worker's LISTEN connection); the buyer-rejection
 * watch asks the authorities that tell of buyers' rejections (every AUTHORITY_BUYER_REJECTION_WATCH_MS);
 * the resend sweep sends again what an authority turned away (429), once its wait is over.
 * Stopped before the consumers (onModuleDestroy), so no round runs on a
 * closing pool.
 */
@Injectable()
export class ReportingJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly reportPollSweep: ReportPollSweep;
  private readonly reportBatchSweep: ReportBatchSweep;
  private readonly reportResendSweep: ReportResendSweep;
  private readonly buyerRejectionWatch: BuyerRejectionWatch;
  private readonly batchedAreas: boolean;
  /** Report requests of batched areas, announced after their commit (they are not on Kafka): they wake the batch sweep. */
  private readonly requests: PgListener;
  private readonly connectors: AuthorityReporting['deps']['connectors'];

  constructor(
    @Inject(WORKER_RUNTIME) runtime: WorkerRuntime,
    @Inject(AUTHORITY_REPORTING) reporting: AuthorityReporting,
  ) {
    const lockName = runtime.config.kafkaPrefix;
    this.reportPollSweep = reporting.pollSweep;
    this.batchedAreas = (reporting.deps.batchPolicies?.size ?? 0) > 0;
    this.connectors = reporting.deps.connectors;
    this.reportBatchSweep = reporting.batchSweep;
    this.reportResendSweep = reporting.resendSweep;
    const batchPolicies = reporting.deps.batchPolicies;
    this.requests = new PgListener({ connectionString: runtime.config.databaseUrl, applicationName: 'einvoice-reporting-worker-listener', log });
    this.requests.subscribe(REPORT_REQUESTED_CHANNEL, {
      notified: (area) => {
        if (batchPolicies?.has(area)) this.reportBatchSweep.wake();
      },
      // Requests announced while the connection was down: the sweep looks now (and every round anyway).
      resubscribed: () => this.reportBatchSweep.wake(),
    });
    this.buyerRejectionWatch = new BuyerRejectionWatch(reporting.deps, {
      dataSource: runtime.dataSource,
      lockName,
      // MYINVOIS_REJECTION_WATCH_MS: its name before the watch served every area.
      intervalMs: Number(process.env.AUTHORITY_BUYER_REJECTION_WATCH_MS ?? process.env.MYINVOIS_REJECTION_WATCH_MS ?? 60_000),
    });
  }

  onApplicationBootstrap(): void {
    this.reportPollSweep.start();
    if (this.reportResendSweep.hasWork) this.reportResendSweep.start();
    // Only where an area reports in batches: otherwise its rounds would find nothing, twice a second.
    if (this.batchedAreas) {
      this.reportBatchSweep.start();
      void this.requests.start();
    }
    if (this.buyerRejectionWatch.hasWork) this.buyerRejectionWatch.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.requests.stop();
    await this.reportPollSweep.stop();
    await this.reportBatchSweep.stop();
    await this.reportResendSweep.stop();
    await this.buyerRejectionWatch.stop();
    // What connectors hold open at their authority (KSeF's online sessions) is closed, not left to expire.
    for (const connector of this.connectors.values()) await connector.close?.().catch(() => undefined);
  }
}
