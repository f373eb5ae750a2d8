import { areaEventPlugins, areas } from '@einvoice/areas';
import { Controller, Inject, Module } from '@nestjs/common';
import { Ctx, EventPattern, Payload } from '@nestjs/microservices';
import { type RecordedEvent, createLogger } from '@einvoice/domain';
import {
  type EventHandler,
  type MessageContext,
  WORKER_RUNTIME,
  type WorkerRuntime,
  WorkerRuntimeModule,
  deadLettered,
  platformEventRegistry,
} from '@einvoice/domain/infrastructure';
import { accessPointFromEnv } from './access-point/from-env';
import { createDeadLetteredDeliveryHandler } from './dead-lettered-delivery';
import { createDeliveryHandler } from './deliver-document';
import { createTransmissionHandler } from './send-transmission';
import { createSmlHandler } from './sml/drive-sml';
import { smlConnector, smlSettings } from './sml/sml-settings';

export const log = createLogger('delivery-worker');

/**
 * Submitted documents, delivered over Peppol (sandbox access point by default; the AS4 engine in
 * PEPPOL_MODE=live, which also sends the access point's own messages: an MLS back), and participants'
 * SML requests, driven at the SML (sandbox SML by default, PEPPOL_SML: sml/sml-settings.ts). Other events of the documents topic
 * (MyInvois submissions, whose bulk is ~16 MB) are passed over from their headers, never decoded.
 */
@Controller()
export class DeliveryWorkerController {
  private readonly deliver: EventHandler;
  private readonly driveSml: EventHandler;
  private readonly recordDeadLetter: EventHandler;
  private readonly transmit?: EventHandler;

  constructor(@Inject(WORKER_RUNTIME) runtime: WorkerRuntime) {
    const { store, dataSource, groupId } = runtime;
    const { accessPoint, engine } = accessPointFromEnv(store);
    if (engine) this.transmit = createTransmissionHandler({ store, engine, groupId, log });
    this.deliver = createDeliveryHandler({
      store,
      accessPoint,
      groupId,
      log,
      receivedReports: new Map(
        areas.flatMap((area) => {
          const payload = area.exchange?.receivedReport;
          return payload ? [[area.code, { ruleSetId: area.ruleSetId, payload }] as const] : [];
        }),
      ),
    });
    this.driveSml = createSmlHandler({ store, sml: smlConnector(smlSettings(), dataSource), groupId, log });
    // The dead-letter group (worker-app.ts `deadLetters`): `${groupId}.dead-letter`.
    this.recordDeadLetter = createDeadLetteredDeliveryHandler({ store, groupId: `${groupId}.dead-letter`, deliveryGroupId: groupId, log });
  }

  @EventPattern(deadLettered('DocumentSubmitted'))
  deliveryDeadLettered(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.recordDeadLetter(event, ctx);
  }

  @EventPattern('DocumentSubmitted')
  documentSubmitted(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.deliver(event, ctx);
  }

  /** Only live Peppol requests them (the gateway's inbound route, answering what the engine received). */
  @EventPattern('PeppolTransmissionRequested')
  async transmissionRequested(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    if (!this.transmit) {
      log('warn', 'peppol message requested while PEPPOL_MODE is not live: not sent', { streamId: event.streamId });
      return;
    }
    await this.transmit(event, ctx);
  }

  @EventPattern(['SmlActivationRequested', 'SmlDeactivationRequested'])
  smlChangeRequested(@Payload() event: RecordedEvent, @Ctx() ctx: MessageContext): Promise<void> {
    return this.driveSml(event, ctx);
  }
}

/**
 * The delivery worker: its controller on the worker runtime (the access point and SML are stateless over its pool).
 * 32 deliveries at once unless KAFKA_HANDLER_CONCURRENCY says otherwise (issue 11): each waits on its
 * transmission and two commits (the receiving access point's, then its outcome's), 9–13 ms under the
 * end-to-end load, so 16 at once delivered at most ~1,300–1,700 a second and fell behind a gateway
 * taking ~1,700 (the backlog grew to 10,380 in 60 s; with 32 it stayed under 330). They share the
 * pool of 16 handlers' connections (runtime.ts workerPoolSize): none holds one while it waits.
 */
@Module({ imports: [WorkerRuntimeModule.forWorker('delivery-worker', platformEventRegistry(areaEventPlugins()), { handlerConcurrency: 32 })], controllers: [DeliveryWorkerController] })
export class DeliveryWorkerModule {}
