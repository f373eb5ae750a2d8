import { createLogger } from '@einvoice/domain';
import { runWorker, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { createReportingHandler } from './report-document';

const log = createLogger('reporting-worker');

/** Consumes submitted documents and reports those whose area has a tax authority to report to. */
startWorkerProcess('reporting-worker', log, () => runWorker('reporting-worker', log, () => createReportingHandler(log)));
