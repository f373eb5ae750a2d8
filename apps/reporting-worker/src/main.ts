import { SecretBox, createLogger } from '@einvoice/domain';
import { runWorker, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { myinvois } from '@einvoice/areas';
import { createMyInvoisHandler, myInvoisReportingSettings } from './myinvois/report-myinvois';
import { createReportingHandler } from './report-document';

const log = createLogger('reporting-worker');

/**
 * Consumes submitted documents and reports those whose area has a tax authority to report to:
 * MyInvois submissions (stream kind `myinvois`, documents topic) go to the connector of
 * MYINVOIS_MODE, with this process's own logins; the sandbox keeps its state in the worker's
 * database, so a restarted worker polls, cancels and recovers what its predecessor submitted.
 */
startWorkerProcess('reporting-worker', log, () =>
  runWorker('reporting-worker', log, (runtime) => {
    const connector = myinvois.connectorFromEnv(process.env, { query: (sql, params) => runtime.dataSource.query(sql, params) });
    const reportMyInvois = createMyInvoisHandler({
      store: runtime.store,
      connector,
      tokens: new myinvois.TokenCache((credentials) => connector.login(credentials)),
      secrets: SecretBox.fromEnv(),
      groupId: runtime.groupId,
      log,
      ...myInvoisReportingSettings(),
    });
    const report = createReportingHandler(log);
    return (event, context) => (event.streamId.startsWith('myinvois-') ? reportMyInvois(event, context) : report(event, context));
  }),
);
