import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { participantExamples } from '@einvoice/areas';
import { Public } from '../auth/api-key.guard';
import { Ctx } from '../http/request-context';
import type { RequestContext } from '../http/request-context';
import { Answer, ParticipantsService } from './participants.service';
import { errorResponse, schemaRef } from '../http/openapi';
import { idempotencyKeyHeader } from '../http/openapi-idempotency';
import { capabilitiesSchema, createdSchema, documentTypeQuery, kycPendingSchema, lookupPidQuery, lookupSchema, pidParam, smlSchema } from './participants.openapi';

const activation = smlSchema('activated', 'activation_requested');
const deactivation = smlSchema('deactivated', 'deactivation_requested');

async function send(reply: FastifyReply, answer: Answer): Promise<void> {
  await reply.status(answer.statusCode).header('content-type', 'application/json; charset=utf-8').send(answer.body);
}

/** Peppol participant area, seed 000 "Peppol participant" (version segment `/1.0`). */
@ApiTags('Peppol participants (/1.0)')
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller('1.0')
export class ParticipantsController {
  constructor(private readonly service: ParticipantsService) {}

  @Get('participant/lookup')
  @ApiOperation({
    summary: 'Look up one or several of your participants; several `pid` give `Participants` as an array, in the order asked.',
    description:
      'Your created participants only, in the shape of seed 000 (the Peppol Directory business card\'s names); `SmlActivation` says ' +
      'whether senders can find it. All or nothing: any malformed id is a 400, any id that is not a created participant of your account ' +
      'a 404 naming it at `pid[i]` (`PARTICIPANT.KYC_PENDING` while it waits for its KYC document).',
  })
  @ApiQuery(lookupPidQuery)
  @ApiResponse({ status: 200, description: 'The participants.', schema: lookupSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  lookup(@Query() query: unknown, @Ctx() context: RequestContext) {
    return this.service.lookup(query, context);
  }

  @Post('participant')
  @ApiOperation({
    summary: 'Create a participant: 201 with the participant, or 202 `{status, method}` when your account must sign KYC first.',
    description:
      'Registers the participant in this SMP (not yet in the SML: publish it with POST /1.0/sml/activate/{pid}). Its id is ' +
      '`participantIdentifier`, else the first additional identifier of scheme iso6523-actorid-upis. 409 ' +
      '`PARTICIPANT.ALREADY_REGISTERED`: the id is registered with this access point already (a receiver has exactly one SMP).',
  })
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('CreateParticipantBody'), examples: participantExamples.create })
  @ApiResponse({ status: 201, description: 'The participant, in the lookup shape.', schema: createdSchema })
  @ApiResponse({ status: 202, description: 'Your account must complete KYC first: POST /1.0/participant/{pid}/kyc.', schema: kycPendingSchema })
  @ApiResponse({ status: 409, ...errorResponse })
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.create(body, context));
  }

  @Post('participant/:pid/kyc')
  @ApiOperation({
    summary: 'Complete KYC with the signed authorization PDF (base64); the participant is then created (201).',
    description:
      'The PDF is checked (a `.pdf` name, base64, `%PDF-` magic bytes, KYC_PDF_MAX_BYTES) and kept with its SHA-256. 404: no participant ' +
      'of your account waits for KYC under this id; 409 `PARTICIPANT.KYC_NOT_PENDING`: it is created already.',
  })
  @ApiParam(pidParam)
  @ApiHeader(idempotencyKeyHeader())
  @ApiBody({ ...schemaRef('KycCompletionBody'), examples: participantExamples.kyc })
  @ApiResponse({ status: 201, description: 'The participant, in the lookup shape.', schema: createdSchema })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async completeKyc(@Param('pid') pid: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.completeKyc(pid, body, context));
  }

  @Get('participant/:pid/capabilities')
  @Public()
  @ApiOperation({
    summary: 'Can this participant receive document type X here? Public network data: no API key.',
    description: 'Answers 200 whatever the outcome: `canReceive` false with a `reason` when it is not hosted here, not published in the SML, or does not receive that document type.',
  })
  @ApiParam(pidParam)
  @ApiQuery(documentTypeQuery)
  @ApiResponse({ status: 200, description: 'Whether it can receive it, and why.', schema: capabilitiesSchema })
  capabilities(@Param('pid') pid: string, @Query('documentTypeId') documentTypeId: unknown) {
    return this.service.capabilities(pid, documentTypeId);
  }

  @Post('sml/activate/:pid')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Publish the participant in the SML. 200 `activated` once done, 202 `activation_requested` if the SML is slower than SML_WAIT_MS.',
    description:
      'The participant worker asks the SML; a repeated activation does nothing new. Once activated, lookups show `SmlActivation: true` ' +
      'and senders find this access point. 404: not a participant of your account; 409 `PARTICIPANT.KYC_PENDING` (complete its KYC first) or `SML.DEACTIVATION_IN_PROGRESS`.',
  })
  @ApiParam(pidParam)
  @ApiResponse({ status: 200, description: 'Published in the SML.', schema: activation.ok })
  @ApiResponse({ status: 202, description: 'Requested; the SML has not answered yet.', schema: activation.pending })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async activate(@Param('pid') pid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.sml('activate', pid, context));
  }

  @Post('sml/deactivate/:pid')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Remove a published participant from the SML; 409 SML.NOT_PUBLISHED unless it is activated.',
    description: 'The participant worker asks the SML; senders then no longer find it here. 404: not a participant of your account; 409 `PARTICIPANT.KYC_PENDING`.',
  })
  @ApiParam(pidParam)
  @ApiResponse({ status: 200, description: 'Removed from the SML.', schema: deactivation.ok })
  @ApiResponse({ status: 202, description: 'Requested; the SML has not answered yet.', schema: deactivation.pending })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async deactivate(@Param('pid') pid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.sml('deactivate', pid, context));
  }
}
