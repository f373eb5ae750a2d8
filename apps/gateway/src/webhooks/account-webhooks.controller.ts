import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { errorResponse, schemaRef } from '../http/openapi';
import { idempotencyKeyHeader } from '../http/openapi-idempotency';
import { Ctx, type RequestContext } from '../http/request-context';
import {
  createEndpointExamples,
  createdEndpointSchema,
  deliveriesAfterQuery,
  deliveryIdParam,
  deliveryStatusQuery,
  endpointDeliveriesSchema,
  endpointIdParam,
  endpointListSchema,
  endpointResentSchema,
  endpointSchema,
  endpointsAfterQuery,
  eventTypeQuery,
  limitQuery,
  rotatedSchema,
  testEndpointExamples,
  testSentSchema,
  updateEndpointExamples,
} from './account-webhooks.openapi';
import { AccountWebhooksService } from './account-webhooks.service';

/** Account-wide webhook endpoints (#48, README "Webhooks (account-wide)"): every area's events, one endpoint. */
@ApiTags('Account (/v1)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('v1/webhooks')
export class AccountWebhooksController {
  constructor(private readonly service: AccountWebhooksService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Register an endpoint for your account\'s events (every area, or the types, areas and suppliers named); the signing secret is in this answer only.',
    description:
      'From now on each event that passes the filters is POSTed to the URL as JSON (README "Events"), signed by Standard Webhooks (`webhook-id` = the event id, ' +
      '`webhook-timestamp`, `webhook-signature: v1,<base64>`) with the secret of this answer, and retried with backoff until it answers 2xx or its retry window ends. ' +
      'A filter left out is "all", future types, areas and suppliers included. 409 `WEBHOOK.DUPLICATE`: this url with these filters is registered already (`data.webhook_id` names it); ' +
      '409 `WEBHOOK.LIMIT_REACHED`: the account has 100 endpoints already (WEBHOOK_MAX_PER_TENANT).',
  })
  @ApiHeader(idempotencyKeyHeader('A replay answers `secret: null`: the stored answer never holds the secret.'))
  @ApiBody({ ...schemaRef('CreateAccountWebhookBody'), examples: createEndpointExamples })
  @ApiResponse({ status: 201, description: 'Registered, with its secret.', schema: createdEndpointSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  create(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.create(body, context);
  }

  @Get()
  @ApiOperation({
    summary: 'Your account\'s webhook endpoints, newest first (never their secrets).',
    description: 'Cursor paging: `limit` per page, `starting_after` the last `id` of the page before; `has_more` says whether a next page follows.',
  })
  @ApiQuery(limitQuery)
  @ApiQuery(endpointsAfterQuery)
  @ApiResponse({ status: 200, description: 'One page of endpoints.', schema: endpointListSchema })
  list(@Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    return this.service.list(query, context);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One webhook endpoint (never its secret).', description: 'Another account\'s endpoint, or a deleted one, is a 404 `WEBHOOK.NOT_FOUND`.' })
  @ApiParam(endpointIdParam)
  @ApiResponse({ status: 200, description: 'The endpoint.', schema: endpointSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  get(@Param('id') id: string, @Ctx() context: RequestContext) {
    return this.service.get(id, context);
  }

  @Patch(':id')
  @ApiOperation({
    summary: 'Change the url, the filters, the description, or pause and resume it (`status`).',
    description:
      'Only the fields sent change; `null` sets a filter back to "all" and removes the description. `status: disabled` stops new deliveries (`disabled_reason`: ' +
      '`disabled by the caller`); `status: enabled` resumes it, also after it was disabled for failing a whole retry window. The url is checked as at registration. ' +
      '409 `WEBHOOK.DUPLICATE`: another endpoint has this url and these filters.',
  })
  @ApiParam(endpointIdParam)
  @ApiBody({ ...schemaRef('UpdateAccountWebhookBody'), examples: updateEndpointExamples })
  @ApiResponse({ status: 200, description: 'The endpoint as changed.', schema: endpointSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  update(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.update(id, body, context);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete an endpoint; nothing more is sent to it.',
    description: 'Its pending deliveries stop at their next attempt; it no longer counts against the limit. Another account\'s endpoint, or one deleted already, is a 404.',
  })
  @ApiParam(endpointIdParam)
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ApiResponse({ status: 404, ...errorResponse })
  async remove(@Param('id') id: string, @Ctx() context: RequestContext): Promise<void> {
    await this.service.remove(id, context);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @ApiOperation({
    summary: 'A new signing secret; the old one keeps signing for 24 hours.',
    description:
      'Until `previous_secret_expires_at` every attempt carries two `v1,` signatures in `webhook-signature`, one per secret, so a receiver verifying with either ' +
      'accepts it (the Standard Webhooks libraries try each): deploy the new secret, then nothing breaks. Rotating again drops the older secret at once.',
  })
  @ApiParam(endpointIdParam)
  @ApiHeader(idempotencyKeyHeader('A replay answers `secret: null`: the stored answer never holds the secret.'))
  @ApiResponse({ status: 200, description: 'The new secret and until when the old one signs.', schema: rotatedSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  rotateSecret(@Param('id') id: string, @Ctx() context: RequestContext) {
    return this.service.rotateSecret(id, context);
  }

  @Post(':id/test')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a realistic sample event of a type now, signed as a real one, and answer the attempt.',
    description:
      'The sample is built as real events are (README "Events"), with its own event id (`webhook-id`), and sent even while the endpoint is disabled. It is recorded ' +
      'as a delivery (`delivered`, or `failed` without retries: re-send it to retry). A 2xx does not enable a disabled endpoint: PATCH `status` does.',
  })
  @ApiParam(endpointIdParam)
  @ApiHeader(idempotencyKeyHeader('A replay answers the first attempt again and sends nothing.'))
  @ApiBody({ ...schemaRef('TestAccountWebhookBody'), examples: testEndpointExamples })
  @ApiResponse({ status: 200, description: 'The attempt.', schema: testSentSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  test(@Param('id') id: string, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.service.test(id, body, context);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    summary: 'Deliveries of an endpoint, newest first, each with its request body and every attempt.',
    description: 'Each attempt with its time, status code, duration and the first 4 KiB of your answer; `next_attempt_at` while pending. Cursor paging as the endpoints list.',
  })
  @ApiParam(endpointIdParam)
  @ApiQuery(deliveryStatusQuery)
  @ApiQuery(eventTypeQuery)
  @ApiQuery(limitQuery)
  @ApiQuery(deliveriesAfterQuery)
  @ApiResponse({ status: 200, description: 'One page of deliveries.', schema: endpointDeliveriesSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  deliveries(@Param('id') id: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    return this.service.deliveries(id, query, context);
  }

  @Post(':id/deliveries/:delivery_id/resend')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Send a delivery again now, whatever its state, under the same `webhook-id`.',
    description:
      'The delivery goes back to `pending` with a fresh retry schedule and is sent at once; its new attempts are added to its list. The event id stays, so a ' +
      'receiver that processed it already recognises it. 404 `WEBHOOK.NOT_FOUND` / `WEBHOOK.DELIVERY_NOT_FOUND`.',
  })
  @ApiParam(endpointIdParam)
  @ApiParam(deliveryIdParam)
  @ApiHeader(idempotencyKeyHeader())
  @ApiResponse({ status: 202, description: 'Queued again.', schema: endpointResentSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  resend(@Param('id') id: string, @Param('delivery_id') deliveryId: string, @Ctx() context: RequestContext) {
    return this.service.resend(id, deliveryId, context);
  }
}
