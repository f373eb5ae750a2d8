import 'reflect-metadata';
import { announceKafkajsPatches, runWorkerApp, startWorkerProcess } from '@einvoice/domain/infrastructure';
import { announceOfficialChecks, announceServiceProviderId } from '@einvoice/areas';
import { ReportingWorkerModule } from './reporting-worker.module';
import { log } from './reporting-worker.providers';

/**
 * Consumes the reports to tax authorities (the reports topic: requests, cancellations and amendments of
 * `report-*` streams) and sends them to each area's authority, with the batch, poll and resend sweeps
 * and the buyers' rejection watch (ReportingWorkerModule).
 */
startWorkerProcess('reporting-worker', log, async () => {
  // First: a configured but missing official artefact stops the start, not every report (conformance/runtime.ts).
  announceOfficialChecks(log);
  announceKafkajsPatches(log);
  announceServiceProviderId(log);
  return runWorkerApp('reporting-worker', log, ReportingWorkerModule, { topics: (topics) => [topics.reports] });
});
