import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { uae } from '@einvoice/areas';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { UaeDocumentsService } from './uae-documents.service';
import { UaeFeedsService } from './uae-feeds.service';
import { takeNumber } from './uae-numbers';
import { acceptedExample, eventsExample, recordExample, uaeDocumentSchema } from './uae-openapi';
import { UaeParticipantsService } from './uae-participants.service';

const AE = uae.uaeDefinition.code;

/**
 * The document routes under `/{prefix}/{participant_id}`, shared by the Regional API and the Unified
 * API (same records, same feeds); each subclass names its prefix and the codec's variant of its body.
 * Submission and validation go through the pipeline, which takes the document's number in its
 * transaction (uae-numbers.ts); the reads and the feeds are the area's own.
 */
abstract class UaeDocumentRoutes {
  constructor(
    protected readonly pipeline: AreaPipeline,
    protected readonly participants: UaeParticipantsService,
    protected readonly documents: UaeDocumentsService,
    protected readonly feeds: UaeFeedsService,
  ) {}

  /** The codec's variant of this API's body (`unified`: `country` is checked first). */
  protected abstract readonly variant: string | undefined;

  @Post(':participant_id/documents')
  @HttpCode(202)
  @ApiOperation({ summary: 'Submit a document: 202 once both validation phases pass; delivery (exchange) and FTA reporting follow as two tracks.' })
  @ApiParam({ name: 'participant_id' })
  @ApiBody({ schema: uaeDocumentSchema, description: 'Unified API: the same document plus `country` (AE).' })
  @ApiResponse({ status: 202, description: 'Accepted and queued', schema: { example: acceptedExample } })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse, description: 'DOCUMENT.DUPLICATE_ID, or DOCUMENT.RETENTION_BLOCKED for a number that went through validate' })
  async submit(@Param('participant_id') participantId: string, @Body() body: unknown, @Ctx() context: RequestContext) {
    const participant = await this.participants.find(participantId, context);
    return (await this.pipeline.submit(AE, participant.id, body, context, this.variant, takeNumber(participant.id, 'document'))).body;
  }

  @Post(':participant_id/documents/validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run both validation phases without filing; a valid document consumes its number.' })
  @ApiParam({ name: 'participant_id' })
  @ApiBody({ schema: uaeDocumentSchema, description: 'Unified API: the same document plus `country` (AE).' })
  @ApiResponse({ status: 200, schema: { example: { status: 'success', message: 'Document is valid.', data: { document_identifier: 'INV-2026-0001' } } } })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async validate(@Param('participant_id') participantId: string, @Body() body: unknown, @Ctx() context: RequestContext) {
    const participant = await this.participants.find(participantId, context);
    return (await this.pipeline.check(AE, participant.id, body, context, uae.uaeValidAnswer, this.variant, takeNumber(participant.id, 'validate'))).body;
  }

  @Get(':participant_id/documents')
  @ApiOperation({ summary: 'Documents oldest first; `since_id` returns only newer ones, `next_since_id` continues.' })
  @ApiParam({ name: 'participant_id' })
  @ApiQuery({ name: 'direction', required: false, enum: ['outgoing', 'incoming'], description: 'outgoing when absent' })
  @ApiQuery({ name: 'since_id', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1–100, 50 when absent' })
  @ApiResponse({ status: 200, schema: { example: { status: 'success', data: [{ ...recordExample.data, document: undefined }], next_since_id: recordExample.data.document_id } } })
  @ApiResponse({ status: 404, ...errorResponse })
  async list(@Param('participant_id') participantId: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    return this.documents.list(await this.participants.find(participantId, context), query);
  }

  @Get(':participant_id/documents/:document_id')
  @ApiOperation({ summary: 'The document with both tracks and its attachments (described, not inlined).' })
  @ApiParam({ name: 'participant_id' })
  @ApiParam({ name: 'document_id' })
  @ApiResponse({ status: 200, schema: { example: recordExample } })
  @ApiResponse({ status: 404, ...errorResponse })
  async get(@Param('participant_id') participantId: string, @Param('document_id') documentId: string, @Ctx() context: RequestContext) {
    return this.documents.get(await this.participants.find(participantId, context), documentId);
  }

  @Get(':participant_id/documents/:document_id/xml')
  @ApiOperation({ summary: 'The UBL as rendered (received documents: as received).' })
  @ApiParam({ name: 'participant_id' })
  @ApiParam({ name: 'document_id' })
  @ApiProduces('application/xml')
  @ApiResponse({ status: 404, ...errorResponse })
  async xml(@Param('participant_id') participantId: string, @Param('document_id') documentId: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const xml = await this.documents.xml(await this.participants.find(participantId, context), documentId);
    await reply.header('content-type', 'application/xml; charset=utf-8').send(xml);
  }

  @Get(':participant_id/documents/:document_id/attachments/:index')
  @ApiOperation({ summary: 'An embedded attachment by its index (from 1), with its MIME type and file name; 20 MiB ceiling.' })
  @ApiParam({ name: 'participant_id' })
  @ApiParam({ name: 'document_id' })
  @ApiParam({ name: 'index' })
  @ApiProduces('application/octet-stream')
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
  @ApiOperation({ summary: 'A page of the outgoing or incoming feed; `ack_cursor` acknowledges through that event first.' })
  @ApiParam({ name: 'participant_id' })
  @ApiQuery({ name: 'direction', required: true, enum: ['sent', 'outgoing', 'received', 'incoming'] })
  @ApiQuery({ name: 'cursor', required: false })
  @ApiQuery({ name: 'ack_cursor', required: false })
  @ApiQuery({ name: 'limit', required: false, description: '1–500, 100 when absent' })
  @ApiResponse({ status: 200, schema: { example: eventsExample } })
  @ApiResponse({ status: 404, ...errorResponse })
  async events(@Param('participant_id') participantId: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    return this.feeds.page(await this.participants.find(participantId, context), query);
  }

  @Post(':participant_id/events/ack')
  @HttpCode(200)
  @ApiOperation({ summary: 'Acknowledge a feed through an event id (forward only; behind the stored position: ignored).' })
  @ApiParam({ name: 'participant_id' })
  @ApiBody({ schema: { type: 'object', required: ['direction', 'cursor'], properties: { direction: { type: 'string' }, cursor: { type: 'string' } }, example: { direction: 'outgoing', cursor: 'NzQ4MjEuMTI' } } })
  @ApiResponse({ status: 200, schema: { example: { status: 'success', data: { direction: 'outgoing', acked: 'NzQ4MjEuMTI' } } } })
  @ApiResponse({ status: 404, ...errorResponse })
  async acknowledge(@Param('participant_id') participantId: string, @Body() body: unknown, @Ctx() context: RequestContext) {
    return this.feeds.acknowledge(await this.participants.find(participantId, context), body);
  }

  @Get(':participant_id/events/position')
  @ApiOperation({ summary: 'The stored position of a feed (`acked`, null when never acknowledged).' })
  @ApiParam({ name: 'participant_id' })
  @ApiQuery({ name: 'direction', required: true, enum: ['sent', 'outgoing', 'received', 'incoming'] })
  @ApiResponse({ status: 200, schema: { example: { status: 'success', data: { direction: 'outgoing', acked: null } } } })
  @ApiResponse({ status: 404, ...errorResponse })
  async position(@Param('participant_id') participantId: string, @Query() query: Record<string, unknown>, @Ctx() context: RequestContext) {
    return this.feeds.position(await this.participants.find(participantId, context), query);
  }
}

/** The Regional API (seed 001): `/v1/participants`. */
@ApiTags('United Arab Emirates (/v1/participants)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('v1/participants')
export class UaeController extends UaeDocumentRoutes {
  protected readonly variant = undefined;

  constructor(pipeline: AreaPipeline, participants: UaeParticipantsService, documents: UaeDocumentsService, feeds: UaeFeedsService) {
    super(pipeline, participants, documents, feeds);
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Onboard a UAE participant; it becomes a Peppol receiver here under ICD 0235.' })
  @ApiBody(schemaRef('UaeParticipantBody'))
  @ApiResponse({ status: 201, schema: { example: { status: 'success', data: { participant_id: '0f9a7b2e-3c1d-4e5f-8a9b-1c2d3e4f5a6b', peppol_id: '0235:1234567890' } } } })
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
export class UaeUnifiedController extends UaeDocumentRoutes {
  protected readonly variant = 'unified';

  constructor(pipeline: AreaPipeline, participants: UaeParticipantsService, documents: UaeDocumentsService, feeds: UaeFeedsService) {
    super(pipeline, participants, documents, feeds);
  }
}
