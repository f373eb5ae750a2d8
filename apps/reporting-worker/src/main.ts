import 'reflect-metadata';
import { runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { ReportingWorkerModule } from './reporting-worker.module';
import { log } from './reporting-worker.providers';

/**
 * Consumes submitted documents and reports those whose area has a tax authority to report to:
 * MyInvois submissions (stream kind `myinvois`, documents topic) and buyers' rejections
 * (`myinvois-rejection-*`), with the rejection watch and the stale sweep (ReportingWorkerModule).
 */
startWorkerProcess('reporting-worker', log, () => runWorkerApp('reporting-worker', log, ReportingWorkerModule));
