import { areaEventPlugins } from '@einvoice/areas';
import { Module } from '@nestjs/common';
import { WORKER_RUNTIME, WorkerRuntimeModule, platformEventRegistry } from '@einvoice/domain/infrastructure';
import { ReportingWorkerController } from './reporting-worker.controller';
import { AUTHORITY_REPORTING, MYINVOIS_HANDLERS, ReportingJobs, authorityReporting, myInvoisHandlers } from './reporting-worker.providers';

/** The reporting worker: every area's reports through its authority connector (authority/), and MyInvois buyers' rejections (README "Malaysia (MyInvois)"). */
@Module({
  imports: [WorkerRuntimeModule.forWorker('reporting-worker', platformEventRegistry(areaEventPlugins()))],
  controllers: [ReportingWorkerController],
  providers: [
    { provide: AUTHORITY_REPORTING, inject: [WORKER_RUNTIME], useFactory: authorityReporting },
    { provide: MYINVOIS_HANDLERS, inject: [AUTHORITY_REPORTING], useFactory: myInvoisHandlers },
    ReportingJobs,
  ],
})
export class ReportingWorkerModule {}
