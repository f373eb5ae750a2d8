import { areaEventPlugins } from '@einvoice/areas';
import { Module } from '@nestjs/common';
import { WORKER_RUNTIME, WorkerRuntimeModule, platformEventRegistry } from '@einvoice/domain/infrastructure';
import { ReportingWorkerController } from './reporting-worker.controller';
import { AUTHORITY_REPORTING, ReportingJobs, authorityReporting } from './reporting-worker.providers';

/** The reporting worker: every area's reports through its authority connector (authority/), MyInvois buyers' rejections among them (docs/areas.md "Malaysia (MyInvois)"). */
@Module({
  imports: [WorkerRuntimeModule.forWorker('reporting-worker', platformEventRegistry(areaEventPlugins()))],
  controllers: [ReportingWorkerController],
  providers: [
    { provide: AUTHORITY_REPORTING, inject: [WORKER_RUNTIME], useFactory: authorityReporting },
    ReportingJobs,
  ],
})
export class ReportingWorkerModule {}
