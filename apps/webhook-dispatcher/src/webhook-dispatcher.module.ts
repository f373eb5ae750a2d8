import { Controller, Inject, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type RecordedEvent, myInvoisPortalUrl } from '@einvoice/domain';
import {
  type EventHandler,
  type MessageContext,
  WORKER_RUNTIME,
  type WorkerRuntime,
  WorkerRuntimeModule,
} from '@einvoice/domain/infrastructure';
import { createDeliveryRecorder } from './record-deliveries';
import { WebhookQueue, WebhookSender, WebhookSettings, WebhookSweeper, log } from './webhook-dispatcher.providers';

/**
 * The events that have webhooks: DocumentReceived (PeppolReceived) and the MyInvois lifecycle
 * (libs/domain/src/webhook/myinvois-body.ts names the webhook of each). Each is recorded as one
 * delivery per matching subscription, then enqueued (record-deliveries.ts).
 */
@Controller()
export class WebhookDispatcherController {
  private readonly record: EventHandler;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, queue: WebhookQueue, settings: WebhookSettings) {
    this.record = createDeliveryRecorder({
      store: runtime.store,
      queue: queue.queue,
      groupId: runtime.groupId,
      schedule: settings.config.schedule,
      myInvoisPortalUrl: myInvoisPortalUrl(),
      log,
    });
  }

  @EventPattern([
    'DocumentReceived',
    'MyInvoisSubmissionAccepted',
    'MyInvoisSubmissionRejected',
    'MyInvoisDocumentValidated',
    'MyInvoisDocumentInvalidated',
    'MyInvoisDocumentCancelled',
    'MyInvoisDocumentRejectedByBuyer',
  ])
  webhookEvent(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.record(event, ctx);
  }
}

const runtime = WorkerRuntimeModule.forWorker('webhook-dispatcher');

/** The queue between the runtime and the root module: Nest closes it after the sweeper, before the pool. */
@Module({ imports: [runtime], providers: [WebhookQueue], exports: [WebhookQueue] })
export class WebhookQueueModule {}

/**
 * The webhook dispatcher (README "Webhooks"): a Kafka consumer records deliveries, a BullMQ worker in
 * the same process sends them, a sweeper re-enqueues what a crash left behind.
 */
@Module({
  imports: [runtime, WebhookQueueModule],
  controllers: [WebhookDispatcherController],
  providers: [WebhookSettings, WebhookSender, WebhookSweeper],
})
export class WebhookDispatcherModule {}
