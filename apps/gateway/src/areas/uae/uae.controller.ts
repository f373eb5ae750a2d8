import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { type RequestExamples, uae } from '@einvoice/areas';
import { errorResponse, schemaRef } from '../../http/openapi';
import { xmlContent } from '../../http/openapi-answers';
import { Ctx, type RequestContext } from '../../http/request-context';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { UaeDocumentsService } from './uae-documents.service';
import { UaeFeedsService } from './uae-feeds.service';
import { takeNumber } from './uae-numbers';
import {
  acceptedSchema, acknowledgeSchema, eventsSchema, participantSchema, positionSchema, recordListSchema, recordSchema, uaeDocumentSchema, validSchema,
} from './uae-openapi';
import { UaeParticipantsService } from './uae-participants.service';

const AE = uae.uaeDefinition.code;
const examples = uae.uaeExamples;

/** What tells the two APIs' document routes apart. */
interface UaeApi {
  /** The codec's variant of this API's body (`unified`: `country` is checked first). */
  readonly variant: string | undefined;
  /** Its request-body examples (the Unified API's carry `country`). */
  readonly submitExamples: RequestExamples;
  readonly validateExamples: RequestExamples;
}

const participantParam = { name: 'participant_id', description: 'The participant\'s id its registration answered (`data.participant_id`); another account\'s or an unknown one: 404 PARTICIPANT.NOT_FOUND.', example: '0f9a7b2e-3c1d-4e5f-8a9b-1c2d3e4f5a6b' };
const documentParam = { name: 'document_id', description: 'The document\'s id its submission answered (`data.document_id`), or an incoming document\'s from the feed; unknown: 404 DOCUMENT.NOT_FOUND.', example: '5b0e7c59-6a7f-4f7e-9d55-2f8a1f0c1c11' };
const feedDirectionQuery = { name: 'direction', required: true, enum: ['sent', 'outgoing', 'received', 'incoming'], description: 'The feed: sent / outgoing (its documents\' events) or received / incoming (documents received for it).', example: 'outgoing' };

/**
 * The document routes under `/{prefix}/{participant_id}`, shared by the Regional API and the Unified
 * API (same records, same feeds); each API's class names its prefix, and its body's variant and
 * examples through `api` (decorators are evaluated once per class, so a class per API).
 * Submission and validation go through the pipeline, which takes the document's number in its
 * transaction (uae-numbers.ts); the reads and the feeds are the area's own.
 */
function uaeDocumentRoutes(api: UaeApi) {
  abstract class UaeDocumentRoutes {
    constructor(
      protected readonly pipeline: AreaPipeline,
      protected readonly participants: UaeParticipantsService,
      protected readonly documents: UaeDocumentsService,
      protected readonly feeds: UaeFeedsService,
    ) {}

    protected readonly variant = api.variant;

    @Post(':participant_id/documents')
    @HttpCode(202)
    @ApiOperation({
      summary: 'Submit a document: 202 once both validation phases pass; delivery (exchange) and FTA reporting follow as two tracks.',
      description: 'Phase 1 checks the fields, phase 2 the rendered PINT AE UBL (400 with every issue and its rule id). Accepted, its number is taken '
        + '(unique per financial year) and two workers go on: the Peppol delivery to `receiving_party.peppol_id` (exchange) and the report to the FTA '
        + '(reporting); follow them with GET documents/{document_id} or the outgoing event feed. A retry with the same Idempotency-Key answers the same document.',
    })
    @ApiParam(participantParam)
    @ApiBody({ schema: uaeDocumentSchema, description: 'Unified API: the same document plus `country` (AE).', examples: api.submitExamples })
    @ApiResponse({ status: 202, description: 'Accepted and queued', schema: acceptedSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    @ApiResponse({ status: 409, ...errorResponse, description: 'DOCUMENT.DUPLICATE_ID, or DOCUMENT.RETENTION_BLOCKED for a number that went through validate; SUPPLIER.INACTIVE: the participant was deactivated' })
    async submit(@Param('participant_id') participantId: string, @Body() body: unknown, @Ctx() context: RequestContext) {
      const participant = await this.participants.find(participantId, context);
      return (await this.pipeline.submit(AE, participant.id, body, context, this.variant, takeNumber(participant.id, 'document'))).body;
    }

    @Post(':participant_id/documents/validate')
    @HttpCode(200)
    @ApiOperation({
      summary: 'Run both validation phases without filing; a valid document consumes its number.',
      description: 'The same checks as a submission (400 with every issue), but nothing is delivered or reported; the valid document\'s number is taken, '
        + 'so submitting it afterwards is a 409 DOCUMENT.RETENTION_BLOCKED. 409 DOCUMENT.DUPLICATE_ID: the number was taken already.',
    })
    @ApiParam(participantParam)
    @ApiBody({ schema: uaeDocumentSchema, description: 'Unified API: the same document plus `country` (AE).', examples: api.validateExamples })
    @ApiResponse({ status: 200, description: 'Valid.', schema: validSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    @ApiResponse({ status: 409, ...errorResponse })
    async validate(@Param('participant_id') participantId: string, @Body() body: unknown, @Ctx() context: RequestContext) {
      const participant = await this.participants.find(participantId, context);
      return (await this.pipeline.check(AE, participant.id, body, context, uae.uaeValidAnswer, this.variant, takeNumber(participant.id, 'validate'))).body;
    }

    @Get(':participant_id/documents')
    @ApiOperation({
      summary: 'Documents oldest first; `since_id` returns only newer ones, `next_since_id` continues.',
      description: 'The participant\'s documents in the order they were written, each with both tracks (not the document itself): poll with the last `next_since_id` to get what is new. '
        + 'A page never skips a document written by a transaction still running.',
    })
    @ApiParam(participantParam)
    @ApiQuery({ name: 'direction', required: false, enum: ['outgoing', 'incoming'], description: 'outgoing when absent', example: 'outgoing' })
    @ApiQuery({ name: 'since_id', required: false, description: 'A `document_id` of this list (the last `next_since_id`): only documents after it.', example: '5b0e7c59-6a7f-4f7e-9d55-2f8a1f0c1c11' })
    @ApiQuery({ name: 'limit', required: false, description: '1–100, 50 when absent', example: 50 })
    @ApiResponse({ status: 200, description: 'One page.', schema: recordListSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    async list(@Param('participant_id') participantId: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
      return this.documents.list(await this.participants.find(participantId, context), query);
    }

    @Get(':participant_id/documents/:document_id')
    @ApiOperation({
      summary: 'The document with both tracks and its attachments (described, not inlined).',
      description: '`status` completed once delivered over Peppol and reported to the FTA; attention when either failed (its `error`). 404: no such document of this participant.',
    })
    @ApiParam(participantParam)
    @ApiParam(documentParam)
    @ApiResponse({ status: 200, description: 'The document.', schema: recordSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    async get(@Param('participant_id') participantId: string, @Param('document_id') documentId: string, @Ctx() context: RequestContext) {
      return this.documents.get(await this.participants.find(participantId, context), documentId);
    }

    @Get(':participant_id/documents/:document_id/xml')
    @ApiOperation({
      summary: 'The UBL as rendered (received documents: as received).',
      description: 'The PINT AE Invoice or CreditNote delivered and reported, with its embedded attachments. 404: no such document of this participant.',
    })
    @ApiParam(participantParam)
    @ApiParam(documentParam)
    @ApiProduces('application/xml')
    @ApiResponse({ status: 200, description: 'The UBL.', content: xmlContent })
    @ApiResponse({ status: 404, ...errorResponse })
    async xml(@Param('participant_id') participantId: string, @Param('document_id') documentId: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
      const xml = await this.documents.xml(await this.participants.find(participantId, context), documentId);
      await reply.header('content-type', 'application/xml; charset=utf-8').send(xml);
    }

    @Get(':participant_id/documents/:document_id/attachments/:index')
    @ApiOperation({
      summary: 'An embedded attachment by its index (from 1), with its MIME type and file name; 20 MiB ceiling.',
      description: 'Served with its own MIME type (`content-type`) and file name (`content-disposition`). 404 ATTACHMENT.NOT_FOUND: no attachment with this index; 400 ATTACHMENT.TOO_LARGE above 20 MiB.',
    })
    @ApiParam(participantParam)
    @ApiParam(documentParam)
    @ApiParam({ name: 'index', description: 'The attachment\'s `index` in the document\'s `attachments`, from 1.', example: 1 })
    @ApiProduces('application/octet-stream')
    @ApiResponse({ status: 200, description: 'The file, in its own MIME type.', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } })
    @ApiResponse({ status: 404, ...errorResponse })
    async attachment(
      @Param('participant_id') participantId: string,
      @Param('document_id') documentId: string,
      @Param('index') index: string,
      @Ctx() context: RequestContext,
      @Res() reply: FastifyReply,
    ) {
      const file = await this.documents.attachment(await this.participants.find(participantId, context), documentId, index);
      await reply
        .header('content-type', file.mimeCode)
        .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
        .send(file.bytes);
    }

    @Get(':participant_id/events')
    @ApiOperation({
      summary: 'A page of the outgoing or incoming feed; `ack_cursor` acknowledges through that event first.',
      description: 'Every change of a document\'s tracks is an event (document.accepted, document.received, document.reported, document.delivered, document.failed), '
        + 'in the order written; ask again from `next_cursor`. Without `cursor`, the page starts after `ack_cursor` (or the beginning). 400 FEED.INVALID_CURSOR: not an event id of this feed.',
    })
    @ApiParam(participantParam)
    @ApiQuery(feedDirectionQuery)
    @ApiQuery({ name: 'cursor', required: false, description: 'An event id of this feed (the last `next_cursor`): the page starts after it.', example: 'NzQ4MjEuMTI' })
    @ApiQuery({ name: 'ack_cursor', required: false, description: 'An event id to acknowledge first (as POST events/ack), the page then starting after it unless `cursor` says otherwise.', example: 'NzQ4MjEuMTI' })
    @ApiQuery({ name: 'limit', required: false, description: '1–500, 100 when absent', example: 100 })
    @ApiResponse({ status: 200, description: 'One page of events.', schema: eventsSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    async events(@Param('participant_id') participantId: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
      return this.feeds.page(await this.participants.find(participantId, context), query);
    }

    @Post(':participant_id/events/ack')
    @HttpCode(200)
    @ApiOperation({
      summary: 'Acknowledge a feed through an event id (forward only; behind the stored position: ignored).',
      description: 'Stores the participant\'s position in the feed (GET events/position reads it back) and answers it. 400 FEED.INVALID_CURSOR: not an event of this feed.',
    })
    @ApiParam(participantParam)
    @ApiBody({ schema: acknowledgeSchema, examples: examples.acknowledge })
    @ApiResponse({ status: 200, description: 'The stored position.', schema: positionSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    async acknowledge(@Param('participant_id') participantId: string, @Body() body: unknown, @Ctx() context: RequestContext) {
      return this.feeds.acknowledge(await this.participants.find(participantId, context), body);
    }

    @Get(':participant_id/events/position')
    @ApiOperation({
      summary: 'The stored position of a feed (`acked`, null when never acknowledged).',
      description: 'Where a consumer resumes: GET events with `cursor` = `acked`.',
    })
    @ApiParam(participantParam)
    @ApiQuery(feedDirectionQuery)
    @ApiResponse({ status: 200, description: 'The stored position.', schema: positionSchema })
    @ApiResponse({ status: 404, ...errorResponse })
    async position(@Param('participant_id') participantId: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
      return this.feeds.position(await this.participants.find(participantId, context), query);
    }
  }
  return UaeDocumentRoutes;
}

/** The Regional API (seed 001): `/v1/participants`. */
@ApiTags('United Arab Emirates (/v1/participants)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('v1/participants')
export class UaeController extends uaeDocumentRoutes({ variant: undefined, submitExamples: examples.document, validateExamples: examples.validate }) {
  constructor(pipeline: AreaPipeline, participants: UaeParticipantsService, documents: UaeDocumentsService, feeds: UaeFeedsService) {
    super(pipeline, participants, documents, feeds);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Onboard a UAE participant; it becomes a Peppol receiver here under ICD 0235.',
    description: 'Stores the participant (the issuer of its documents) and registers its Peppol id here and in the SML in the same transaction, so it can receive at once. '
      + 'The answer\'s `participant_id` is the path of its document routes. 409 SUPPLIER.EXISTS: this account registered this TIN already; '
      + '409 PARTICIPANT.ALREADY_REGISTERED: the Peppol id is registered with this access point (a receiver is in exactly one SMP). '
      + 'A retry with the same Idempotency-Key answers the same participant.',
  })
  @ApiBody({ ...schemaRef('UaeParticipantBody'), examples: examples.participant })
  @ApiResponse({ status: 201, description: 'Registered.', schema: participantSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(AE, body, context);
  }
}

/** The Unified API: the same document plus `country` (`AE` served). */
@ApiTags('Unified API (/v1/unified/participants)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('v1/unified/participants')
export class UaeUnifiedController extends uaeDocumentRoutes({ variant: 'unified', submitExamples: examples.unifiedDocument, validateExamples: examples.unifiedValidate }) {
  constructor(pipeline: AreaPipeline, participants: UaeParticipantsService, documents: UaeDocumentsService, feeds: UaeFeedsService) {
    super(pipeline, participants, documents, feeds);
  }
}
