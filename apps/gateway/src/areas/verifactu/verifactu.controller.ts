import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { verifactuDefinition, supplierHeaderOf } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';

const { code, routePrefix } = verifactuDefinition;
const supplierHeader = supplierHeaderOf(verifactuDefinition);

/** Spain, VERI*FACTU (seed 002 "Spain", libs/areas/src/verifactu/README.md): the platform's reporting routes. */
@ApiTags(`${verifactuDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class VerifactuController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('onboard')
  @HttpCode(201)
  @ApiOperation({ summary: 'Onboard an issuer (NIF checked): 201 {status, message, data: {participant_id}}.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('VerifactuOnboardingBody'))
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('generate')
  @ApiOperation({ summary: 'Make the next record of the issuer\'s chain (F1, F2): 200 {status, message: {uuid, qr_link, qr_code}}; the AEAT hears of it in the issuer\'s next batch.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('VerifactuReportBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async generate(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'generate'));
  }

  @Post('rectify')
  @ApiOperation({ summary: 'Make a rectifying record (R1, TipoRectificativa I) in the issuer\'s chain: the same answer as generate.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('VerifactuRectifyBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async rectify(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'rectify'));
  }

  @Post('cancel')
  @ApiOperation({ summary: 'Cancel an invoice: a cancellation record (RegistroAnulacion) in the issuer\'s chain, body {document_identifier, issue_date}: 200 {status, message: {uuid}}; 404 for an invoice this issuer never recorded; 409 when already cancelled here.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('VerifactuCancelBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async cancel(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'cancel'));
  }

  @Get('records/:uuid')
  @ApiOperation({ summary: 'A record: its chain (hash, previous_hash, generated_at), its QR link and what the AEAT said (aeat_status, aeat_errors).' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 404, ...errorResponse })
  record(@SeedHeader(supplierHeader) participant: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, participant, uuid, context);
  }
}
