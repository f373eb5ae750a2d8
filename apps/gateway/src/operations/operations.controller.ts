import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AREA_CODES } from '@einvoice/areas';
import { OperatorOnly } from '../auth/api-key.guard';
import { errorResponse } from '../http/openapi';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../account/page';
import { Operations } from './operations.service';
import { DEFAULT_ERROR_WINDOW, DEFAULT_STUCK_AGE, authorityErrorsQuery, deadLettersQuery, noQuery, parkedRowsQuery, stuckDocumentsQuery } from './operations-query';
import { authorityErrorsSchema, consumerLagSchema, deadLetterListSchema, parkedRowListSchema, releaseSchema, replaySchema, stuckDocumentListSchema } from './operations.openapi';

const forbidden = { status: 403, ...errorResponse, description: 'An account\'s API key or access token (`AUTH.OPERATOR_ONLY`): these routes take an operator key (`op_…`).' };
const limitQuery = { name: 'limit', required: false, description: `1–${MAX_PAGE_LIMIT}, ${DEFAULT_PAGE_LIMIT} when absent.`, example: 20 };

/**
 * The operator's view of the whole installation (#50, README "Operations API"): what the CLI's `dlq`,
 * `documents stuck` and `outbox` commands and /metrics show, over HTTP, for the console's Operations page.
 * Only an operator key (`cli operators create <name>`) opens it: it shows every account's documents.
 */
@ApiTags('Operations (/v1/operations)')
@ApiSecurity('operator')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@ApiResponse(forbidden)
@OperatorOnly()
@Controller('v1/operations')
export class OperationsController {
  constructor(private readonly operations: Operations) {}

  @Get('dead-letters')
  @ApiOperation({
    summary: 'The dead-letter topic\'s messages: what a worker gave up on, and why.',
    description:
      'Every message a worker\'s handler could not handle (a failure no retry fixes, or retries exhausted), with the event it carries, the topic and group it ' +
      'came from and the last error, in the topic\'s order (partition, then offset), as `cli dlq list`. `replayed_at` says when an operator replayed it. ' +
      'The topic is read whole for each page (it has no index): a page takes about as long as the topic is large. `replayed=false` lists those still to look at.',
  })
  @ApiQuery({ name: 'replayed', required: false, enum: ['true', 'false'], description: '`false`: only those not replayed yet; `true`: only those replayed.', example: 'false' })
  @ApiQuery(limitQuery)
  @ApiQuery({ name: 'starting_after', required: false, description: 'The `id` of the last dead letter of the page before (`partition:offset`).', example: '0:17' })
  @ApiResponse({ status: 200, description: '`{status, data: [dead letter], has_more}`', schema: deadLetterListSchema })
  deadLetters(@Query() query: Record<string, unknown>) {
    return this.operations.deadLetters(deadLettersQuery(query));
  }

  @Post('dead-letters/:id/replay')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a dead letter back to its topic, once.',
    description:
      'The message goes back to the topic it came from with its key, value and event headers (as `cli dlq replay <id>`): the group that failed handles it again, ' +
      'and groups that handled it already pass over it (they are idempotent per event). A message is replayed once: asked again, the answer is `replayed: false` ' +
      'with when it was (a 200, nothing sent). Fix what failed first (the worker\'s configuration, the receiver), then replay; follow the document on ' +
      '`GET /v1/operations/stuck-documents` or, with its account\'s key, `GET /v1/documents/{id}`. No body; an `Idempotency-Key` is not needed (a replay is once by itself).',
  })
  @ApiParam({ name: 'id', description: 'The dead letter\'s `id` (`partition:offset`).', example: '0:17' })
  @ApiResponse({ status: 200, description: 'Sent back now (`replayed: true`), or when it was the first time (`replayed: false`).', schema: replaySchema })
  @ApiResponse({ status: 404, ...errorResponse, description: 'No such message in the dead-letter topic (`DLQ.NOT_FOUND`).' })
  @ApiResponse({ status: 409, ...errorResponse, description: 'Another replay of it is under way right now (`DLQ.REPLAY_IN_PROGRESS`); try again in a minute.' })
  replay(@Param('id') id: string) {
    return this.operations.replay(id);
  }

  @Get('stuck-documents')
  @ApiOperation({
    summary: 'Documents not final for longer than a threshold, across every account.',
    description:
      'Documents waiting for delivery (scheduled), for their authority (pending, processing, cancelling, or a report not answered yet), or with a Peppol copy ' +
      'not delivered yet, unchanged for longer than `older_than`, oldest first, each with the last event of its streams and the error its authority\'s answer ' +
      'carries, as `cli documents stuck`. Paged by `created_at` then `id`, which never change: a page is the same whatever moved on since.',
  })
  @ApiQuery({ name: 'older_than', required: false, description: `Unchanged for longer than this: a duration such as 90s, 10m, 2h, 1d (0s to 365d); ${DEFAULT_STUCK_AGE} when absent.`, example: '30m' })
  @ApiQuery({ name: 'area', required: false, description: `Only this area's documents (${AREA_CODES.join(', ')}).`, example: 'ar' })
  @ApiQuery(limitQuery)
  @ApiQuery({ name: 'starting_after', required: false, description: 'The `id` of the last document of the page before.', example: '0f9c1e52-7d4b-4c1e-9b0a-6a3e2d1c4b5a' })
  @ApiResponse({ status: 200, description: '`{status, data: [document], has_more}`', schema: stuckDocumentListSchema })
  stuck(@Query() query: Record<string, unknown>) {
    return this.operations.stuck(stuckDocumentsQuery(query));
  }

  @Get('outbox/parked')
  @ApiOperation({
    summary: 'Outbox rows the broker refused (parked), not published.',
    description:
      'An event the broker refused (larger than the topic\'s `max.message.bytes`, say) is parked instead of retried forever in front of everyone else\'s; the ' +
      'events of its stream wait behind it. In id order, with the broker\'s error, as `cli outbox parked`. Fix the cause (`cli topics` raises the topics\' ' +
      'limit to KAFKA_MAX_MESSAGE_BYTES), then release them.',
  })
  @ApiQuery(limitQuery)
  @ApiQuery({ name: 'starting_after', required: false, description: 'The `id` of the last row of the page before (digits).', example: '4711' })
  @ApiResponse({ status: 200, description: '`{status, data: [parked row], has_more}`', schema: parkedRowListSchema })
  parked(@Query() query: Record<string, unknown>) {
    return this.operations.parked(parkedRowsQuery(query));
  }

  @Post('outbox/parked/release')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Put every parked outbox row back in line for the relay.',
    description:
      'The relay publishes them next, before the rows that waited behind them, as `cli outbox release`; a row the broker still refuses is parked again. ' +
      'No body. `released` is empty when none was parked.',
  })
  @ApiResponse({ status: 200, description: 'The rows released.', schema: releaseSchema })
  releaseAll() {
    return this.operations.release();
  }

  @Post('outbox/parked/:id/release')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Put one parked outbox row back in line for the relay.',
    description: 'As `cli outbox release <id>`: the relay publishes it next; if the broker still refuses it, it is parked again. No body.',
  })
  @ApiParam({ name: 'id', description: 'The parked row\'s `id` (digits).', example: '4711' })
  @ApiResponse({ status: 200, description: 'The row released.', schema: releaseSchema })
  @ApiResponse({ status: 404, ...errorResponse, description: 'No such parked row (`OUTBOX.NOT_PARKED`): unknown, published already, or released already.' })
  release(@Param('id') id: string) {
    return this.operations.release(id);
  }

  @Get('consumer-lag')
  @ApiOperation({
    summary: 'Each worker\'s consumer group: its state and how far behind it is.',
    description:
      'The delivery worker\'s, the reporting worker\'s and the webhook dispatcher\'s groups as Kafka describes them (state, members, ready: stable with a member), ' +
      'with the messages of their topics not yet committed, in all and per topic and partition: the numbers of /metrics\' `einvoice_kafka_consumer_lag` and ' +
      'of the operator port\'s `GET /health` `workers`. A 503 when the broker does not answer.',
  })
  @ApiResponse({ status: 200, description: '`{status, data: {groups}}`', schema: consumerLagSchema })
  consumerLag(@Query() query: Record<string, unknown>) {
    noQuery(query);
    return this.operations.consumerLag();
  }

  @Get('authority-errors')
  @ApiOperation({
    summary: 'How often each area\'s tax authority refused what it was sent, over a recent window.',
    description:
      'Per area that reports to an authority: the documents it accepted (`reported`) and refused (`refused`: the report rejected or invalid) within the last ' +
      '`window`, and the share refused, as `cli authority errors`. Counted from the account events (kept 30 days). Calls that got no answer (the authority ' +
      'unavailable, a 429) are not refusals: the reporting worker\'s /metrics counts them (`einvoice_authority_calls_total{outcome}`).',
  })
  @ApiQuery({ name: 'window', required: false, description: `The window: a duration such as 15m, 1h, 1d (1m to 30d); ${DEFAULT_ERROR_WINDOW} when absent.`, example: '1h' })
  @ApiResponse({ status: 200, description: '`{status, data: {window, since, until, areas}}`', schema: authorityErrorsSchema })
  authorityErrors(@Query() query: Record<string, unknown>) {
    return this.operations.authorityErrors(authorityErrorsQuery(query));
  }
}
