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
import { type EventHandler, SealedRedisStore, WORKER_RUNTIME, type WorkerRuntime } from '@einvoice/domain/infrastructure';
import { type AuthorityConnector, areas, myinvois } from '@einvoice/areas';
import { createAuthorityReportHandler } from './authority/report-to-authority';
import { createBuyerRejectionHandler } from './myinvois/buyer-rejection';
import { RejectionWatch } from './myinvois/rejection-watch';
import {
  type MyInvoisReportingDependencies,
  createMyInvoisHandler,
  myInvoisReportingSettings,
} from './myinvois/report-myinvois';
import { PollSweep } from './myinvois/poll-sweep';
import { StaleSweep } from './myinvois/stale-sweep';

export const log = createLogger('reporting-worker');

/** Injection token of the MyInvois handlers (`MyInvoisHandlers`), shared by the controller and the stale sweep. */
export const MYINVOIS_HANDLERS = 'MyInvoisHandlers';

/** Injection token of the handler reporting documents of every area with an authority connector. */
export const AUTHORITY_HANDLER = 'AuthorityHandler';

/** The generic reporting handler, with one connector per area that has one (area registry), made once per process. */
export function authorityHandler(runtime: WorkerRuntime): EventHandler {
  const query = <T>(sql: string, params?: unknown[]): Promise<T[]> => runtime.dataSource.query(sql, params);
  const connectors = new Map<string, AuthorityConnector>();
  for (const area of areas) {
    if (area.authority.connector) connectors.set(area.code, area.authority.connector({ query, env: process.env }));
  }
  return createAuthorityReportHandler({ store: runtime.store, connectors, groupId: runtime.groupId, log });
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
  const connector = myinvois.connectorFromEnv(process.env, { query });
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
 * The periodic jobs: the rejection watch looks for buyers' rejections of issued documents every
 * MYINVOIS_REJECTION_WATCH_MS; the stale sweep asks again, every MYINVOIS_STALE_POLL_MS, about documents
 * still unvalidated after the polls. Stopped before the consumers (onModuleDestroy), so no round runs
 * on a closing pool.
 */
@Injectable()
export class ReportingJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly watch: RejectionWatch;
  private readonly staleSweep: StaleSweep;
  private readonly pollSweep: PollSweep;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, @Inject(MYINVOIS_HANDLERS) handlers: MyInvoisHandlers) {
    const { deps } = handlers;
    const lockName = runtime.config.kafkaPrefix;
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
  }

  onApplicationBootstrap(): void {
    this.watch.start();
    this.staleSweep.start();
    this.pollSweep.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.watch.stop();
    await this.staleSweep.stop();
    await this.pollSweep.stop();
  }
}
