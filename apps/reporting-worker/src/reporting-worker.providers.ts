// What the reporting worker owns besides its consumer, as Nest providers: the MyInvois handlers,
// the token cache's Redis client and the periodic jobs.
import {
  Inject,
  Injectable,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
} from '@nestjs/common';
import Redis from 'ioredis';
import { SecretBox, createLogger } from '@einvoice/domain';
import { type EventHandler, SealedRedisStore, WORKER_RUNTIME, type WorkerRuntime, measuredConnector } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, type BatchPolicy, type PollPolicy, areas, myinvois } from '@einvoice/areas';
import { createCancellationHandler } from './authority/cancel-report';
import { createAmendmentHandler } from './authority/amend-report';
import { BuyerRejectionWatch } from './authority/buyer-rejection-watch';
import { ReportBatchSweep } from './authority/report-batch-sweep';
import { ReportPollSweep } from './authority/report-poll-sweep';
import { type AuthorityReportingDependencies, createAuthorityReportHandler } from './authority/report-to-authority';
import { createBuyerRejectionHandler } from './myinvois/buyer-rejection';
import { RejectionWatch } from './myinvois/rejection-watch';
import {
  type MyInvoisReportingDependencies,
  createMyInvoisHandler,
  myInvoisReportingSettings,
} from './myinvois/report-myinvois';
import { PollSweep } from './myinvois/poll-sweep';
import { SubmitSweep } from './myinvois/submit-sweep';
import { StaleSweep } from './myinvois/stale-sweep';

export const log = createLogger('reporting-worker');

/** Injection token of the MyInvois handlers (`MyInvoisHandlers`), shared by the controller and the stale sweep. */
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

/** The worker's two MyInvois handlers and their dependencies. */
export interface MyInvoisHandlers {
  readonly deps: MyInvoisReportingDependencies;
  /** Submissions: submit, poll, cancel. */
  readonly report: EventHandler;
  /** Buyers' rejections, sent with the buyer's token. */
  readonly rejectAsBuyer: EventHandler;
}

/** The Redis client of the token cache; quit after the consumers, before the pool (WorkerRuntimeModule). */
@Injectable()
export class TokenRedis implements OnApplicationShutdown {
  readonly client: Redis;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime) {
    this.client = new Redis(runtime.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit();
  }
}

/**
 * MyInvois handlers on the connector of MYINVOIS_MODE, with the suppliers' tokens shared (sealed, in
 * Redis) with the gateway and the other workers, so no process logs in while a token is valid; the
 * sandbox keeps its state in the worker's database, so a restarted worker polls, cancels and recovers
 * what its predecessor submitted.
 */
export function myInvoisHandlers(runtime: WorkerRuntime, redis: TokenRedis): MyInvoisHandlers {
  const query = (sql: string, params?: unknown[]) => runtime.dataSource.query(sql, params);
  const connector = measuredConnector('my', myinvois.connectorFromEnv(process.env, { query }), myinvois.MYINVOIS_OPERATIONS);
  const secrets = SecretBox.fromEnv();
  const prefix = myinvois.tokenStorePrefix(runtime.config.kafkaPrefix);
  const store = new SealedRedisStore<myinvois.CachedToken>(redis.client, secrets, prefix);
  const deps: MyInvoisReportingDependencies = {
    store: runtime.store,
    connector,
    tokens: new myinvois.TokenCache((credentials) => connector.login(credentials), { store }),
    secrets,
    groupId: runtime.groupId,
    log,
    ...myInvoisReportingSettings(),
  };
  return { deps, report: createMyInvoisHandler(deps), rejectAsBuyer: createBuyerRejectionHandler(deps) };
}

/**
 * The periodic jobs: the report poll sweep asks authorities for the verdicts due (every
 * AUTHORITY_POLL_SWEEP_MS); the report batch sweep sends batched areas' reports (every
 * AUTHORITY_BATCH_SWEEP_MS, or at once when one of their reports is requested); the buyer-rejection
 * watch asks the authorities that tell of buyers' rejections (every AUTHORITY_BUYER_REJECTION_WATCH_MS);
 * the MyInvois rejection watch looks for buyers' rejections of issued documents every
 * MYINVOIS_REJECTION_WATCH_MS; the stale sweep asks again, every MYINVOIS_STALE_POLL_MS, about documents
 * still unvalidated after the polls; the submit sweep submits, in turns per supplier, what MyInvois turned
 * away with a 429 (every MYINVOIS_SUBMIT_SWEEP_MS). Stopped before the consumers (onModuleDestroy), so no round runs
 * on a closing pool.
 */
@Injectable()
export class ReportingJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly watch: RejectionWatch;
  private readonly staleSweep: StaleSweep;
  private readonly pollSweep: PollSweep;
  private readonly submitSweep: SubmitSweep;
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
    const { deps } = handlers;
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
    this.watch = new RejectionWatch(deps, {
      dataSource: runtime.dataSource,
      lockName,
      intervalMs: Number(process.env.MYINVOIS_REJECTION_WATCH_MS ?? 60_000),
    });
    this.staleSweep = new StaleSweep(deps, {
      dataSource: runtime.dataSource,
      lockName,
      intervalMs: Number(process.env.MYINVOIS_STALE_POLL_MS ?? 300_000),
      // The chain of polls is over by then (MYINVOIS_MAX_POLLS × MYINVOIS_POLL_MS), with a minute to spare.
      staleAfterMs: deps.maxPolls * deps.pollIntervalMs + 60_000,
      unansweredAfterMs: Number(process.env.MYINVOIS_STALE_SUBMIT_MS ?? 600_000),
      handler: handlers.report,
      rejectionHandler: handlers.rejectAsBuyer,
    });
    this.pollSweep = new PollSweep(deps, { dataSource: runtime.dataSource, lockName, intervalMs: Number(process.env.MYINVOIS_POLL_SWEEP_MS ?? 500) });
    this.submitSweep = new SubmitSweep(deps, { dataSource: runtime.dataSource, lockName, intervalMs: Number(process.env.MYINVOIS_SUBMIT_SWEEP_MS ?? 500) });
  }

  onApplicationBootstrap(): void {
    this.reportPollSweep.start();
    // Only where an area reports in batches: otherwise its rounds would find nothing, twice a second.
    if (this.batchedAreas) this.reportBatchSweep.start();
    if (this.buyerRejectionWatch.hasWork) this.buyerRejectionWatch.start();
    this.watch.start();
    this.staleSweep.start();
    this.pollSweep.start();
    this.submitSweep.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.watch.stop();
    await this.staleSweep.stop();
    await this.pollSweep.stop();
    await this.submitSweep.stop();
    await this.reportPollSweep.stop();
    await this.reportBatchSweep.stop();
    await this.buyerRejectionWatch.stop();
    // What connectors hold open at their authority (KSeF's online sessions) is closed, not left to expire.
    for (const connector of this.connectors.values()) await connector.close?.().catch(() => undefined);
  }
}
