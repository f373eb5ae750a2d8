import { Body, Controller, Delete, Get, HttpCode, Param, Post, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, areas, supplierHeaderOf } from '@einvoice/areas';
import { Ctx } from '../http/request-context';
import { SeedHeader } from '../http/seed-headers';
import type { RequestContext } from '../http/request-context';
import { WebhooksService } from './webhooks.service';
import { errorResponse, schemaRef } from '../http/openapi';
import { idempotencyKeyHeader } from '../http/openapi-idempotency';
import {
  createWebhookExamples,
  createdWebhookSchema,
  deletedWebhookSchema,
  deliveriesSchema,
  deliveryIdParam,
  pingSchema,
  resentSchema,
  supplierHeaderParam,
  webhookIdParam,
  webhookListSchema,
} from './webhooks.openapi';

/** Where an area's webhook routes live: `area` is the suppliers' area, `path` the routes' prefix. */
interface WebhookRoutes {
  readonly area: string;
  readonly path: string;
  readonly tag: string;
  readonly className: string;
}

/** Every area of the registry has its webhook routes under its own prefix. */
const routes: readonly WebhookRoutes[] = areas
  .filter((area) => area.webhookEvents.length > 0)
  .map((area) => ({
  area: area.code,
  path: `${area.routePrefix}/webhooks`,
  tag: `${area.name} (/${area.routePrefix}) webhooks`,
  className: `${area.code.toUpperCase()}WebhooksController`,
}));

/** Webhook subscriptions beside each area's routes (README "Webhooks"): one controller per area, one service. */
function webhooksController({ area, path, tag, className }: WebhookRoutes): Type<unknown> {
  const supplierHeader = supplierHeaderOf(areaOf(area));
  const events = areaOf(area).webhookEvents;
  @ApiTags(tag)
  @ApiSecurity('x-svc-auth-key')
  @ApiHeader(supplierHeaderParam(supplierHeader))
  @ApiResponse({ status: 400, ...errorResponse })
  @ApiResponse({ status: 401, ...errorResponse })
  @ApiResponse({ status: 404, ...errorResponse })
  @Controller(path)
  class WebhooksController {
    constructor(readonly service: WebhooksService) {}

    @Post()
    @HttpCode(201)
    @ApiOperation({
      summary: 'Register a target URL for the supplier\'s events; the signing secret is in this answer only.',
      description:
        'From now on each event of these names is POSTed to the URL, signed (Standard Webhooks: `webhook-id`, `webhook-timestamp`, ' +
        '`webhook-signature`) with the secret of this answer, and retried on a schedule until it answers 2xx or the schedule runs out ' +
        '(the delivery is then `failed`, and can be re-sent). 409 `WEBHOOK.DUPLICATE`: ' +
        'this URL with these events is registered already; 409 `WEBHOOK.LIMIT_REACHED`: the supplier has 10 webhooks already (WEBHOOK_MAX_PER_SUPPLIER).',
    })
    @ApiHeader(idempotencyKeyHeader('A replay answers `secret: null`: the stored answer never holds the secret.'))
    @ApiBody({ ...schemaRef('CreateWebhookBody'), examples: createWebhookExamples(events) })
    @ApiResponse({ status: 201, description: 'Registered, with its secret.', schema: createdWebhookSchema(events) })
    @ApiResponse({ status: 409, ...errorResponse })
    create(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext) {
      return this.service.create(area, supplier, body, context);
    }

    @Get()
    @ApiOperation({ summary: 'The supplier\'s webhooks (never their secrets).', description: 'Each with its status: `disabled` when its endpoint failed for a whole retry window (a ping answered 2xx enables it again).' })
    @ApiResponse({ status: 200, description: 'The supplier\'s webhooks.', schema: webhookListSchema(events) })
    list(@SeedHeader(supplierHeader) supplier: string | undefined, @Ctx() context: RequestContext) {
      return this.service.list(area, supplier, context);
    }

    @Delete(':id')
    @ApiOperation({ summary: 'Delete a webhook; pending deliveries to it stop.', description: 'Nothing more is sent to it, retries included. 404 `WEBHOOK.NOT_FOUND`: no such webhook of this supplier.' })
    @ApiParam(webhookIdParam)
    @ApiResponse({ status: 200, description: 'Deleted.', schema: deletedWebhookSchema })
    remove(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
      return this.service.remove(area, supplier, id, context);
    }

    @Get(':id/deliveries')
    @ApiOperation({
      summary: 'Deliveries of a webhook, newest first, each with its attempts (status code, duration, error).',
      description: 'The last 100: what was sent, when, and what your endpoint answered at each attempt. 404 `WEBHOOK.NOT_FOUND`: no such webhook of this supplier.',
    })
    @ApiParam(webhookIdParam)
    @ApiResponse({ status: 200, description: 'Its deliveries.', schema: deliveriesSchema })
    deliveries(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
      return this.service.deliveries(area, supplier, id, context);
    }

    @Post(':id/deliveries/:deliveryId/resend')
    @HttpCode(202)
    @ApiOperation({
      summary: 'Send a failed (dead-lettered) delivery again, with a fresh retry schedule.',
      description:
        'The same event (same `webhook-id`) is sent again, retried as a new delivery would be. 404 `WEBHOOK.NOT_FOUND` / ' +
        '`WEBHOOK.DELIVERY_NOT_FOUND`; 409 `WEBHOOK.DELIVERY_NOT_FAILED`: it is pending or delivered.',
    })
    @ApiParam(webhookIdParam)
    @ApiParam(deliveryIdParam)
    @ApiHeader(idempotencyKeyHeader())
    @ApiResponse({ status: 202, description: 'Queued again.', schema: resentSchema })
    @ApiResponse({ status: 409, ...errorResponse })
    resend(
      @SeedHeader(supplierHeader) supplier: string | undefined,
      @Param('id') id: string,
      @Param('deliveryId') deliveryId: string,
      @Ctx() context: RequestContext,
    ) {
      return this.service.resend(area, supplier, id, deliveryId, context);
    }

    @Post(':id/ping')
    @HttpCode(200)
    @ApiOperation({
      summary: 'Send a signed {"Event":"Ping"} now and answer with the attempt. Records nothing; Idempotency-Key is ignored.',
      description: 'To test your endpoint and its signature check. A 2xx answer enables a disabled webhook again. 404 `WEBHOOK.NOT_FOUND`: no such webhook of this supplier.',
    })
    @ApiParam(webhookIdParam)
    @ApiResponse({ status: 200, description: 'The attempt.', schema: pingSchema })
    ping(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
      return this.service.ping(area, supplier, id, context);
    }
  }
  Object.defineProperty(WebhooksController, 'name', { value: className });
  return WebhooksController;
}

export const webhooksControllers = routes.map(webhooksController);
