import { areaEventPlugins } from '@einvoice/areas';
import { Module } from '@nestjs/common';
import { WORKER_RUNTIME, WorkerRuntimeModule, platformEventRegistry } from '@einvoice/domain/infrastructure';
import { ReportingWorkerController } from './reporting-worker.controller';
import { MYINVOIS_HANDLERS, ReportingJobs, TokenRedis, myInvoisHandlers } from './reporting-worker.providers';

/** The reporting worker: MyInvois reporting (README "Malaysia (MyInvois)"); no other area reports to an authority yet. */
@Module({
  imports: [WorkerRuntimeModule.forWorker('reporting-worker', platformEventRegistry(areaEventPlugins()))],
  controllers: [ReportingWorkerController],
  providers: [
    TokenRedis,
    { provide: MYINVOIS_HANDLERS, inject: [WORKER_RUNTIME, TokenRedis], useFactory: myInvoisHandlers },
    ReportingJobs,
  ],
})
export class ReportingWorkerModule {}
