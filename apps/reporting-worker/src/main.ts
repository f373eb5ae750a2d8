import Redis from 'ioredis';
import { SecretBox, createLogger } from '@einvoice/domain';
import { SealedRedisStore, platformEventRegistry, runWorker, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { areaEventPlugins, myinvois } from '@einvoice/areas';
import { createBuyerRejectionHandler } from './myinvois/buyer-rejection';
import { RejectionWatch } from './myinvois/rejection-watch';
import { createMyInvoisHandler, myInvoisReportingSettings } from './myinvois/report-myinvois';
import { StaleSweep } from './myinvois/stale-sweep';

const log = createLogger('reporting-worker');

/**
 * Consumes submitted documents and reports those whose area has a tax authority to report to:
 * MyInvois submissions (stream kind `myinvois`, documents topic) go to the connector of
 * MYINVOIS_MODE, with the suppliers' tokens shared (sealed, in Redis) with the gateway and the other
 * workers, so no process logs in while a token is valid; the sandbox keeps its state in the worker's
 * database, so a restarted worker polls, cancels and recovers what its predecessor submitted.
 * Buyers' rejections (`myinvois-rejection-*`) are sent with the buyer's token. The rejection watch
 * looks for buyers' rejections of issued documents every MYINVOIS_REJECTION_WATCH_MS; the stale-poll
 * sweep asks again, every MYINVOIS_STALE_POLL_MS, about documents still unvalidated after the polls.
 */
startWorkerProcess('reporting-worker', log, () =>
  runWorker('reporting-worker', log, platformEventRegistry(areaEventPlugins()), (runtime) => {
    const connector = myinvois.connectorFromEnv(process.env, { query: (sql, params) => runtime.dataSource.query(sql, params) });
    const secrets = SecretBox.fromEnv();
    const redis = new Redis(runtime.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    const deps = {
      store: runtime.store,
      connector,
      tokens: new myinvois.TokenCache((credentials) => connector.login(credentials), {
        store: new SealedRedisStore<myinvois.CachedToken>(redis, secrets, myinvois.tokenStorePrefix(runtime.config.kafkaPrefix)),
      }),
      secrets,
      groupId: runtime.groupId,
      log,
      ...myInvoisReportingSettings(),
    };
    const reportMyInvois = createMyInvoisHandler(deps);
    const rejectAsBuyer = createBuyerRejectionHandler(deps);
    const watch = new RejectionWatch(deps, {
      dataSource: runtime.dataSource,
      lockName: runtime.config.kafkaPrefix,
      intervalMs: Number(process.env.MYINVOIS_REJECTION_WATCH_MS ?? 60_000),
    });
    const staleSweep = new StaleSweep(deps, {
      dataSource: runtime.dataSource,
      lockName: runtime.config.kafkaPrefix,
      intervalMs: Number(process.env.MYINVOIS_STALE_POLL_MS ?? 300_000),
      // The chain of polls is over by then (MYINVOIS_MAX_POLLS × MYINVOIS_POLL_MS), with a minute to spare.
      staleAfterMs: deps.maxPolls * deps.pollIntervalMs + 60_000,
      unansweredAfterMs: Number(process.env.MYINVOIS_STALE_SUBMIT_MS ?? 600_000),
      handler: reportMyInvois,
      rejectionHandler: rejectAsBuyer,
    });
    return {
      handle: (event, context) => {
        if (event.streamId.startsWith('myinvois-rejection-')) return rejectAsBuyer(event, context);
        // Only MyInvois reports to an authority; BE/DE/SG documents on the same topic need nothing here.
        if (event.streamId.startsWith('myinvois-')) return reportMyInvois(event, context);
        return Promise.resolve();
      },
      // Stopped before the consumer, so no round runs on a closing pool.
      stopFirst: [watch, staleSweep],
      stopAfter: [{ stop: async () => void (await redis.quit()) }],
      started: () => {
        watch.start();
        staleSweep.start();
      },
    };
  }),
);
