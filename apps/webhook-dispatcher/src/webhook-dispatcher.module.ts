import { Controller, Inject, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import type { RecordedEvent } from '@einvoice/domain';
import { areaEventPlugins, webhookSources } from '@einvoice/areas';
import {
  type EventHandler,
  type MessageContext,
  WORKER_RUNTIME,
  type WorkerRuntime,
  WorkerRuntimeModule,
  platformEventRegistry,
} from '@einvoice/domain/infrastructure';
import { createDeliveryRecorder } from './record-deliveries';
import { AccountWebhooks, WebhookFirstAttempts, WebhookQueue, WebhookSender, WebhookSettings, WebhookSweeper, log } from './webhook-dispatcher.providers';

/** The areas' webhook sources by event type (area registry `webhooks`, and `reportWebhooks` routed by the document's area). */
const sources = webhookSources();

/**
 * The events that have webhooks: the platform's DocumentReceived (PeppolReceived) and those the
 * areas declare, of their own or of their documents' reports (e.g. the MyInvois lifecycle,
 * libs/areas/src/myinvois/webhooks.ts). Each is recorded
 * as one delivery per matching subscription, then enqueued (record-deliveries.ts).
 */
@Controller()
export class WebhookDispatcherController {
  private readonly record: EventHandler;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime, queue: WebhookQueue, settings: WebhookSettings, firstAttempts: WebhookFirstAttempts) {
    this.record = createDeliveryRecorder({
      store: runtime.store,
      queue: queue.queue,
      firstAttempts: firstAttempts.attempts,
      groupId: runtime.groupId,
      schedule: settings.config.schedule,
      sources,
      log,
    });
  }

  @EventPattern(['DocumentReceived', ...sources.keys()])
  webhookEvent(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.record(event, ctx);
  }
}

const runtime = WorkerRuntimeModule.forWorker('webhook-dispatcher', platformEventRegistry(areaEventPlugins()));

/** The queue between the runtime and the root module: Nest closes it after the sweeper, before the pool. */
@Module({ imports: [runtime], providers: [WebhookQueue], exports: [WebhookQueue] })
export class WebhookQueueModule {}

/**
 * The webhook dispatcher (README "Webhooks"): a Kafka consumer records the supplier subscriptions' deliveries,
 * a tail of `account_events` the account endpoints' (#48), first attempts and two BullMQ lanes in the same
 * process send them, a sweeper re-enqueues what a crash left behind.
 */
@Module({
  imports: [runtime, WebhookQueueModule],
  controllers: [WebhookDispatcherController],
  providers: [WebhookSettings, WebhookSender, WebhookFirstAttempts, WebhookSweeper, AccountWebhooks],
})
export class WebhookDispatcherModule {}
