/**
 * Account-wide webhook endpoints (#48, README "Webhooks (account-wide)"): register, list, read, change, delete,
 * rotate the secret, send a sample event now, read the deliveries, re-send one. Rows of `webhook_subscriptions` with
 * scope `account`; the dispatcher delivers to them as to the seeds' supplier subscriptions.
 */
import { randomUUID } from 'node:crypto';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import {
  ACCOUNT_EVENT_TYPES,
  type AccountEventType,
  AppError,
  type FieldIssue,
  SecretBox,
  checkWebhookEvents,
  issue,
  loadWebhookConfig,
  newWebhookSecret,
  notFound,
  sampleAccountEvent,
  validationError,
} from '@einvoice/domain';
import {
  type EndpointChange,
  type EndpointRow,
  type EndpointView,
  WEBHOOK_ENDPOINT_ONCE_CONSTRAINT,
  countEndpoints,
  createWebhookQueue,
  deleteEndpoint,
  enqueueDeliveries,
  findEndpoint,
  insertEndpoint,
  listEndpointDeliveries,
  listEndpoints,
  notifyEndpointsChanged,
  recordSentDelivery,
  reopenEndpointDelivery,
  rotateEndpointSecret,
  sameEndpoint,
  sendWebhook,
  updateEndpoint,
  webhookQueueName,
} from '@einvoice/domain/infrastructure';
import { areas as registeredAreas, validateBody } from '@einvoice/areas';
import type { Queue } from 'bullmq';
import type { RequestContext } from '../http/request-context';
import { recordResponse } from '../idempotency/idempotency';
import { Connections } from '../infrastructure/infrastructure.module';
import { isUuid } from '../suppliers/supplier-lookup';
import { type Page, pageRequestIssues, toPage } from '../account/page';
import { CreateAccountWebhookBody, TestAccountWebhookBody, UpdateAccountWebhookBody } from './account-webhooks.dto';
import { assertWebhookUrlAllowed } from './webhook-url';

/** Account endpoints a tenant may have (README "Webhooks (account-wide)"); WEBHOOK_MAX_PER_TENANT overrides. */
const MAX_PER_TENANT = Number(process.env.WEBHOOK_MAX_PER_TENANT ?? 100);
/** Advisory lock class of webhook subscriptions (supplier-participants.ts lists the classes); keyed by the tenant here. */
const SUBSCRIPTIONS_LOCK = 7312012;
/** How long a rotated secret keeps signing next to the new one (Standard Webhooks' usual grace). */
const ROTATION_GRACE_SECONDS = 24 * 3600;
const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'];
const DELIVERY_PARAMETERS = ['status', 'event_type', 'limit', 'starting_after'];

type Answer<T> = { status: 'success'; message?: string; data: T };

function isOnceViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  return driverError?.code === '23505' && driverError.constraint === WEBHOOK_ENDPOINT_ONCE_CONSTRAINT;
}

/** The filters of a body, checked: `events[i]` of the catalogue, `areas[i]` registered codes, `supplier_ids[i]` UUIDs. */
function filterIssues(body: { events?: string[]; areas?: string[]; supplier_ids?: string[] }): FieldIssue[] {
  const codes = registeredAreas.map((a) => a.code);
  return [
    ...(body.events ? checkWebhookEvents(ACCOUNT_EVENT_TYPES, body.events) : []),
    ...(body.areas ?? []).flatMap((code, i) => (codes.includes(code) ? [] : [issue(`areas[${i}]`, 'FIELD.INVALID_VALUE', `areas[${i}] must be one of: ${codes.join(', ')}`)])),
    ...(body.supplier_ids ?? []).flatMap((id, i) => (isUuid(id) ? [] : [issue(`supplier_ids[${i}]`, 'FIELD.INVALID_FORMAT', `supplier_ids[${i}] is a supplier id onboarding answered (a UUID)`)])),
  ];
}

@Injectable()
export class AccountWebhooksService implements OnApplicationShutdown {
  private readonly config = loadWebhookConfig();
  // Read at construction: a production gateway without SECRETS_KEY refuses to start.
  private readonly secrets = SecretBox.fromEnv();
  private queue: Queue | undefined;

  constructor(private readonly connections: Connections) {}

  /** `POST /v1/webhooks`: the secret is in this answer only. */
  async create(body: unknown, context: RequestContext): Promise<Answer<EndpointView & { secret: string | null }>> {
    const dto = validateBody(CreateAccountWebhookBody, body);
    const issues = filterIssues(dto);
    if (issues.length > 0) throw validationError(issues, 'The webhook filters are invalid.');
    await this.assertOwnSuppliers(dto.supplier_ids, context);
    await assertWebhookUrlAllowed(dto.url, this.policy());
    const secret = newWebhookSecret();
    const tenantId = context.tenant.id;
    return this.connections.store.transaction(async (uow) => {
      // One registration per tenant at a time: the count and the insert see the same rows.
      await uow.query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [SUBSCRIPTIONS_LOCK, `account:${tenantId}`]);
      if ((await countEndpoints(uow, tenantId)) >= MAX_PER_TENANT) {
        throw new AppError('conflict', 'WEBHOOK.LIMIT_REACHED', `An account has at most ${MAX_PER_TENANT} webhook endpoints; delete one first.`);
      }
      const endpoint = {
        id: randomUUID(), tenantId, url: dto.url, events: dto.events ?? [], areas: dto.areas ?? null, supplierIds: dto.supplier_ids ?? null,
        secretSealed: this.secrets.seal(secret), description: dto.description ?? null,
      };
      // The unique index settles a race the lookup cannot (another gateway registering the same endpoint).
      const existing = await sameEndpoint(uow, tenantId, endpoint.url, endpoint.events, endpoint.areas, endpoint.supplierIds);
      if (existing) throw this.duplicate(existing);
      const view = await insertEndpoint(uow, endpoint).catch((error: unknown) => {
        throw isOnceViolation(error) ? this.duplicate() : error;
      });
      // The dispatchers keep the tenant's endpoints in memory: told at commit.
      await notifyEndpointsChanged(uow, tenantId);
      // The stored answer never holds the secret in clear: a replay answers `secret: null` (as the supplier webhooks').
      await recordResponse(uow, context.idempotency, 201, { status: 'success', message: 'Webhook registered; the secret was shown in the first answer only.', data: { ...view, secret: null } });
      return { status: 'success', message: 'Webhook registered. Store the secret now: it is not shown again.', data: { ...view, secret } };
    });
  }

  /** `GET /v1/webhooks`: newest first, cursor paging as `/v1/suppliers`. */
  async list(query: Readonly<Record<string, unknown>>, context: RequestContext): Promise<Page<EndpointView>> {
    const { page, issues } = pageRequestIssues(query);
    issues.push(...unknownParameters(query, ['limit', 'starting_after']));
    if (issues.length) throw validationError(issues, 'The list query is invalid.');
    const rows = await listEndpoints(this.connections.dataSource, context.tenant.id, page.limit, page.startingAfter);
    if (!rows) throw validationError([issue('starting_after', 'FIELD.INVALID_VALUE', 'starting_after is not one of your webhooks: send the id of the last webhook of the page before.')], 'The list query is invalid.');
    return toPage(rows, page.limit);
  }

  async get(id: string, context: RequestContext): Promise<Answer<EndpointView>> {
    return { status: 'success', data: viewOf(await this.endpoint(id, context)) };
  }

  /** `PATCH /v1/webhooks/{id}`: `null` filters are "all" again; the same url and filters as another endpoint: 409. */
  async update(id: string, body: unknown, context: RequestContext): Promise<Answer<EndpointView>> {
    const current = await this.endpoint(id, context);
    const dto = validateBody(UpdateAccountWebhookBody, body);
    const raw = body as Record<string, unknown>;
    const named = Object.keys(raw).filter((name) => ['url', 'events', 'areas', 'supplier_ids', 'description', 'status'].includes(name));
    if (named.length === 0) {
      throw validationError([issue('', 'FIELD.REQUIRED', 'Send at least one field to change: url, events, areas, supplier_ids, description, status.')]);
    }
    if (raw.url === null || raw.status === null) {
      throw validationError([issue(raw.url === null ? 'url' : 'status', 'FIELD.REQUIRED', 'url and status cannot be removed; leave them out to keep them.')]);
    }
    const issues = filterIssues(dto);
    if (issues.length > 0) throw validationError(issues, 'The webhook filters are invalid.');
    await this.assertOwnSuppliers(dto.supplier_ids, context);
    if (dto.url !== undefined) await assertWebhookUrlAllowed(dto.url, this.policy());
    const change: EndpointChange = {
      url: dto.url,
      events: raw.events === null ? [] : dto.events,
      areas: raw.areas === null ? null : dto.areas,
      supplierIds: raw.supplier_ids === null ? null : dto.supplier_ids,
      description: raw.description === null ? null : dto.description,
      enabled: dto.status === undefined ? undefined : dto.status === 'enabled',
    };
    const changed = await this.connections.store.transaction(async (uow) => {
      const url = change.url ?? current.url;
      const events = change.events ?? current.events ?? [];
      const areas = change.areas === undefined ? current.areas : change.areas;
      const supplierIds = change.supplierIds === undefined ? current.supplier_ids : change.supplierIds;
      const existing = await sameEndpoint(uow, context.tenant.id, url, events, areas, supplierIds);
      if (existing && existing !== current.id) throw this.duplicate(existing);
      const updated = await updateEndpoint(uow, context.tenant.id, current.id, change).catch((error: unknown) => {
        throw isOnceViolation(error) ? this.duplicate() : error;
      });
      await notifyEndpointsChanged(uow, context.tenant.id);
      return updated;
    });
    if (!changed) throw this.notFound(id);
    return { status: 'success', data: changed };
  }

  /** `DELETE /v1/webhooks/{id}`: soft delete; its pending deliveries stop at their next attempt. */
  async remove(id: string, context: RequestContext): Promise<void> {
    if (!isUuid(id)) throw this.notFound(id);
    await this.connections.store.transaction(async (uow) => {
      if (!(await deleteEndpoint(uow, context.tenant.id, id))) throw this.notFound(id);
      await notifyEndpointsChanged(uow, context.tenant.id);
    });
  }

  /** `POST /v1/webhooks/{id}/rotate-secret`: both secrets sign for 24 h, then only the new one. */
  async rotateSecret(id: string, context: RequestContext): Promise<Answer<{ id: string; secret: string | null; previous_secret_expires_at: string }>> {
    const endpoint = await this.endpoint(id, context);
    const secret = newWebhookSecret();
    return this.connections.store.transaction(async (uow) => {
      const rotated = await rotateEndpointSecret(uow, context.tenant.id, endpoint.id, this.secrets.seal(secret), ROTATION_GRACE_SECONDS);
      if (!rotated) throw this.notFound(id);
      const data = { id: endpoint.id, previous_secret_expires_at: rotated.previous_secret_expires_at };
      await recordResponse(uow, context.idempotency, 200, { status: 'success', message: 'Secret rotated; the new secret was shown in the first answer only.', data: { ...data, secret: null } });
      return { status: 'success', message: 'Secret rotated. Store the new secret now: it is not shown again.', data: { ...data, secret } };
    });
  }

  /**
   * `POST /v1/webhooks/{id}/test`: a sample event of the type, sent now, signed with the endpoint's secret(s),
   * recorded as a delivery (`delivered`, or `failed`: a probe is not retried, a resend is), and its attempt answered.
   */
  async test(id: string, body: unknown, context: RequestContext) {
    const endpoint = await this.endpoint(id, context);
    const { type } = validateBody(TestAccountWebhookBody, body);
    // Its own id (its own `webhook-id`) and now as its time: each test send is an event of its own.
    const event = sampleAccountEvent(type as AccountEventType, { id: randomUUID(), created_at: new Date().toISOString() });
    const payload = JSON.stringify(event);
    // During a rotation both secrets sign (one `v1,` signature each), as the dispatcher's deliveries are.
    const secrets = [endpoint.secret_sealed, ...(endpoint.previous_secret_sealed ? [endpoint.previous_secret_sealed] : [])].map((sealed) => this.secrets.open(sealed));
    const result = await sendWebhook({
      url: endpoint.url,
      secrets,
      id: event.id,
      body: payload,
      policy: this.policy(),
      timeoutMs: this.config.timeoutMs,
    });
    const deliveryId = randomUUID();
    return this.connections.store.transaction(async (uow) => {
      const attempt = await recordSentDelivery(uow, {
        id: deliveryId, endpointId: endpoint.id, eventId: event.id, eventType: event.type, payload, result,
      });
      const answer = {
        status: 'success' as const,
        data: { delivery_id: deliveryId, event_id: event.id, event_type: event.type, acknowledged: result.acknowledged, ...attempt },
      };
      // A retry with the same key answers this attempt again and sends nothing.
      await recordResponse(uow, context.idempotency, 200, answer);
      return answer;
    });
  }

  /** `GET /v1/webhooks/{id}/deliveries`: newest first, each with its request body and every attempt. */
  async deliveries(id: string, query: Readonly<Record<string, unknown>>, context: RequestContext) {
    const endpoint = await this.endpoint(id, context);
    const { page, issues } = pageRequestIssues(query);
    issues.push(...unknownParameters(query, DELIVERY_PARAMETERS));
    const status = query.status;
    if (status !== undefined && !DELIVERY_STATUSES.includes(status as string)) {
      issues.push(issue('status', 'FIELD.INVALID_VALUE', `status is one of ${DELIVERY_STATUSES.join(', ')}; it is ${JSON.stringify(status)}.`));
    }
    const eventType = query.event_type;
    if (eventType !== undefined && !(ACCOUNT_EVENT_TYPES as readonly unknown[]).includes(eventType)) {
      issues.push(issue('event_type', 'FIELD.INVALID_VALUE', `event_type is one of ${ACCOUNT_EVENT_TYPES.join(', ')}; it is ${JSON.stringify(eventType)}.`));
    }
    if (issues.length) throw validationError(issues, 'The list query is invalid.');
    const rows = await listEndpointDeliveries(this.connections.dataSource, endpoint.id, {
      status: status as string | undefined, eventType: eventType as string | undefined, limit: page.limit, startingAfter: page.startingAfter,
    });
    if (!rows) throw validationError([issue('starting_after', 'FIELD.INVALID_VALUE', 'starting_after is not a delivery of this webhook: send the id of the last delivery of the page before.')], 'The list query is invalid.');
    return toPage(rows, page.limit);
  }

  /**
   * `POST /v1/webhooks/{id}/deliveries/{delivery_id}/resend`, in any state: the same delivery back to `pending`
   * with a fresh retry schedule, sent now by the dispatcher under the same `webhook-id` (the event's id).
   */
  async resend(id: string, deliveryId: string, context: RequestContext) {
    const endpoint = await this.endpoint(id, context);
    const response = { status: 'success' as const, data: { id: deliveryId, status: 'pending' as const } };
    await this.connections.store.transaction(async (uow) => {
      const before = isUuid(deliveryId) ? await reopenEndpointDelivery(uow, endpoint.id, deliveryId) : undefined;
      if (!before) throw notFound('WEBHOOK.DELIVERY_NOT_FOUND', `No delivery ${deliveryId} for this webhook.`);
      await recordResponse(uow, context.idempotency, 202, response);
    });
    // After commit. A job of this delivery waiting for its retry runs now; if Redis is down, the sweeper enqueues it.
    await this.sendNow(deliveryId).catch(() => undefined);
    return response;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.queue?.close();
  }

  private async sendNow(deliveryId: string): Promise<void> {
    const queue = this.deliveryQueue();
    const job = await queue.getJob(deliveryId);
    if (job && (await job.isDelayed())) await job.promote();
    else await enqueueDeliveries(queue, [deliveryId], this.config.schedule);
  }

  private deliveryQueue(): Queue {
    this.queue ??= createWebhookQueue(this.connections.config.redisUrl, webhookQueueName(this.connections.config.kafkaPrefix));
    return this.queue;
  }

  private policy() {
    return { allowLoopback: this.config.allowLoopback };
  }

  /** The caller's live endpoint; another tenant's, a deleted one or a supplier subscription is a 404 alike. */
  private async endpoint(id: string, context: RequestContext): Promise<EndpointRow> {
    const row = isUuid(id) ? await findEndpoint(this.connections.dataSource, context.tenant.id, id) : undefined;
    if (!row) throw this.notFound(id);
    return row;
  }

  /**
   * Every id of `supplier_ids` is a supplier of the caller: a 400 at the id otherwise (a body's field, not the
   * resource of the path), the same for another tenant's supplier as for none, so nothing is learnt about others.
   */
  private async assertOwnSuppliers(ids: readonly string[] | undefined, context: RequestContext): Promise<void> {
    if (!ids?.length) return;
    const rows: Array<{ id: string }> = await this.connections.dataSource.query(`SELECT id FROM suppliers WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [context.tenant.id, ids]);
    const own = new Set(rows.map((r) => r.id));
    const strangers = ids.flatMap((id, i) => (own.has(id.toLowerCase()) ? [] : [issue(`supplier_ids[${i}]`, 'FIELD.INVALID_VALUE', `supplier_ids[${i}] is not one of your suppliers`)]));
    if (strangers.length > 0) throw validationError(strangers, 'supplier_ids names suppliers that are not yours.');
  }

  private notFound(id: string): AppError {
    return notFound('WEBHOOK.NOT_FOUND', `No webhook ${id} for your account.`);
  }

  private duplicate(existing?: string): AppError {
    return new AppError('conflict', 'WEBHOOK.DUPLICATE', 'Your account has a webhook with this url and these filters already.', {
      issues: [issue('url', 'WEBHOOK.DUPLICATE', 'The same url with the same events, areas and suppliers is registered once; change that one instead.')],
      ...(existing ? { details: { data: { webhook_id: existing } } } : {}),
    });
  }
}

/** An endpoint as the API shows it: without its sealed secrets. */
function viewOf({ secret_sealed: _secret, previous_secret_sealed: _previous, ...view }: EndpointRow): EndpointView {
  return view;
}

function unknownParameters(query: Readonly<Record<string, unknown>>, known: readonly string[]): FieldIssue[] {
  return Object.keys(query)
    .filter((name) => !known.includes(name))
    .map((name) => issue(name, 'FIELD.INVALID_VALUE', `${name} is not a parameter of this list; it takes ${known.join(', ')}.`));
}
