import { randomUUID } from 'node:crypto';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import {
  AppError,
  SecretBox,
  issue,
  checkWebhookEvents,
  loadWebhookConfig,
  newWebhookSecret,
  notFound,
  pingBody,
  validationError,
} from '@einvoice/domain';
import {
  WEBHOOK_ONCE_CONSTRAINT,
  countSubscriptions,
  createWebhookQueue,
  deleteSubscription,
  enableSubscription,
  enqueueDeliveries,
  findSubscription,
  insertSubscription,
  listDeliveries,
  listSubscriptions,
  reopenDelivery,
  sendWebhook,
  webhookQueueName,
} from '@einvoice/domain/infrastructure';
import { areaOf, validateBody } from '@einvoice/areas';
import type { Queue } from 'bullmq';
import type { RequestContext } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import { Connections } from '../infrastructure/infrastructure.module';
import { SupplierCache, isUuid, type SupplierRecord } from '../suppliers/supplier-lookup';
import { CreateWebhookBody } from './webhooks.dto';
import { assertWebhookUrlAllowed } from './webhook-url';

/** The value of the area's supplier header, in either form (`@SeedHeader`). */
type SupplierHeader = string | undefined;

/** Subscriptions a supplier may have (README "Webhooks"); WEBHOOK_MAX_PER_SUPPLIER overrides. */
const MAX_PER_SUPPLIER = Number(process.env.WEBHOOK_MAX_PER_SUPPLIER ?? 10);
/** Advisory lock class of a supplier's subscriptions while one is added (namespaces: supplier-participants.ts). */
const SUBSCRIPTIONS_LOCK = 7312012;

function isOnceViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && driverError.constraint === WEBHOOK_ONCE_CONSTRAINT;
}

/** Webhook subscriptions of a supplier: register, list, delete, deliveries, re-send, ping. */
@Injectable()
export class WebhooksService implements OnApplicationShutdown {
  private readonly suppliers = new SupplierCache();
  private readonly config = loadWebhookConfig();
  // Read at construction: a production gateway without SECRETS_KEY refuses to start.
  private readonly secrets = SecretBox.fromEnv();
  private queue: Queue | undefined;

  constructor(private readonly connections: Connections) {}

  async create(area: string, header: SupplierHeader, body: unknown, context: RequestContext) {
    const supplier = await this.supplier(area, header, context);
    const dto = validateBody(CreateWebhookBody, body);
    // Which names exist depends on the area (registry: a Peppol area has no MyInvois lifecycle).
    const unknownEvents = checkWebhookEvents(areaOf(area).webhookEvents, dto.events);
    if (unknownEvents.length > 0) throw validationError(unknownEvents, 'Unknown webhook event names.');
    await assertWebhookUrlAllowed(dto.url, { allowLoopback: this.config.allowLoopback });
    const secret = newWebhookSecret();
    const id = randomUUID();
    return this.connections.store.transaction(async (uow) => {
      // One registration per supplier at a time: the count and the insert see the same rows.
      await uow.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [SUBSCRIPTIONS_LOCK, supplier.id]);
      if ((await countSubscriptions(uow, supplier.id)) >= MAX_PER_SUPPLIER) {
        throw new AppError('conflict', 'WEBHOOK.LIMIT_REACHED', `A supplier has at most ${MAX_PER_SUPPLIER} webhook subscriptions; delete one first.`);
      }
      const view = await insertSubscription(uow, {
        id,
        tenantId: context.tenant.id,
        supplierId: supplier.id,
        area,
        url: dto.url,
        events: dto.events,
        secretSealed: this.secrets.seal(secret),
        description: dto.description ?? null,
      }).catch((error: unknown) => {
        if (!isOnceViolation(error)) throw error;
        throw new AppError('conflict', 'WEBHOOK.DUPLICATE', 'This supplier already has a subscription of this URL to these events.', {
          issues: [issue('url', 'WEBHOOK.DUPLICATE', 'The same url with the same events is registered once; list the subscriptions to find it.')],
        });
      });
      // The secret is shown once: a replay with the same Idempotency-Key answers without it,
      // since the stored answer must not hold it in clear (README "Webhooks").
      await recordResponse(uow, context.idempotency, 201, { status: 'success', message: 'Webhook registered; the secret was shown in the first answer only.', data: { ...view, secret: null } });
      return { status: 'success', message: 'Webhook registered. Store the secret now: it is not shown again.', data: { ...view, secret } };
    });
  }

  async list(area: string, header: SupplierHeader, context: RequestContext) {
    const supplier = await this.supplier(area, header, context);
    return { status: 'success', data: await listSubscriptions(this.connections.dataSource, context.tenant.id, supplier.id) };
  }

  async remove(area: string, header: SupplierHeader, id: string, context: RequestContext) {
    const supplier = await this.supplier(area, header, context);
    if (!isUuid(id) || !(await deleteSubscription(this.connections.dataSource, context.tenant.id, supplier.id, id))) throw this.notFound(id);
    return { status: 'success', data: { id, deleted: true } };
  }

  async deliveries(area: string, header: SupplierHeader, id: string, context: RequestContext) {
    const subscription = await this.subscription(area, header, id, context);
    return { status: 'success', data: await listDeliveries(this.connections.dataSource, subscription.id) };
  }

  async resend(area: string, header: SupplierHeader, id: string, deliveryId: string, context: RequestContext) {
    const subscription = await this.subscription(area, header, id, context);
    const response = { status: 'success', data: { id: deliveryId, status: 'pending' } };
    await this.connections.store.transaction(async (uow) => {
      const outcome = isUuid(deliveryId) ? await reopenDelivery(uow, subscription.id, deliveryId) : 'not_found';
      if (outcome === 'not_found') throw notFound('WEBHOOK.DELIVERY_NOT_FOUND', `No delivery ${deliveryId} for this webhook.`);
      if (outcome === 'not_failed') {
        throw new AppError('conflict', 'WEBHOOK.DELIVERY_NOT_FAILED', 'Only a failed delivery can be re-sent; this one is pending or delivered.');
      }
      await recordResponse(uow, context.idempotency, 202, response);
    });
    // After commit; if Redis is down now, the dispatcher's sweeper enqueues the pending delivery.
    await enqueueDeliveries(this.deliveryQueue(), [deliveryId], this.config.schedule).catch(() => undefined);
    return response;
  }

  /** Sends a signed `{"Event":"Ping",...}` now and answers with the attempt; records nothing. */
  async ping(area: string, header: SupplierHeader, id: string, context: RequestContext) {
    const subscription = await this.subscription(area, header, id, context);
    const result = await sendWebhook({
      url: subscription.url,
      secret: this.secrets.open(subscription.secret_sealed),
      id: randomUUID(),
      body: pingBody(subscription.id, new Date().toISOString()),
      policy: { allowLoopback: this.config.allowLoopback },
      timeoutMs: this.config.timeoutMs,
    });
    // A disabled subscription whose endpoint answers again is delivered to again.
    if (result.acknowledged) await enableSubscription(this.connections.dataSource, subscription.id);
    return {
      status: 'success',
      data: { acknowledged: result.acknowledged, status_code: result.statusCode, duration_ms: result.durationMs, error: result.error },
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
  }

  private deliveryQueue(): Queue {
    this.queue ??= createWebhookQueue(this.connections.config.redisUrl, webhookQueueName(this.connections.config.kafkaPrefix));
    return this.queue;
  }

  private supplier(area: string, header: SupplierHeader, context: RequestContext): Promise<SupplierRecord> {
    return this.suppliers.find(this.connections.dataSource, context.tenant.id, area, header);
  }

  private async subscription(area: string, header: SupplierHeader, id: string, context: RequestContext) {
    const supplier = await this.supplier(area, header, context);
    const row = isUuid(id) ? await findSubscription(this.connections.dataSource, context.tenant.id, supplier.id, id) : undefined;
    if (!row) throw this.notFound(id);
    return row;
  }

  private notFound(id: string): AppError {
    return notFound('WEBHOOK.NOT_FOUND', `No webhook ${id} for this supplier.`);
  }
}
