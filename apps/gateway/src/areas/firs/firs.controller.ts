import { Body, Controller, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { firsDefinition, paymentStatusChange, supplierHeaderOf } from '@einvoice/areas';
import { AreaPipeline } from '../../pipeline/area-pipeline';
import { sendAnswer } from '../../http/answer';
import { errorResponse, schemaRef } from '../../http/openapi';
import { Ctx, type RequestContext } from '../../http/request-context';
import { SeedHeader } from '../../http/seed-headers';

const { code, routePrefix } = firsDefinition;
const supplierHeader = supplierHeaderOf(firsDefinition);

/** Nigeria, FIRS (NRS) MBS (seed 002 "Nigeria", libs/areas/src/firs/README.md): the platform's reporting routes. */
@ApiTags(`${firsDefinition.name} (/${routePrefix})`)
@ApiSecurity('x-svc-auth-key')
@ApiResponse({ status: 400, ...errorResponse })
@ApiResponse({ status: 401, ...errorResponse })
@Controller(routePrefix)
export class FirsController {
  constructor(private readonly pipeline: AreaPipeline) {}

  @Post('auth/taxpayer/login')
  @HttpCode(201)
  @ApiOperation({ summary: 'Onboard a taxpayer: FIRS logs it in (utilities/authenticate) first; 201 {status, message, data: {supplier_name, participant_id}}; a refused login → 400 at password.' })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('FirsOnboardingBody'))
  onboard(@Body() body: unknown, @Ctx() context: RequestContext) {
    return this.pipeline.onboard(code, body, context);
  }

  @Post('invoice/generate')
  @ApiOperation({ summary: 'Validate the IRN and the invoice, sign it at FIRS and store it: 200 {status: "submitted", data: {irn, authority_response, qr_code, steps_completed, message, invoice, timestamp}}; FIRS\'s refusal → 400; no answer within the wait → 202 with the link.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('FirsInvoiceBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async generate(@SeedHeader(supplierHeader) participant: string | undefined, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.submit(code, participant, body, context));
  }

  @Get('invoice/:irn')
  @ApiOperation({ summary: 'The stored invoice by its IRN (or its id): the record of the generate answer, with its QR.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiResponse({ status: 404, ...errorResponse })
  invoice(@SeedHeader(supplierHeader) participant: string | undefined, @Param('irn') irn: string, @Ctx() context: RequestContext) {
    return this.pipeline.document(code, participant, irn, context);
  }

  @Patch('invoice/:irn/payment-status')
  @ApiOperation({ summary: 'Update the payment status (PENDING, PAID, CANCELED) at FIRS, then here: 200 with the stored invoice; FIRS\'s refusal → 400; no answer within the wait → 202 with the link.' })
  @ApiHeader({ name: supplierHeader, required: true })
  @ApiHeader({ name: 'Idempotency-Key', required: false })
  @ApiBody(schemaRef('FirsPaymentStatusBody'))
  @ApiResponse({ status: 404, ...errorResponse })
  @ApiResponse({ status: 409, ...errorResponse })
  async paymentStatus(@SeedHeader(supplierHeader) participant: string | undefined, @Param('irn') irn: string, @Body() body: unknown, @Ctx() context: RequestContext, @Res() reply: FastifyReply) {
    await sendAnswer(reply, await this.pipeline.amend(code, participant, irn, paymentStatusChange(body), context));
  }
}
