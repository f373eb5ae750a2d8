import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { jofotaraDefinition, supplierHeaderOf } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';

const { code, routePrefix } = jofotaraDefinition;
const supplierHeader = supplierHeaderOf(jofotaraDefinition);

/** Jordan, JoFotara (seed 002 "Jordan", libs/areas/src/jofotara/README.md): the platform's reporting routes. */
@ApiTags(`${jofotaraDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class JofotaraController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('supplier/onboard')
  @HttpCode(201)
  @ApiOperation({ summary: 'Onboard a supplier\'s JoFotara device (client id and secret checked with the portal, then sealed): 201 {status, message, data: {supplier_name, participant_id}}.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('JofotaraOnboardingBody'))
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('einvoice/generate')
  @ApiOperation({ summary: 'Issue an invoice cleared by JoFotara: 200 {status, message: {uuid, qr_code}}; JoFotara\'s refusal: 400 with its errors; no answer within the wait: 202 with the link.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('JofotaraInvoiceBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async generate(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'invoice'));
  }

  @Post('einvoice/generate/credit-note')
  @ApiOperation({ summary: 'A credit note returning quantities of an invoice\'s lines (never more than sold): the same answers as generate.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('JofotaraCreditNoteBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async creditNote(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context, 'credit-note'));
  }

  @Get('einvoice/invoices/:uuid')
  @ApiOperation({ summary: 'An invoice or credit note: its fields, totals, ICV, JoFotara status (PENDING, SUBMITTED, ALREADY_SUBMITTED, NOT_SUBMITTED with errors), number and QR.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 404, ...errorResponse })
  invoice(@SeedHeader(supplierHeader) participant: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, participant, uuid, context);
  }

  @Get('einvoice/invoices/:uuid/xml')
  @ApiOperation({ summary: 'The UBL 2.1 XML exactly as sent to JoFotara.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 404, ...errorResponse })
  async xml(@SeedHeader(supplierHeader) participant: string | undefined, @Param('uuid') uuid: string, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    const file = await this.pipeline.documentFile(code, participant, uuid, context);
    await reply.header('content-type', `${file.mediaType}; charset=utf-8`).send(file.bytes);
  }
}
