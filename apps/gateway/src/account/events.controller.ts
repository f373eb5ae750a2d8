import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AREA_CODES } from '@einvoice/areas';
import { ACCOUNT_EVENT_TYPES } from '@einvoice/domain';
import { errorResponse } from '../http/openapi';
import { Ctx, type RequestContext } from '../http/request-context';
import { AccountEvents, EVENTS_SCAN_LIMIT } from './events.service';
import { DEFAULT_EVENTS_LIMIT, MAX_EVENTS_LIMIT, eventsQuery } from './events-query';
import { eventsCursorExample, eventsPageSchema } from './events.openapi';

/** The account's events of every area (#48, docs/account-api.md "Events"): catch up on what a webhook may have missed. */
@ApiTags('Account (/v1)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('v1/events')
export class EventsController {
  constructor(private readonly events: AccountEvents) {}

  @Get()
  @ApiOperation({
    summary: 'Events of every area, oldest first after a cursor.',
    description:
      'The events of every area\'s documents of your account (the catalogue: README "Events"; one JSON Schema per `type`: ' +
      '`AccountEvent`), oldest first after `after`, in the order their transactions committed: an event whose transaction commits ' +
      'late shows after the ones you read already, never behind your cursor. Give `next_cursor` as `after` to read on; a page with ' +
      'no event answers your cursor back (you are caught up). Cursors are opaque, stay valid across restarts, and keep working after ' +
      'the events they point at are deleted (events are kept 30 days: the page continues from there). With a filter, a page looks at ' +
      `${EVENTS_SCAN_LIMIT.toLocaleString('en')} events of your account at most: it may answer fewer than \`limit\` (none, even) with ` +
      'a `next_cursor` that moved past them, so read until a page is empty and `next_cursor` stays the same. `id` is the event\'s ' +
      'de-duplication key, the same as `webhook-id` on every webhook delivery of it.',
  })
  @ApiQuery({ name: 'after', required: false, description: 'The `next_cursor` of the page before; absent: from the oldest event kept.', example: eventsCursorExample })
  @ApiQuery({ name: 'type', required: false, description: `Comma-separated event types: ${ACCOUNT_EVENT_TYPES.join(', ')}.`, example: 'document.reported,document.report_failed' })
  @ApiQuery({ name: 'area', required: false, description: `Comma-separated area codes: ${AREA_CODES.join(', ')}.`, example: 'pl,jo' })
  @ApiQuery({ name: 'supplier_id', required: false, description: 'The supplier\'s id (a UUID).', example: '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b' })
  @ApiQuery({ name: 'limit', required: false, description: `1–${MAX_EVENTS_LIMIT}, ${DEFAULT_EVENTS_LIMIT} when absent.`, example: 100 })
  @ApiResponse({ status: 200, description: '`{status, data: [event], next_cursor}`', schema: eventsPageSchema })
  list(@Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    return this.events.page(context.tenant.id, eventsQuery(query));
  }
}
