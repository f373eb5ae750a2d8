import 'reflect-metadata';
import { runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { ReportingWorkerModule } from './reporting-worker.module';
import { log } from './reporting-worker.providers';

/**
 * Consumes the reports to tax authorities (the reports topic: requests, cancellations and amendments of
 * `report-*` streams) and sends them to each area's authority, with the batch, poll and resend sweeps
 * and the buyers' rejection watch (ReportingWorkerModule).
 */
startWorkerProcess('reporting-worker', log, () => runWorkerApp('reporting-worker', log, ReportingWorkerModule, { topics: (topics) => [topics.reports] }));
