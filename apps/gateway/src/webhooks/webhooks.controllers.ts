import { Body, Controller, Delete, Get, HttpCode, Param, Post, Type } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { areaOf, areas, supplierHeaderOf } from '@einvoice/areas';
import { Ctx } from '../http/request-context';
import { SeedHeader } from '../http/seed-headers';
import type { RequestContext } from '../http/request-context';
import { WebhooksService } from './webhooks.service';
import { errorResponse } from '../http/openapi';

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
  @ApiTags(tag)
  @ApiSecurity('x-svc-auth-key')
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 400, ...errorResponse })
  @ApiResponse({ status: 401, ...errorResponse })
  @ApiResponse({ status: 404, ...errorResponse })
  @Controller(path)
  class WebhooksController {
    constructor(readonly service: WebhooksService) {}

    @Post()
    @HttpCode(201)
    @ApiOperation({ summary: 'Register a target URL for the supplier\'s events; the signing secret is in this answer only.' })
    @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'A replay answers without the secret.' })
    @ApiBody({ schema: { $ref: '#/components/schemas/CreateWebhookBody' } })
    @ApiResponse({ status: 201, description: '`{status, message, data:{id, url, events, description, created_at, secret}}`' })
    create(@SeedHeader(supplierHeader) supplier: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext) {
      return this.service.create(area, supplier, body, context);
    }

    @Get()
    @ApiOperation({ summary: 'The supplier\'s webhooks (never their secrets).' })
    list(@SeedHeader(supplierHeader) supplier: string | undefined, @Ctx() context: RequestContext) {
      return this.service.list(area, supplier, context);
    }

    @Delete(':id')
    @ApiOperation({ summary: 'Delete a webhook; pending deliveries to it stop.' })
    remove(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
      return this.service.remove(area, supplier, id, context);
    }

    @Get(':id/deliveries')
    @ApiOperation({ summary: 'Deliveries of a webhook, newest first, each with its attempts (status code, duration, error).' })
    deliveries(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
      return this.service.deliveries(area, supplier, id, context);
    }

    @Post(':id/deliveries/:deliveryId/resend')
    @HttpCode(202)
    @ApiOperation({ summary: 'Send a failed (dead-lettered) delivery again, with a fresh retry schedule.' })
    @ApiHeader({ name: 'Idempotency-Key', required: false })
    @ApiResponse({ status: 202, description: '`{status, data:{id, status:"pending"}}`' })
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
    @ApiOperation({ summary: 'Send a signed {"Event":"Ping"} now and answer with the attempt. Records nothing; Idempotency-Key is ignored.' })
    @ApiResponse({ status: 200, description: '`{status, data:{acknowledged, status_code, duration_ms, error}}`' })
    ping(@SeedHeader(supplierHeader) supplier: string | undefined, @Param('id') id: string, @Ctx() context: RequestContext) {
      return this.service.ping(area, supplier, id, context);
    }
  }
  Object.defineProperty(WebhooksController, 'name', { value: className });
  return WebhooksController;
}

export const webhooksControllers = routes.map(webhooksController);
