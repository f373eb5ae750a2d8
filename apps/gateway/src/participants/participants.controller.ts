import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiQuery, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/api-key.guard';
import { Ctx } from '../http/request-context';
import type { RequestContext } from '../http/request-context';
import { Answer, ParticipantsService } from './participants.service';
import { errorResponse, schemaRef } from '../http/openapi';

const pidParam = { name: 'pid', description: 'Participant id `iso6523-actorid-upis::<ISO 6523 code>:<value>`, URL-encoded' };

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
  @ApiOperation({ summary: 'Look up one or several of your participants; several `pid` give `Participants` as an array, in the order asked.' })
  @ApiQuery({ name: 'pid', isArray: true, type: String })
  @ApiResponse({ status: 200, description: '`{Participants:{xmlns, Participant:{Meta, BusinessCard, AccessPointConfigurations}}}`' })
  @ApiResponse({ status: 404, ...errorResponse })
  lookup(@Query() query: unknown, @Ctx() context: RequestContext) {
    return this.service.lookup(query, context);
  }

  @Post('participant')
  @ApiOperation({ summary: 'Create a participant: 201 with the participant, or 202 `{status, method}` when your account must sign KYC first.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('CreateParticipantBody'))
  @ApiResponse({ status: 201, description: 'The participant, in the lookup shape' })
  @ApiResponse({ status: 202, description: '`{status:"kyc_pending", method:["PDF_AUTHORIZATION_DOCUMENT"], data:{pid}}`' })
  @ApiResponse({ status: 409, ...errorResponse })
  async create(@Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.create(body, context));
  }

  @Post('participant/:pid/kyc')
  @ApiOperation({ summary: 'Complete KYC with the signed authorization PDF (base64); the participant is then created (201).' })
  @ApiParam(pidParam)
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('KycCompletionBody'))
  @ApiResponse({ status: 201, description: 'The participant, in the lookup shape' })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async completeKyc(@Param('pid') pid: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.completeKyc(pid, body, context));
  }

  @Get('participant/:pid/capabilities')
  @Public()
  @ApiOperation({ summary: 'Can this participant receive document type X here? Public network data: no API key.' })
  @ApiParam(pidParam)
  @ApiQuery({ name: 'documentTypeId', description: '`busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##...::2.1`' })
  @ApiResponse({ status: 200, description: '`{status, data:{pid, documentTypeId, canReceive, reason, message}}`' })
  capabilities(@Param('pid') pid: string, @Query('documentTypeId') documentTypeId: unknown) {
    return this.service.capabilities(pid, documentTypeId);
  }

  @Post('sml/activate/:pid')
  @HttpCode(200)
  @ApiOperation({ summary: 'Publish the participant in the SML. 200 `activated` once done, 202 `activation_requested` if the SML is slower than SML_WAIT_MS.' })
  @ApiParam(pidParam)
  @ApiResponse({ status: 200, description: '`{status:"success", data:{pid, status:"activated"}}`' })
  @ApiResponse({ status: 202, description: '`{status:"pending", data:{pid, status:"activation_requested"}}`' })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async activate(@Param('pid') pid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.sml('activate', pid, context));
  }

  @Post('sml/deactivate/:pid')
  @HttpCode(200)
  @ApiOperation({ summary: 'Remove a published participant from the SML; 409 SML.NOT_PUBLISHED unless it is activated.' })
  @ApiParam(pidParam)
  @ApiResponse({ status: 200, description: '`{status:"success", data:{pid, status:"deactivated"}}`' })
  @ApiResponse({ status: 202, description: '`{status:"pending", data:{pid, status:"deactivation_requested"}}`' })
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async deactivate(@Param('pid') pid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await send(reply, await this.service.sml('deactivate', pid, context));
  }
}
